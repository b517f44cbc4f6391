/// A phase in a load task's life.
public enum TaskPhase: String, Sendable, Hashable, CaseIterable {
    /// The task began loading; a task of the same feature still in flight is cancelled first.
    case started
    /// The task finished loading.
    case completed
    /// The task failed with an error.
    case failed
    /// The task was cancelled; cancellation is never a failure.
    case cancelled
}

/// Why a task was recorded as cancelled.
package enum CancellationReason: String, Sendable, Hashable, CaseIterable {
    /// A new task of the same feature started while this one was in flight (cancel-before-spawn).
    case superseded
    /// The input said the task was cancelled.
    case requested
    /// The input said the task failed with error "cancelled": cancellation is not an error.
    case cancelledError
}

/// A task lifecycle event as stored in `task.*`.
package struct TaskRecord: Sendable, Hashable {
    /// The task's id ("load-42").
    package var task: String
    /// The feature the task loads ("readiness", "trends", "weeklyStats", …).
    package var feature: String
    /// The recorded phase; decides the event type.
    package var phase: TaskPhase
    /// The phase the input asked for, when the decider recorded another one
    /// (a failure with error "cancelled" is recorded as `cancelled`); `nil` for
    /// events the decider added itself.
    package var requestedPhase: TaskPhase?
    package var at: Timestamp
    /// The error text of a failure (kept on a cancelled-error too).
    package var error: String?
    /// Set on `cancelled`.
    package var reason: CancellationReason?
    /// For `superseded`: the task that replaced this one.
    package var supersededBy: String?

    package init(task: String, feature: String, phase: TaskPhase, requestedPhase: TaskPhase? = nil, at: Timestamp,
                error: String? = nil, reason: CancellationReason? = nil, supersededBy: String? = nil) {
        self.task = task
        self.feature = feature
        self.phase = phase
        self.requestedPhase = requestedPhase
        self.at = at
        self.error = error
        self.reason = reason
        self.supersededBy = supersededBy
    }
}
