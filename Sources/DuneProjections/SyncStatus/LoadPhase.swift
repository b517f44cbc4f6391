import DuneEvents

/// Where a feature's loading stands.
public enum LoadPhase: String, Sendable, Hashable, CaseIterable {
    case notStarted
    case loading
    case loaded
    case failed
}

/// What a `task.*` event did to a feature's state (for `explain`).
package enum TaskEventEffect: String, Sendable, Hashable {
    case started
    case completed
    case failed
    case cancelled
    /// The task was not the feature's current one: counted, nothing else changed.
    case staleIgnored
}
