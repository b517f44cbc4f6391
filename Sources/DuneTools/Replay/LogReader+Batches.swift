import Dispatch
import DuneEvents
import DuneHealthImport

extension LogReader {
    /// The log's events as an asynchronous sequence of ``EventBatch``es, in
    /// `seq` order: the fast replay path.
    ///
    /// Decoding runs on dispatch threads of its own (see
    /// ``forEachEventBatch(_:parallelism:_:)``) while the consumer folds the
    /// previous batches; at most `prefetch` decoded batches wait in memory.
    /// The sequence throws `corruptLog` at a damaged line, after delivering
    /// every good event before it.
    package func eventBatches(_ range: Range = Range(), prefetch: Int = 4) -> EventBatches {
        eventBatches(range, startingAt: Resumption(), prefetch: prefetch)
    }

    /// ``eventBatches(_:prefetch:)`` from a line start other than the first:
    /// the lines before `start.offset` are not read (a snapshot covers them).
    package func eventBatches(_ range: Range, startingAt start: Resumption, prefetch: Int = 4) -> EventBatches {
        let reader = self
        return EventBatches(prefetch: prefetch) { deliver in
            try reader.forEachEventBatch(range, parallelism: LogReader.defaultParallelism, chunkSize: LogReader.chunkSize,
                                         startingAt: start) { batch in try deliver(batch) }
        }
    }
}

/// The ``EventBatch``es of a log replay; see ``LogReader/eventBatches(_:prefetch:)``.
package typealias EventBatches = BlockingProducer<EventBatch>
