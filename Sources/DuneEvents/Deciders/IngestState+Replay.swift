extension IngestState {
    /// Folds every event of `batch`, in order: ``evolve(with:content:)`` per
    /// event, but the input content of a packed sample (the bulk of a log) is
    /// written straight from its row (``InputContent``'s bytes, without a
    /// `Sample` in between) — the same bytes, so the same digest.
    ///
    /// - Complexity: O(n) for n events.
    mutating func evolve(_ batch: EventBatch) {
        var scratch: [UInt8] = []
        scratch.reserveCapacity(512)
        let block = batch.samples
        for position in 0..<batch.count {
            let row = batch.rows[position]
            guard row >= 0 else {
                evolve(with: batch.others[Int(~row)])
                continue
            }
            let packed = block.rows[Int(row)]
            let extra = batch.envelopes[Int(row)].hasExtra ? batch.envelopeExtras[row] : nil
            guard !packed.isFull, extra?.extra?.isEmpty ?? true else {
                evolve(with: batch[position])
                continue
            }
            scratch.removeAll(keepingCapacity: true)
            Self.writeInputContent(of: packed, source: block.sources[Int(packed.source)], into: &scratch)
            let content = ContentDigest(scratch)
            lastSeq = packed.seq
            if let eventID = extra?.eventID {
                eventIDs.set(ContentDigest(string: eventID), StoredContent(content: content, seq: packed.seq))
            }
            scratch.removeAll(keepingCapacity: true)
            packed.packedID.write(into: &scratch)
            evolveSample(key: ContentDigest(scratch), content: content)
        }
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
