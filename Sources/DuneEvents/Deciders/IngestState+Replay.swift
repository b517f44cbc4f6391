extension IngestState {
    /// Makes room ahead of a replay of about `events` events, of which
    /// samples are usually most (three in four are assumed), so that the
    /// sample table is not grown, copied and rehashed step by step on the
    /// way (it grows once more when the guess falls short).
    mutating func reserveCapacity(events: Int) {
        samples.reserveCapacity(events / 4 * 3)
    }

    /// Folds every event of `batch`, in order: ``evolve(with:content:)`` per
    /// event, but the input content of a packed sample (the bulk of a log) is
    /// written straight from its row (``InputContent``'s bytes, without a
    /// `Sample` in between) — the same bytes, so the same digest.
    ///
    /// - Parameter precomputed: ``digests(of:)`` of `batch`, when another
    ///   thread computed them (a replay's decoding threads); else computed here.
    /// - Complexity: O(n) for n events.
    mutating func evolve(_ batch: EventBatch, digests precomputed: [ContentDigest] = []) {
        let digests = precomputed.count == 2 * batch.count ? precomputed : Self.digests(of: batch)
        for position in 0..<batch.count {
            let row = batch.rows[position]
            guard row >= 0, let packed = Self.packedSample(batch, row: row) else {
                evolve(with: batch[position], contentDigest: digests[2 * position + 1] == Self.hasContent ? digests[2 * position] : nil)
                continue
            }
            lastSeq = packed.seq
            if batch.envelopes[Int(row)].hasExtra, let eventID = batch.envelopeExtras[row]?.eventID {
                eventIDs.set(ContentDigest(string: eventID), StoredContent(content: digests[2 * position], seq: packed.seq))
            }
            evolveSample(key: digests[2 * position + 1], content: digests[2 * position])
        }
    }

    /// Per event of `batch`, two digests: of a packed sample, its input
    /// content's and its id's; of any other event, its input content's and
    /// ``hasContent`` (both zero when it has none). The costly part of
    /// folding, free of the state, so that a replay computes it on its
    /// decoding threads.
    static func digests(of batch: EventBatch) -> [ContentDigest] {
        var digests = [ContentDigest](repeating: ContentDigest(high: 0, low: 0), count: 2 * batch.count)
        var scratch: [UInt8] = []
        scratch.reserveCapacity(512)
        for position in 0..<batch.count {
            let row = batch.rows[position]
            guard row >= 0, let packed = packedSample(batch, row: row) else {
                if batch[position].event.writeInputContent(into: &scratch) {
                    digests[2 * position] = ContentDigest(scratch)
                    digests[2 * position + 1] = hasContent
                }
                continue
            }
            scratch.removeAll(keepingCapacity: true)
            writeInputContent(of: packed, source: batch.samples.sources[Int(packed.source)], into: &scratch)
            digests[2 * position] = ContentDigest(scratch)
            scratch.removeAll(keepingCapacity: true)
            packed.packedID.write(into: &scratch)
            digests[2 * position + 1] = ContentDigest(scratch)
        }
        return digests
    }

    /// The second digest of an event other than a packed sample that has input content.
    static let hasContent = ContentDigest(high: 1, low: 1)

    /// The packed sample of sample row `row`, unless it is folded in full (a
    /// full row, or an envelope with extra members).
    static func packedSample(_ batch: EventBatch, row: Int32) -> PackedSample? {
        let packed = batch.samples.rows[Int(row)]
        guard !packed.isFull else { return nil }
        if batch.envelopes[Int(row)].hasExtra, !(batch.envelopeExtras[row]?.extra?.isEmpty ?? true) { return nil }
        return packed
    }

    /// ``Event/inputContent`` of a packed quantity or sleep sample: the members
    /// `end, id, kind, measure, source, start, type, unit, value` (sleep: no
    /// `unit`; only hrv has `measure`).
    static func writeInputContent(of packed: PackedSample, source: String, into output: inout [UInt8]) {
        let kind = packed.kind
        let reading: SampleObjectWriter.Reading<String> = kind == .sleep
            ? .sleep(stage: SleepStage.packed(Int(packed.value)).rawValue)
            : .quantity(unit: kind.canonicalUnit ?? "", value: packed.value)
        SampleObjectWriter.write(.inputContent(unknown: JSONObject()), end: packed.end, id: packed.packedID, kind: kind.rawValue,
                                 measure: kind == .hrv ? packed.hrvMeasure : nil, source: source, start: packed.start,
                                 reading: reading, into: &output)
    }
}
