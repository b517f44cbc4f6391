import DuneEvents

/// Where a feature's loading stands.
public enum LoadPhase: String, Sendable, Hashable, CaseIterable {
    /// No task of the feature has completed or failed, and none is in flight.
    case notStarted
    /// A task is in flight.
    case loading
    /// The last task that settled completed (a cancellation settles nothing).
    case loaded
    /// The last task that settled failed; its error is ``FeatureLoadState/lastError``.
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
