import Synchronization

/// The updates of a ``DuneStore``: an `AsyncSequence` with one element per
/// change of its read models (its own appends and forgets, and what it
/// followed of other processes' appends), for a view to reload on.
///
/// ``DuneStore/states`` is usually the better fit: it starts with the current
/// state, and each element holds the four models at one seq.
///
/// Any number of tasks may iterate at once; each iteration is its own
/// subscriber from its first `next()` call on, and sees the appends made
/// after that.
///
/// **Delivery policy.** A subscriber never slows an append down and never
/// holds more than one element: when it has not taken the previous update
/// yet, the new one is merged into it (the later `throughSeq`, the union of
/// the changed models). A view that is busy for a while therefore wakes up
/// once, with everything that changed meanwhile. A cancelled task's
/// iteration ends (its `next()` returns `nil`) and it is dropped; after
/// ``DuneStore/close()``, when the store is released and when it fails,
/// every iteration ends.
///
/// ```swift
/// for await update in store.updates where update.changedModels.contains(.readiness) {
///     model = await store.readiness
/// }
/// ```
public struct StoreUpdates: AsyncSequence, Sendable {
    /// Each element is one ``StoreUpdate``.
    public typealias Element = StoreUpdate

    let hub: UpdateHub

    /// Registers a new subscriber.
    /// - Returns: An iterator that yields the updates made after its first `next()` call.
    public func makeAsyncIterator() -> Iterator {
        Iterator(subscription: UpdateHub.Subscription(hub: hub))
    }

    /// Waits for the next update of one subscriber.
    public struct Iterator: AsyncIteratorProtocol {
        let subscription: UpdateHub.Subscription

        /// The next update, or `nil` once the store is closed or the task is cancelled.
        public mutating func next() async -> StoreUpdate? {
            let subscription = subscription
            return await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    subscription.hub.wait(subscription.id, continuation)
                }
            } onCancel: {
                subscription.hub.unsubscribe(subscription.id)
            }
        }
    }
}

/// The subscribers of one store and the update each has not taken yet.
final class UpdateHub: Sendable {
    private struct Subscriber {
        var pending: StoreUpdate?
        var waiting: CheckedContinuation<StoreUpdate?, Never>?
    }

    private struct State {
        var subscribers: [Int: Subscriber] = [:]
        var nextID = 0
        var finished = false
    }

    private let state = Mutex(State())

    /// One iteration's registration; it ends when the iterator is dropped.
    final class Subscription: Sendable {
        let hub: UpdateHub
        let id: Int

        init(hub: UpdateHub) {
            self.hub = hub
            self.id = hub.subscribe()
        }

        deinit { hub.unsubscribe(id) }
    }

    private func subscribe() -> Int {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            if !state.finished { state.subscribers[id] = Subscriber() }
            return id
        }
    }

    /// Resumes `continuation` with the subscriber's pending update, or once one is published.
    func wait(_ id: Int, _ continuation: CheckedContinuation<StoreUpdate?, Never>) {
        let ready: StoreUpdate?? = state.withLock { state in
            guard var subscriber = state.subscribers[id] else { return .some(nil) }
            if let pending = subscriber.pending {
                subscriber.pending = nil
                state.subscribers[id] = subscriber
                return .some(pending)
            }
            subscriber.waiting = continuation
            state.subscribers[id] = subscriber
            return .none
        }
        if let ready { continuation.resume(returning: ready) }
    }

    /// Hands `update` to every subscriber: at once to those waiting, merged
    /// into the pending one for the others. Never waits for a subscriber.
    func publish(_ update: StoreUpdate) {
        let woken: [CheckedContinuation<StoreUpdate?, Never>] = state.withLock { state in
            var woken: [CheckedContinuation<StoreUpdate?, Never>] = []
            for id in state.subscribers.keys {
                guard var subscriber = state.subscribers[id] else { continue }
                if let waiting = subscriber.waiting {
                    subscriber.waiting = nil
                    woken.append(waiting)
                } else {
                    subscriber.pending = subscriber.pending.map { $0.merged(with: update) } ?? update
                }
                state.subscribers[id] = subscriber
            }
            return woken
        }
        for continuation in woken { continuation.resume(returning: update) }
    }

    /// Drops a subscriber; its waiting `next()` returns `nil`.
    func unsubscribe(_ id: Int) {
        let waiting = state.withLock { $0.subscribers.removeValue(forKey: id)?.waiting }
        waiting?.resume(returning: nil)
    }

    /// Ends every iteration, now and later.
    func finish() {
        let waiting: [CheckedContinuation<StoreUpdate?, Never>] = state.withLock { state in
            state.finished = true
            defer { state.subscribers = [:] }
            return state.subscribers.values.compactMap(\.waiting)
        }
        for continuation in waiting { continuation.resume(returning: nil) }
    }

    /// How many subscribers are registered (for tests).
    var subscriberCount: Int { state.withLock { $0.subscribers.count } }
}
