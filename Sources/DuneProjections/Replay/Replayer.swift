import DuneEvents

/// Rebuilds projections from a log: streams it once and hands each batch of
/// thousands of events to every selected projection actor.
///
/// ```swift
/// let projections = ProjectionSet()
/// let summary = try await Replayer.replay(LogReader(path: "Logs/events.jsonl"), into: projections)
/// for file in await projections.files() { … }
/// ```
///
/// The same function keeps live projections current: pass
/// `after: await projections.throughSeq()` to feed only what they have not seen.
public enum Replayer {
    /// What a replay read.
    public struct Summary: Sendable, Equatable {
        /// Events folded.
        public var events: Int
        /// The seq of the last event folded (0 when none).
        public var throughSeq: Int
    }

    /// Feeds `range` of the log to `projections`, in order, in batches.
    ///
    /// - Throws: `DuneEventsError` `corruptLog` at a damaged line: the caller
    ///   must not use the projections then (they hold only the events before it).
    /// - Complexity: O(n) in the events read; memory O(batch × prefetch) for reading.
    @discardableResult
    public static func replay(_ reader: LogReader, range: LogReader.Range = LogReader.Range(),
                              into projections: ProjectionSet,
                              progress: (Summary) -> Void = { _ in }) async throws -> Summary {
        var summary = Summary(events: 0, throughSeq: range.after)
        for try await batch in reader.batches(range) {
            await projections.apply(batch)
            summary.events += batch.count
            summary.throughSeq = batch.last?.seq ?? summary.throughSeq
            progress(summary)
        }
        return summary
    }
}
