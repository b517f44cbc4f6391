import DuneEvents

/// Task event counts of a feature.
public struct TaskCounts: Sendable, Equatable {
    /// Every `task.started`.
    public internal(set) var started = 0
    /// Completions of the current task.
    public internal(set) var completed = 0
    /// Failures of the current task.
    public internal(set) var failed = 0
    /// Cancellations of the current task (superseded, requested, cancelled-error).
    public internal(set) var cancelled = 0
    /// Completions, failures and cancellations of tasks that were not current.
    public internal(set) var staleIgnored = 0
}
