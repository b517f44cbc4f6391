/// How long a write waits for the log's writer lock when another process holds it.
public enum LockWait: Sendable, Hashable {
    /// Fail at once with `logLocked`.
    case never
    /// Wait at most this long, then fail with `logLocked`.
    case atMost(Duration)
    /// Wait until the lock is free (cancellable where the caller is async).
    case untilAvailable
}
