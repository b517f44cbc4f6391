/// What a `forget` rewrite changed in the log, in the terms of the deciders'
/// state (``IngestState/erase(_:)``): which lines are redacted, and which
/// `eventID`s the rewrite dropped with them. Gathered by ``LogEraser`` while
/// it selects and copies; no line is read again.
struct SampleErasure: Sendable {
    /// A redacted line: its seq and its sample id's digest.
    struct Redaction: Sendable, Equatable {
        var seq: Int
        var sampleKey: ContentDigest
    }

    /// The `eventID` a newly redacted line carried before the rewrite.
    struct DroppedEventID: Sendable, Equatable {
        var key: ContentDigest
        var seq: Int
    }

    /// The lines an earlier `forget` redacted, in seq order.
    var earlier: [Redaction] = []
    /// The lines this rewrite redacted, in seq order.
    var redacted: [Redaction] = []
    /// The `eventID`s of the lines this rewrite redacted (a redacted line keeps none), in seq order.
    var droppedEventIDs: [DroppedEventID] = []
}

extension IngestState {
    /// Turns the state of the log before a `forget` rewrite into the state of
    /// the rewritten log (before its `data.forgotten` line, which the caller
    /// folds with ``evolve(with:content:)`` like any event), without reading it.
    ///
    /// A redacted line folds to one thing only: its sample id joins the
    /// forgotten ids. So, compared with the old log, the new one has:
    /// - no entry for a redacted sample (its versions, corrections and their
    ///   index; the other samples keep their order and their corrections);
    /// - no entry for an `eventID` a redacted line carried. The entry goes
    ///   only when it still names that line's seq: `EventLog` never stores an
    ///   `eventID` twice (a repeat is `alreadyAppended` or a `conflict`), so
    ///   no other line can hold it;
    /// - the forgotten ids in the order of their first redacted line, earlier
    ///   `forget`s included.
    ///
    /// The refresh coordinator, tasks, stored refresh/profile lines and task
    /// phases are untouched: only sample events are redacted. The result
    /// equals a replay of the new log (`ForgetStateTests` compares them,
    /// checkpoint bytes included).
    ///
    /// - Complexity: O(n) in the entries of the tables that lose some, plus
    ///   O(r log r) in the redacted lines; O(r) when only forgotten ids change.
    mutating func erase(_ erasure: SampleErasure) {
        var eventIndices: [Int] = []
        for dropped in erasure.droppedEventIDs {
            if let index = eventIDs.index(of: dropped.key), eventIDs.values[index].seq == dropped.seq {
                eventIndices.append(index)
            }
        }
        eventIDs.removeEntries(at: eventIndices)

        // A sample has one entry however many of its lines were redacted.
        var sampleIndices: [Int] = []
        for index in erasure.redacted.compactMap({ samples.index(of: $0.sampleKey) }).sorted() where sampleIndices.last != index {
            sampleIndices.append(index)
        }
        var removedLater: [Int] = []
        var pairIndices: [Int] = []
        for index in sampleIndices where samples.values[index].later >= 0 {
            let later = Int(samples.values[index].later)
            removedLater.append(later)
            guard laterSampleVersions[later].count >= Self.indexedCorrections else { continue }
            let key = samples.keys[index]
            for digest in laterSampleVersions[later] {
                if let pair = manyCorrections.index(of: Self.pair(key, digest)) { pairIndices.append(pair) }
            }
        }
        samples.removeEntries(at: sampleIndices)
        manyCorrections.removeEntries(at: pairIndices)
        if !removedLater.isEmpty {
            // Renumber the corrections of the samples that stay, in their order.
            var renumbered = [Int32](repeating: 0, count: laterSampleVersions.count)
            var removed = [Bool](repeating: false, count: laterSampleVersions.count)
            for later in removedLater { removed[later] = true }
            var kept: [[ContentDigest]] = []
            var keptCurrent: [ContentDigest] = []
            kept.reserveCapacity(laterSampleVersions.count - removedLater.count)
            keptCurrent.reserveCapacity(laterSampleVersions.count - removedLater.count)
            for (later, versions) in laterSampleVersions.enumerated() {
                renumbered[later] = removed[later] ? -1 : Int32(kept.count)
                if !removed[later] {
                    kept.append(versions)
                    keptCurrent.append(currentSampleVersions[later])
                }
            }
            laterSampleVersions = kept
            currentSampleVersions = keptCurrent
            for index in samples.values.indices where samples.values[index].later >= 0 {
                samples.update(at: index) { $0.later = renumbered[Int($0.later)] }
            }
        }

        // The forgotten ids, as a fold of every redacted line in seq order gives them.
        var forgotten = DigestTable<Bool>()
        let earlier = erasure.earlier, redacted = erasure.redacted
        var nextEarlier = 0, nextRedacted = 0
        while nextEarlier < earlier.count || nextRedacted < redacted.count {
            let line: SampleErasure.Redaction
            if nextRedacted == redacted.count || (nextEarlier < earlier.count && earlier[nextEarlier].seq < redacted[nextRedacted].seq) {
                line = earlier[nextEarlier]
                nextEarlier += 1
            } else {
                line = redacted[nextRedacted]
                nextRedacted += 1
            }
            if !forgotten.contains(line.sampleKey) { forgotten.append(line.sampleKey, true) }
        }
        forgottenSamples = forgotten
    }
}
