import DuneEvents

/// Task event counts of a feature.
public struct TaskCounts: Sendable, Equatable {
    /// Every `task.started`.
    public var started = 0
    /// Completions of the current task.
    public var completed = 0
    /// Failures of the current task.
    public var failed = 0
    /// Cancellations of the current task (superseded, requested, cancelled-error).
    public var cancelled = 0
    /// Completions, failures and cancellations of tasks that were not current.
    public var staleIgnored = 0

    public init() {}
}
