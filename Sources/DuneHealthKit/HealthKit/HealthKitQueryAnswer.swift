#if canImport(HealthKit)
import Synchronization

/// The one answer of a HealthKit query, handed to the task that waits for it
/// exactly once: whichever comes first of HealthKit's results handler and the
/// waiting task's cancellation resumes the continuation; the other does nothing.
final class HealthKitQueryAnswer<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, any Error>?
        var early: Result<Value, any Error>?
        var isResolved = false
    }

    private let state = Mutex(State())

    init() {}

    /// Installs the waiting continuation.
    /// - Returns: `false` when the answer came before (a cancellation): the
    ///   continuation has been resumed with it and no query should start.
    func install(_ continuation: CheckedContinuation<Value, any Error>) -> Bool {
        let early: Result<Value, any Error>? = state.withLock { state in
            if let early = state.early { return early }
            state.continuation = continuation
            return nil
        }
        guard let early else { return true }
        continuation.resume(with: early)
        return false
    }

    /// Resumes the waiting task with `result` the first time; later calls do nothing.
    func resume(with result: Result<Value, any Error>) {
        let continuation: CheckedContinuation<Value, any Error>? = state.withLock { state in
            guard !state.isResolved else { return nil }
            state.isResolved = true
            guard let continuation = state.continuation else {
                state.early = result
                return nil
            }
            state.continuation = nil
            return continuation
        }
        continuation?.resume(with: result)
    }
}
#endif
