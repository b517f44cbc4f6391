import Dispatch
import Synchronization

/// Runs a synchronous producer on a dispatch thread of its own and hands what
/// it yields to an async consumer, with at most `prefetch` items waiting.
///
/// The producer's `yield` blocks (its own thread, never the cooperative pool)
/// while `prefetch` items are unconsumed, so memory stays bounded however fast
/// it produces. When the consumer stops iterating, the next `yield` throws
/// ``Cancelled`` so the producer winds down. An error the producer throws is
/// rethrown by the sequence after every item yielded before it.
///
/// ```swift
/// let items = BlockingProducer<[Int]>(prefetch: 4) { yield in
///     for chunk in file { try yield(parse(chunk)) }
/// }
/// for try await batch in items { await fold(batch) }
/// ```
package struct BlockingProducer<Element: Sendable>: AsyncSequence, Sendable {
    /// Thrown by `yield` when the consumer is gone.
    package struct Cancelled: Error {}

    package typealias Produce = @Sendable (_ yield: (Element) throws -> Void) throws -> Void

    let prefetch: Int
    let produce: Produce

    package init(prefetch: Int = 4, produce: @escaping Produce) {
        self.prefetch = Swift.max(1, prefetch)
        self.produce = produce
    }

    package func makeAsyncIterator() -> Iterator {
        let (stream, continuation) = AsyncThrowingStream<Element, any Error>.makeStream()
        let gate = Gate(slots: prefetch)
        continuation.onTermination = { _ in gate.cancel() }
        let produce = produce
        // A serial queue of its own: on Linux the global queues run about one
        // thread per core, and this one spends most of its time waiting.
        DispatchQueue(label: "DuneEvents.BlockingProducer", qos: .userInitiated).async {
            do {
                try produce { element in
                    gate.slots.wait()
                    if gate.isCancelled { throw Cancelled() }
                    continuation.yield(element)
                }
                continuation.finish()
            } catch is Cancelled {
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        return Iterator(base: stream.makeAsyncIterator(), gate: gate)
    }

    package struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Element, any Error>.AsyncIterator
        let gate: Gate
        var holdsSlot = false

        package mutating func next() async throws -> Element? {
            // Asking for the next item means the previous one is consumed: free its slot.
            if holdsSlot { gate.slots.signal() }
            let element = try await base.next()
            holdsSlot = element != nil
            return element
        }
    }

    /// The bound on waiting items, and the consumer-gone flag.
    final class Gate: Sendable {
        let slots: DispatchSemaphore
        private let cancelled = Atomic<Bool>(false)

        init(slots: Int) {
            // Created at 0 and raised: libdispatch traps when a semaphore is freed
            // below its initial value, which a consumer that stops early leaves it at.
            self.slots = DispatchSemaphore(value: 0)
            for _ in 0..<slots { self.slots.signal() }
        }

        var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

        func cancel() {
            cancelled.store(true, ordering: .releasing)
            slots.signal()
        }
    }
}
