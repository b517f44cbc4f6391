/// The kind of a stored event, as written in the log's `type` member.
package enum EventType: String, Sendable, Hashable, CaseIterable, Comparable {
    case sampleIngested = "sample.ingested"
    case sampleDeleted = "sample.deleted"
    case refreshRequested = "refresh.requested"
    case taskStarted = "task.started"
    case taskCompleted = "task.completed"
    case taskFailed = "task.failed"
    case taskCancelled = "task.cancelled"
    case profileUpdated = "profile.updated"
    /// Written by `forget`: which selector kinds it used and how much it redacted.
    case dataForgotten = "data.forgotten"
    /// The end of one page of a HealthKit sync: the type's new anchor (docs/sync-trace.md).
    case syncAnchored = "sync.anchored"

    package static func < (lhs: EventType, rhs: EventType) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension EventType {
    /// The phase of a `task.*` type; `nil` for the other types.
    package var taskPhase: TaskPhase? {
        switch self {
        case .taskStarted: .started
        case .taskCompleted: .completed
        case .taskFailed: .failed
        case .taskCancelled: .cancelled
        case .sampleIngested, .sampleDeleted, .refreshRequested, .profileUpdated, .dataForgotten, .syncAnchored: nil
        }
    }
}

extension TaskPhase {
    /// The log `type` of a task event in this phase.
    package var eventType: EventType {
        switch self {
        case .started: .taskStarted
        case .completed: .taskCompleted
        case .failed: .taskFailed
        case .cancelled: .taskCancelled
        }
    }
}
