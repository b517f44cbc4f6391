import DuneEvents
import Synchronization

/// The states of a ``DuneStore`` as an `AsyncSequence`: the current state
/// first, then each later state, for a view to show.
///
/// Each element is one ``StoreState``: the four read models at one
/// `throughSeq`. Any number of tasks may iterate at once, each from the state
/// current when it starts.
///
/// **Delivery policy.** An observer never slows a write and never holds more
/// than one pending change: when it has not taken the previous state yet, it
/// gets the latest one when it asks (the states in between are merged). Its
/// loop ends (`next()` returns `nil`) when its task is cancelled, when the
/// store is closed or released; it throws the store's ``DuneEventsError`` when
/// the store fails (an I/O error, damage or a line of a newer version found
/// while following another process's appends).
///
/// ```swift
/// for try await state in store.states {
///     readiness = state.readiness
/// }
/// ```
public struct StoreStates: AsyncSequence, Sendable {
    /// Each element is one ``StoreState``.
    public typealias Element = StoreState

    let hub: StateHub
    let store: WeakStore

    /// Starts an observation.
    /// - Returns: An iterator whose first element is the state when it is first asked.
    public func makeAsyncIterator() -> Iterator {
        Iterator(hub: hub, store: store)
    }

    /// Waits for the next state of one observation.
    public struct Iterator: AsyncIteratorProtocol {
        let hub: StateHub
        let store: WeakStore
        /// The hub's version when the last element was read; `nil` before the first.
        private var seen: Int?
        /// The fold generation of the last element, so that no state is yielded twice.
        private var lastGeneration: Int?

        init(hub: StateHub, store: WeakStore) {
            self.hub = hub
            self.store = store
        }

        /// The current state the first time, then the next state that differs from the last one.
        /// - Returns: `nil` once the store is closed or released, or the task is cancelled.
        /// - Throws: The ``DuneEventsError`` that failed the store.
        public mutating func next() async throws -> StoreState? {
            while true {
                if Task.isCancelled { return nil }
                if let seen {
                    switch await hub.change(after: seen) {
                    case .changed(let version): self.seen = version
                    case .ended: return nil
                    case .failed(let error): throw error
                    }
                } else {
                    if case .failed(let error) = hub.end { throw error }
                    if hub.end != nil { return nil }
                    seen = hub.version
                }
                guard let store = store.value else { return nil }
                let observed = await store.observedState()
                guard observed.generation != lastGeneration else { continue }
                lastGeneration = observed.generation
                return observed.state
            }
        }
    }
}

/// A reference to a store that does not keep it alive (an observation must end when the store is released).
final class WeakStore: Sendable {
    private struct Box {
        weak var store: DuneStore?
    }

    private let box: Mutex<Box>

    init(_ store: DuneStore?) {
        box = Mutex(Box(store: store))
    }

    var value: DuneStore? { box.withLock { $0.store } }
}

/// Tells observations that the store's state changed, or ended.
final class StateHub: Sendable {
    /// What a waiting observation learns.
    enum Change: Sendable {
        case changed(version: Int)
        case ended
        case failed(DuneEventsError)
    }

    /// How the hub ended.
    enum End: Sendable, Equatable {
        case closed
        case failed(DuneEventsError)
    }

    private struct State {
        var version = 0
        var end: End?
        var waiters: [Int: CheckedContinuation<Change, Never>] = [:]
        var nextID = 0
    }

    private let state = Mutex(State())

    /// Raised by every change.
    var version: Int { state.withLock { $0.version } }

    /// Set once the store is closed, released or failed.
    var end: End? { state.withLock { $0.end } }

    /// A new state is there: wakes every waiting observation. Never waits.
    func signal() {
        let woken = state.withLock { state -> ([CheckedContinuation<Change, Never>], Int) in
            state.version += 1
            defer { state.waiters = [:] }
            return (Array(state.waiters.values), state.version)
        }
        for continuation in woken.0 { continuation.resume(returning: .changed(version: woken.1)) }
    }

    /// Ends every observation, now and later: with `failure` thrown, or quietly.
    func finish(failure: DuneEventsError? = nil) {
        let (woken, change) = state.withLock { state -> ([CheckedContinuation<Change, Never>], Change) in
            if state.end == nil { state.end = failure.map { .failed($0) } ?? .closed }
            defer { state.waiters = [:] }
            let change: Change = if case .failed(let error) = state.end { .failed(error) } else { .ended }
            return (Array(state.waiters.values), change)
        }
        for continuation in woken { continuation.resume(returning: change) }
    }

    /// Waits until the version passes `seen`, the hub ends, or the task is cancelled (`.ended`).
    func change(after seen: Int) async -> Change {
        let id = state.withLock { state -> Int in
            defer { state.nextID += 1 }
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready: Change? = state.withLock { state in
                    if case .failed(let error) = state.end { return .failed(error) }
                    if state.end != nil { return .ended }
                    if state.version > seen { return .changed(version: state.version) }
                    if Task.isCancelled { return .ended }
                    state.waiters[id] = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiting = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiting?.resume(returning: .ended)
        }
    }
}
