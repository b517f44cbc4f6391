import Synchronization

/// Thrown by ``QueryRace`` when the deadline passes before the query answers.
struct QueryDeadlinePassed: Error {}

/// One source query raced against a deadline and the caller's cancellation,
/// so a query that never answers cannot hold a sync (or a background
/// delivery's completion) forever.
///
/// The query runs in a task of its own; whichever comes first — its answer,
/// the deadline, the caller's cancellation — resumes the caller, exactly
/// once, and the others are cancelled. The caller never waits for a query
/// that ignores cancellation: it is left to end on its own, and its answer
/// is dropped.
///
/// Sendable: every mutable field is inside the `Mutex`.
final class QueryRace<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, any Error>?
        var finished = false
        var tasks: [Task<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Runs `query`; returns its answer, or throws `CancellationError` (the
    /// caller's task was cancelled), ``QueryDeadlinePassed`` or the query's error.
    static func run(deadline: ContinuousClock.Instant?, _ query: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let race = QueryRace<Value>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                race.start(continuation, deadline: deadline, query)
            }
        } onCancel: {
            race.finish(.failure(CancellationError()))
        }
    }

    private func start(_ continuation: CheckedContinuation<Value, any Error>, deadline: ContinuousClock.Instant?,
                       _ query: @escaping @Sendable () async throws -> Value) {
        let alreadyCancelled = state.withLock { state in
            if state.finished { return true }
            state.continuation = continuation
            return false
        }
        if alreadyCancelled {
            continuation.resume(throwing: CancellationError())
            return
        }
        let work = Task { [self] in
            do {
                finish(.success(try await query()))
            } catch {
                finish(.failure(error))
            }
        }
        var tasks = [work]
        if let deadline {
            tasks.append(Task { [self] in
                try? await Task.sleep(until: deadline, clock: .continuous)
                if !Task.isCancelled { finish(.failure(QueryDeadlinePassed())) }
            })
        }
        let finishedMeanwhile = state.withLock { state in
            state.tasks = tasks
            return state.finished
        }
        if finishedMeanwhile { for task in tasks { task.cancel() } }
    }

    /// Resumes the caller with `result` the first time; cancels the query and the timer.
    private func finish(_ result: Result<Value, any Error>) {
        let (continuation, tasks) = state.withLock { state -> (CheckedContinuation<Value, any Error>?, [Task<Void, Never>]) in
            guard !state.finished else { return (nil, []) }
            state.finished = true
            defer {
                state.continuation = nil
                state.tasks = []
            }
            return (state.continuation, state.tasks)
        }
        for task in tasks { task.cancel() }
        continuation?.resume(with: result)
    }
}
