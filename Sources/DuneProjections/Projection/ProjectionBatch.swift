import DuneEvents

/// A batch of events a projection folds in one call: the events themselves
/// (`[RecordedEvent]`, as appends produce them) or a decoded ``EventBatch``
/// (the fast replay path), so that the actors and `ProjectionSet` have one
/// `apply` for both.
package protocol ProjectionBatch: Sendable {
    /// Whether the batch holds no event.
    var isEmpty: Bool { get }

    /// Folds the batch into `state`, in order; events with `seq ≤ throughSeq` are skipped.
    func fold<State: Projection>(into state: inout State)
}

extension Array: ProjectionBatch where Element == RecordedEvent {
    package func fold<State: Projection>(into state: inout State) {
        state.apply(contentsOf: self)
    }
}

extension EventBatch: ProjectionBatch {
    package func fold<State: Projection>(into state: inout State) {
        state.apply(self)
    }
}
