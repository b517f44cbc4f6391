import Dispatch

/// A serial executor that runs an actor's jobs on a dispatch queue the
/// library owns, instead of on Swift's cooperative thread pool.
///
/// Actors that make blocking system calls (`write`, `fsync`, `flock` with a
/// wait, a replay that waits for its decoding threads) use it as their
/// `unownedExecutor`: the blocking happens on this queue's thread, and the
/// cooperative pool, which has only as many threads as cores, is never held.
///
/// ```swift
/// actor Writer {
///     nonisolated let executor = DispatchQueueExecutor(label: "dune.log")
///     nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
/// }
/// ```
package final class DispatchQueueExecutor: SerialExecutor {
    /// The serial queue the jobs run on.
    package let queue: DispatchQueue

    package init(label: String) {
        queue = DispatchQueue(label: label)
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    package func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Runs `work` on the queue and resumes the caller with its result, so
    /// that blocking work is awaited without holding a cooperative thread.
    package func run<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Swift.Result { try work() }) }
        }
    }
}
