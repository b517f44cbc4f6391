import DuneEvents

/// An actor that owns one projection's state and folds batches into it.
///
/// Each instance is its own isolation domain. ``apply(_:)`` folds a whole batch
/// synchronously, with no `await` inside, so actor reentrancy can never
/// interleave two batches or split one. Feed it thousands of events per call:
/// one actor hop per event would cost more than the fold.
///
/// ```swift
/// let readiness = ReadinessActor()
/// for batch in batches { await readiness.apply(batch) }
/// let bytes = await readiness.file().bytes
/// ```
public actor ProjectionActor<State: Projection> {
    /// The projection's current state; `explain` reads the fold's numbers from it.
    public private(set) var state: State

    public init(_ state: State = State()) {
        self.state = state
    }

    /// Folds `batch` in order. Events with `seq ≤ throughSeq` are skipped, so a
    /// batch fed twice, or overlapping one already folded, changes nothing.
    ///
    /// Batches must come in log order: a batch applied after a later one is
    /// skipped entirely.
    /// - Complexity: O(n) for n events.
    public func apply(_ batch: [RecordedEvent]) {
        state.apply(contentsOf: batch)
    }

    /// The `seq` of the last event folded in; 0 before any.
    public var throughSeq: Int { state.throughSeq }

    /// The read model of the current state.
    public func readModel() -> State.Model { state.readModel() }

    /// The read model as its file.
    public func file() -> ReadModelFile { state.file() }
}

/// The actor of the readiness projection.
public typealias ReadinessActor = ProjectionActor<ReadinessProjection>
/// The actor of the trends projection.
public typealias TrendsActor = ProjectionActor<TrendsProjection>
/// The actor of the weekly-stats projection.
public typealias WeeklyStatsActor = ProjectionActor<WeeklyStatsProjection>
/// The actor of the sync-status projection.
public typealias SyncStatusActor = ProjectionActor<SyncStatusProjection>
