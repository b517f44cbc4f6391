import DuneEvents

/// A projection: a pure fold of log events into a state, and a read model
/// computed from that state.
///
/// `apply` is synchronous and reads nothing but the event (no clock, no UUID,
/// no randomness, never `recordedAt`). Events with `seq ≤ throughSeq` are
/// skipped, so feeding an event twice (catch-up after a restart) changes
/// nothing. The read model is computed from the state on demand, so it is the
/// same whether the events came all at once or in batches of any size.
package protocol Projection: Sendable {
    /// The read model this projection produces.
    associatedtype Model: ReadModel

    /// Which projection this is.
    static var name: ProjectionName { get }

    /// The empty state, before any event.
    init()

    /// The `seq` of the last event folded in; 0 before any.
    var throughSeq: Int { get }

    /// Folds one event into the state; skips it when `event.seq ≤ throughSeq`.
    mutating func apply(_ event: RecordedEvent)

    /// Folds a decoded batch in order; skips events with `seq ≤ throughSeq`.
    ///
    /// The same fold as ``apply(_:)-(RecordedEvent)`` event by event — the
    /// default does exactly that — but the projections of this module read
    /// the batch's compact rows directly, without rebuilding each event.
    mutating func apply(_ batch: EventBatch)

    /// The read model of the current state.
    func readModel() -> Model
}

extension Projection {
    /// Folds `events` in order.
    /// - Complexity: O(n) folds; each is O(1) amortised plus hash updates.
    package mutating func apply<Events: Sequence<RecordedEvent>>(contentsOf events: Events) {
        for event in events { apply(event) }
    }

    /// Folds every event of `batch`, rebuilt in full, in order.
    package mutating func apply(_ batch: EventBatch) {
        for position in 0..<batch.count { apply(batch[position]) }
    }

    /// A projection that has folded `events` from scratch.
    package init<Events: Sequence<RecordedEvent>>(replaying events: Events) {
        self.init()
        apply(contentsOf: events)
    }
}

/// A projection's read model: a value at one `seq` of the log.
package protocol ReadModel: Sendable, Equatable {
    /// The `seq` of the last event the model reflects.
    var throughSeq: Int { get }
}
