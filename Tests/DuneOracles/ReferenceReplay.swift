import DuneEvents
import DuneProjections
import DuneTools

/// The reference replay: the log read by ``ReferenceLogReader`` (every line
/// through the reference decoder, one thread), decoded first and folded
/// after, event arrays instead of packed batches. `Replayer.replay` (chunks
/// decoded in parallel into `EventBatch`es) must leave the engine with
/// the same bytes; this is what it is checked against.
package enum ReferenceReplay {
    /// Feeds `range` of the log at `path` to `engine`, in order, in
    /// batches of at most `batchSize` events.
    ///
    /// - Throws: `DuneEventsError` `corruptLog` at a damaged line.
    @discardableResult
    package static func replay(path: String, range: LogReader.Range = LogReader.Range(), into engine: inout ReadModelEngine,
                               batchSize: Int = 4096) async throws -> Replayer.Summary {
        struct ReachedAsOf: Error {}
        var summary = Replayer.Summary(events: 0, throughSeq: range.after)
        var batches: [[RecordedEvent]] = []
        do {
            try ReferenceLogReader.forEachBatch(path: path, batchSize: batchSize, after: range.after, through: range.throughSeq) { batch in
                var batch = batch
                if let asOf = range.asOf, let cut = batch.firstIndex(where: { $0.recordedAt.instant > asOf.instant }) {
                    batch.removeSubrange(cut...)
                    batches.append(batch)
                    throw ReachedAsOf()
                }
                batches.append(batch)
            }
        } catch is ReachedAsOf {}
        for batch in batches where !batch.isEmpty {
            engine.apply(batch)
            summary.events += batch.count
            summary.skippedOutsideTimestampWindow += batch.count { $0.isOutsideTimestampWindow }
            summary.throughSeq = batch.last?.seq ?? summary.throughSeq
        }
        return summary
    }
}
