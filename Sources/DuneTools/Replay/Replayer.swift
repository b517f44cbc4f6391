import DuneEvents
import DuneProjections

/// Rebuilds read models from a log: streams it once and hands each batch of
/// thousands of events to the engine.
///
/// ```swift
/// var engine = ReadModelEngine()
/// let summary = try await Replayer.replay(LogReader(path: "Logs/events.jsonl"), into: &engine)
/// let state = engine.state()
/// ```
package enum Replayer {
    /// What a replay read.
    package struct Summary: Sendable, Equatable {
        /// Events folded.
        package var events: Int
        /// The seq of the last event folded (0 when none).
        package var throughSeq: Int
        /// Events read but skipped by every projection because a timestamp lies
        /// outside ``TimestampWindow`` (stored by an older version; see docs/input-format.md).
        package var skippedOutsideTimestampWindow = 0

        package init(events: Int, throughSeq: Int, skippedOutsideTimestampWindow: Int = 0) {
            self.events = events
            self.throughSeq = throughSeq
            self.skippedOutsideTimestampWindow = skippedOutsideTimestampWindow
        }
    }

    /// Feeds `range` of the log to `engine`, in order, in batches.
    ///
    /// The log is read in 4 MiB chunks decoded on their own threads while the
    /// engine folds the chunks before: replay keeps every core busy. (The tests check it against a reference
    /// replay that decodes every line on one thread: DuneOracles' `ReferenceReplay`.)
    ///
    /// - Throws: `DuneEventsError` `corruptLog` at a damaged line, and
    ///   `CancellationError` between batches when the task is cancelled: the
    ///   caller must not use the engine then (they hold only a part of the range).
    /// - Complexity: O(n) in the events read; memory O(chunk × prefetch) for reading.
    @discardableResult
    package static func replay(_ reader: LogReader, range: LogReader.Range = LogReader.Range(),
                              into engine: inout ReadModelEngine,
                              progress: (Summary) -> Void = { _ in }) async throws -> Summary {
        var summary = Summary(events: 0, throughSeq: range.after)
        engine.reserveCapacity(samples: min(reader.estimatedEventCount, max(0, range.throughSeq - range.after)))
        try await fold(reader.eventBatches(range), into: &engine, summary: &summary, progress: progress)
        return summary
    }

    /// Feeds the events after the line `stamp` names to `engine`, reading
    /// the log from that line's end on: the tail after a snapshot.
    ///
    /// - Throws: what ``replay(_:range:into:progress:)`` throws.
    /// - Complexity: O(n) in the events after the stamp.
    @discardableResult
    package static func replayTail(_ reader: LogReader, after stamp: LogStamp, into engine: inout ReadModelEngine,
                                   progress: (Summary) -> Void = { _ in }) async throws -> Summary {
        var summary = Summary(events: 0, throughSeq: stamp.lastSeq)
        let start = LogReader.Resumption(offset: stamp.offset, expectedSeq: stamp.lastSeq + 1)
        try await fold(reader.eventBatches(LogReader.Range(after: stamp.lastSeq), startingAt: start), into: &engine,
                       summary: &summary, progress: progress)
        return summary
    }

    /// Folds every batch of `batches`, stopping between batches when the task is cancelled.
    private static func fold(_ batches: EventBatches, into engine: inout ReadModelEngine, summary: inout Summary,
                             progress: (Summary) -> Void) async throws {
        for try await batch in batches {
            try Task.checkCancellation()
            engine.apply(batch)
            summary.events += batch.count
            summary.skippedOutsideTimestampWindow += batch.outsideTimestampWindowCount
            summary.throughSeq = batch.lastSeq ?? summary.throughSeq
            progress(summary)
        }
    }
}
