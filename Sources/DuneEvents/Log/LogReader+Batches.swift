import Dispatch
import Synchronization

extension LogReader {
    /// Which events a replay reads.
    public struct Range: Sendable, Equatable {
        /// Skip events with `seq` ≤ this.
        public var after: Int
        /// Stop after this seq.
        public var throughSeq: Int
        /// Stop before the first event recorded after this time: the log as it
        /// was at that moment. Appends only add later `recordedAt`s, so this
        /// equals truncating the log there (as long as the writer's clock never
        /// stepped back).
        public var asOf: Timestamp?

        public init(after: Int = 0, throughSeq: Int = .max, asOf: Timestamp? = nil) {
            self.after = after
            self.throughSeq = throughSeq
            self.asOf = asOf
        }
    }

    /// The log's events as an asynchronous sequence of batches, in `seq` order.
    ///
    /// Reading and decoding run on a dispatch thread of their own while the
    /// consumer folds the previous batch, so a replay keeps two cores busy.
    /// At most `prefetch` decoded batches wait in memory: the reader blocks on
    /// its own thread (never the cooperative pool) until the consumer catches up.
    ///
    /// The sequence throws `corruptLog` at a damaged line, after delivering
    /// every good batch before it.
    public func batches(_ range: Range = Range(), prefetch: Int = 4) -> LogBatches {
        LogBatches(reader: self, range: range, prefetch: max(1, prefetch))
    }
}

/// The batches of a log replay; see ``LogReader/batches(_:prefetch:)``.
public struct LogBatches: AsyncSequence, Sendable {
    public typealias Element = [RecordedEvent]
    let reader: LogReader
    let range: LogReader.Range
    let prefetch: Int

    public func makeAsyncIterator() -> Iterator {
        let (stream, continuation) = AsyncThrowingStream<[RecordedEvent], any Error>.makeStream()
        let producer = Producer(prefetch: prefetch)
        continuation.onTermination = { _ in producer.cancel() }
        let reader = reader
        let range = range
        DispatchQueue.global(qos: .userInitiated).async {
            producer.run(reader: reader, range: range, continuation: continuation)
        }
        return Iterator(base: stream.makeAsyncIterator(), producer: producer)
    }

    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<[RecordedEvent], any Error>.AsyncIterator
        let producer: Producer
        var delivered = false

        public mutating func next() async throws -> [RecordedEvent]? {
            // Asking for the next batch means the previous one is folded: free its slot.
            if delivered { producer.slots.signal() }
            let batch = try await base.next()
            delivered = batch != nil
            return batch
        }
    }

    /// The reading side: runs on a dispatch thread, bounded by `slots`.
    final class Producer: Sendable {
        let slots: DispatchSemaphore
        private let cancelled = Atomic<Bool>(false)

        init(prefetch: Int) {
            slots = DispatchSemaphore(value: prefetch)
        }

        func cancel() {
            cancelled.store(true, ordering: .releasing)
            slots.signal()
        }

        func run(reader: LogReader, range: LogReader.Range, continuation: AsyncThrowingStream<[RecordedEvent], any Error>.Continuation) {
            struct Stop: Error {}
            do {
                try reader.forEachBatch(after: range.after, through: range.throughSeq) { batch in
                    var batch = batch
                    var reachedAsOf = false
                    if let asOf = range.asOf, let cut = batch.firstIndex(where: { $0.recordedAt.instant > asOf.instant }) {
                        batch.removeSubrange(cut...)
                        reachedAsOf = true
                    }
                    if !batch.isEmpty {
                        slots.wait()
                        if cancelled.load(ordering: .acquiring) { throw Stop() }
                        continuation.yield(batch)
                    }
                    if reachedAsOf { throw Stop() }
                }
                continuation.finish()
            } catch is Stop {
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
    }
}
