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
    /// Reading and decoding run on a dispatch queue (and thread) of their own while the
    /// consumer folds the previous batch, so a replay keeps two cores busy.
    /// At most `prefetch` decoded batches wait in memory: the reader blocks on
    /// its own thread (never the cooperative pool) until the consumer catches up.
    ///
    /// The sequence throws `corruptLog` at a damaged line, after delivering
    /// every good batch before it.
    public func batches(_ range: Range = Range(), prefetch: Int = 4) -> LogBatches {
        LogBatches(reader: self, range: range, prefetch: max(1, prefetch))
    }

    /// The log's events as an asynchronous sequence of ``EventBatch``es, in
    /// `seq` order: the fast replay path.
    ///
    /// Decoding runs on dispatch threads of its own (see
    /// ``forEachEventBatch(_:parallelism:_:)``) while the consumer folds the
    /// previous batches; at most `prefetch` decoded batches wait in memory.
    /// The sequence throws `corruptLog` at a damaged line, after delivering
    /// every good event before it.
    public func eventBatches(_ range: Range = Range(), prefetch: Int = 4) -> EventBatches {
        EventBatches(reader: self, range: range, prefetch: max(1, prefetch))
    }
}

/// The ``EventBatch``es of a log replay; see ``LogReader/eventBatches(_:prefetch:)``.
public struct EventBatches: AsyncSequence, Sendable {
    public typealias Element = EventBatch
    let reader: LogReader
    let range: LogReader.Range
    let prefetch: Int

    public func makeAsyncIterator() -> Iterator {
        let (stream, continuation) = AsyncThrowingStream<EventBatch, any Error>.makeStream()
        let producer = BatchProducer(prefetch: prefetch)
        continuation.onTermination = { _ in producer.cancel() }
        let reader = reader
        let range = range
        DispatchQueue(label: "DuneEvents.LogReader.batches", qos: .userInitiated).async {
            producer.run(continuation: continuation) { deliver in
                try reader.forEachEventBatch(range) { batch in try deliver(batch) }
            }
        }
        return Iterator(base: stream.makeAsyncIterator(), producer: producer)
    }

    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<EventBatch, any Error>.AsyncIterator
        let producer: BatchProducer
        var delivered = false

        public mutating func next() async throws -> EventBatch? {
            // Asking for the next batch means the previous one is folded: free its slot.
            if delivered { producer.slots.signal() }
            let batch = try await base.next()
            delivered = batch != nil
            return batch
        }
    }
}

/// Thrown inside a producer when the consumer went away.
private struct ProducerStop: Error {}

/// The reading side of an asynchronous batch sequence: runs on a dispatch
/// thread, at most `prefetch` batches ahead of the consumer.
final class BatchProducer: Sendable {
    let slots: DispatchSemaphore
    private let cancelled = Atomic<Bool>(false)

    init(prefetch: Int) {
        // Created at 0 and raised: libdispatch traps when a semaphore is freed
        // below its initial value, which a consumer that stops early leaves it at.
        slots = DispatchSemaphore(value: 0)
        for _ in 0..<prefetch { slots.signal() }
    }

    func cancel() {
        cancelled.store(true, ordering: .releasing)
        slots.signal()
    }

    /// Runs `read`, yielding what it delivers; finishes the stream when it returns or throws.
    func run<Element: Sendable>(continuation: AsyncThrowingStream<Element, any Error>.Continuation,
                                read: (_ deliver: (Element) throws -> Void) throws -> Void) {
        do {
            try read { element in
                slots.wait()
                if cancelled.load(ordering: .acquiring) { throw ProducerStop() }
                continuation.yield(element)
            }
            continuation.finish()
        } catch is ProducerStop {
            continuation.finish()
        } catch {
            continuation.finish(throwing: error)
        }
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
        let producer = BatchProducer(prefetch: prefetch)
        continuation.onTermination = { _ in producer.cancel() }
        let reader = reader
        let range = range
        DispatchQueue(label: "DuneEvents.LogReader.batches", qos: .userInitiated).async {
            producer.run(continuation: continuation) { deliver in
                try reader.forEachEventBatch(range) { batch in try deliver(batch.events) }
            }
        }
        return Iterator(base: stream.makeAsyncIterator(), producer: producer)
    }

    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<[RecordedEvent], any Error>.AsyncIterator
        let producer: BatchProducer
        var delivered = false

        public mutating func next() async throws -> [RecordedEvent]? {
            // Asking for the next batch means the previous one is folded: free its slot.
            if delivered { producer.slots.signal() }
            let batch = try await base.next()
            delivered = batch != nil
            return batch
        }
    }
}

