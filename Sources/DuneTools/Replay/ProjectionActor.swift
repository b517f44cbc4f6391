import DuneEvents
import DuneProjections

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
package actor ProjectionActor<State: Projection> {
    /// The projection's current state; `explain` reads the fold's numbers from it.
    package private(set) var state: State
    /// The read model of `state` at `cachedThroughSeq`: computing a model costs
    /// a pass over the days, and callers often ask twice (files, then a summary).
    /// The fold is deterministic and every change to `state` raises
    /// `throughSeq`, so a model is reused exactly while it is current.
    private var cachedModel: State.Model?
    private var cachedThroughSeq = -1

    package init(_ state: State = State()) {
        self.state = state
    }

    /// Folds `batch` (events, or a decoded batch on the fast replay path) in
    /// order. Events with `seq ≤ throughSeq` are skipped, so a batch fed
    /// twice, or overlapping one already folded, changes nothing.
    ///
    /// Batches must come in log order: a batch applied after a later one is
    /// skipped entirely.
    /// - Complexity: O(n) for n events.
    package func apply(_ batch: some ProjectionBatch) {
        batch.fold(into: &state)
    }

    /// The `seq` of the last event folded in; 0 before any.
    package var throughSeq: Int { state.throughSeq }

    /// The read model of the current state.
    package func readModel() -> State.Model {
        model { state.readModel() }
    }

    /// The cached model while it is current, else `build()`'s, kept as the cached one.
    func model(_ build: () -> State.Model) -> State.Model {
        if let cachedModel, cachedThroughSeq == state.throughSeq { return cachedModel }
        let model = build()
        cachedModel = model
        cachedThroughSeq = state.throughSeq
        return model
    }

    /// The read model as its file.
    package func file() -> ReadModelFile where State.Model: ReadModelJSON { ReadModelFile(projection: State.name, bytes: readModel().fileBytes) }

    /// The file of the model `build` makes from another projection's values of
    /// `throughSeq`, when that is this projection's (both folded the same
    /// events, so the model is the one ``readModel()`` computes); else ``file()``.
    func file(from throughSeq: Int, _ build: () -> State.Model) -> ReadModelFile where State.Model: ReadModelJSON {
        guard throughSeq == state.throughSeq else { return file() }
        return ReadModelFile(projection: State.name, bytes: model(build).fileBytes)
    }
}

/// The actor of the readiness projection.
package typealias ReadinessActor = ProjectionActor<ReadinessProjection>
/// The actor of the trends projection.
package typealias TrendsActor = ProjectionActor<TrendsProjection>
/// The actor of the weekly-stats projection.
package typealias WeeklyStatsActor = ProjectionActor<WeeklyStatsProjection>
/// The actor of the sync-status projection.
package typealias SyncStatusActor = ProjectionActor<SyncStatusProjection>

extension ProjectionActor where State: SampleReserving {
    /// Makes room for `count` samples (a replay's estimate), so that folding them never rehashes.
    package func reserveCapacity(samples count: Int) {
        state.reserveCapacity(samples: count)
    }
}

extension ProjectionActor where State == TrendsProjection {
    /// The daily values of every day with a sample (``SampleStore/modelDailyValues()``),
    /// and the ``throughSeq`` they are of.
    package func modelDailyValues() -> (days: [DailyValues], throughSeq: Int) {
        (state.modelDailyValues(), state.throughSeq)
    }

    /// The ``DailyMetrics`` of every day with a sample, and the ``throughSeq`` they are of.
    package func modelMetrics() -> (days: [DailyMetrics], throughSeq: Int) {
        (state.modelMetrics(), state.throughSeq)
    }

    /// The read model as its file, built from `metrics` (from ``modelMetrics()``): see ``file(from:_:)``.
    package func file(metrics: (days: [DailyMetrics], throughSeq: Int)) -> ReadModelFile {
        file(from: metrics.throughSeq) { TrendsModel(throughSeq: state.throughSeq, metrics: metrics.days) }
    }
}

extension ProjectionActor where State == ReadinessProjection {
    /// The read model as its file, built from `metrics` (the trends
    /// projection's ``DailyMetrics``): see ``file(from:_:)``.
    package func file(metrics: (days: [DailyMetrics], throughSeq: Int)) -> ReadModelFile {
        file(from: metrics.throughSeq) { state.readModel(metrics: metrics.days) }
    }
}

extension ProjectionActor where State == WeeklyStatsProjection {
    /// The read model as its file, built from `daily` (the trends projection's
    /// daily values, which hold every kind): see ``file(from:_:)``.
    package func file(daily: (days: [DailyValues], throughSeq: Int)) -> ReadModelFile {
        file(from: daily.throughSeq) { WeeklyStatsModel(throughSeq: state.throughSeq, daily: daily.days) }
    }
}
