import DuneEvents

/// The whole-event reads of a log, for the tools and tests: every event rebuilt in full.
extension LogReader {
    /// Calls `body` with consecutive batches of events, in `seq` order.
    ///
    /// Decodes with the fast path (``forEachEventBatch(_:parallelism:_:)``)
    /// and hands the events over in full, at most `batchSize` at a time.
    ///
    /// - Parameters:
    ///   - after: skip events with `seq` ≤ this (they are still checked).
    ///   - through: stop after this seq.
    ///   - batchSize: the most events handed to `body` at once.
    /// - Throws: `DuneEventsError` `corruptLog` at the first damaged line; whatever `body` throws.
    /// - Complexity: O(n) in the log's size; memory O(batchSize + chunk).
    @discardableResult
    package func forEachBatch(after: Int = 0, through: Int = .max, batchSize: Int = 4096,
                             _ body: ([RecordedEvent]) throws -> Void) throws -> End {
        let batchSize = max(1, batchSize)
        return try forEachEventBatch(Range(after: after, throughSeq: through)) { batch in
            var start = 0
            while start < batch.count {
                let end = min(batch.count, start + batchSize)
                try body((start..<end).map { batch[$0] })
                start = end
            }
        }
    }

    /// All events in `after+1 ... through`, as one array (small logs, tests).
    package func events(after: Int = 0, through: Int = .max) throws -> [RecordedEvent] {
        var all: [RecordedEvent] = []
        try forEachBatch(after: after, through: through) { batch in all.append(contentsOf: batch) }
        return all
    }

}
