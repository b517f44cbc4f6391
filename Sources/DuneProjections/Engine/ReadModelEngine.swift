import DuneEvents

/// The one projection engine: every read model of a log, folded from the
/// same events in one pass and published as one ``StoreState`` at one
/// ``throughSeq``. `DuneStore`, `rebuild`, `report`, `explain`, `forget` and
/// snapshots all build their models here, so a store's state equals
/// `rebuild`'s files by construction.
///
/// It runs in stages:
/// 1. **Folds.** Each event is folded once into each versioned pure fold:
///    the current samples (``SampleStore``, every kind: the one sample store),
///    the sleep target (``ReadinessProjection``), refreshes and tasks
///    (``SyncStatusProjection``).
/// 2. **Daily stage** (``DailyStage``). The daily values of every day with a
///    sample and their ``DailyMetrics``, computed once from the samples and
///    shared by the readiness, trends and weekly-stats models; after an
///    append only the days from the earliest changed one are recomputed.
/// 3. **Models.** Each model is computed from the stage (and its own fold).
///
/// The engine is a value: its host (a store's follower actor, or the task of
/// a `dune-replay` command) owns it and feeds it whole batches with no
/// `await` in between, so a cancelled or failed catch-up discards the copy
/// it was folding and publishes nothing half folded.
///
/// ```swift
/// var engine = ReadModelEngine()
/// engine.apply(events)
/// let state = engine.state()   // every model at engine.throughSeq
/// engine.apply(more)
/// let next = engine.state()    // only the days that changed are recomputed
/// ```
package struct ReadModelEngine: Sendable {
    /// The current samples of every kind (corrections and deletions applied).
    package private(set) var samples = SampleStore()
    /// The sleep target.
    package private(set) var readiness = ReadinessProjection()
    /// Refreshes and feature loading.
    package private(set) var syncStatus = SyncStatusProjection()
    /// The app's own projections (``AppProjection``), in registration order.
    package internal(set) var apps: [AppFoldState] = []
    /// The seq of the last event folded (0 before any).
    package private(set) var throughSeq = 0
    /// The daily stage and the models of the last ``state()``; `nil` before the first.
    private var last: LastState?
    /// Whether the id index of the snapshot this engine was restored from
    /// failed its check when the first fold needed it: from then on nothing
    /// is folded, and the host ends with an error (``SnapshotFile/damageError(logPath:)``)
    /// rather than publish a state it cannot fold on.
    package private(set) var snapshotIsDamaged = false

    /// An empty engine that also folds the app's own `appProjections`.
    package init(appProjections: [AnyAppProjection] = []) {
        apps = appProjections.map(AppFoldState.init)
    }

    // MARK: - Folding

    /// Folds `events` in order; events with `seq ≤ throughSeq` are skipped.
    /// - Complexity: O(n) for n events.
    package mutating func apply(_ events: [RecordedEvent]) {
        guard readIndex() else { return }
        if hasLiveApps { foldApps(projectedEvents(events)) }
        for event in events where event.seq > throughSeq {
            samples.apply(event)
            readiness.apply(event)
            syncStatus.apply(event)
            throughSeq = event.seq
        }
    }

    /// Folds a decoded batch (the replay path), reading its compact rows
    /// directly; events with `seq ≤ throughSeq` are skipped.
    /// - Complexity: O(n) for n events.
    package mutating func apply(_ batch: EventBatch) {
        guard let lastSeq = batch.lastSeq, lastSeq > throughSeq, readIndex() else { return }
        if hasLiveApps { foldApps(projectedEvents((0..<batch.count).lazy.map { batch[$0] })) }
        samples.apply(batch, after: throughSeq)
        readiness.apply(batch)
        syncStatus.apply(batch)
        throughSeq = lastSeq
    }

    /// Reads the restored snapshot's id index before the first fold or a
    /// lookup by id (``SampleStore/sample(id:)``; see ``SampleStore/readIndex()``);
    /// `false`, with ``snapshotIsDamaged`` set, when it is damaged.
    @discardableResult
    package mutating func readIndex() -> Bool {
        snapshotIsDamaged = snapshotIsDamaged || !samples.readIndex()
        return !snapshotIsDamaged
    }

    /// Makes room for `count` samples ahead of a replay.
    package mutating func reserveCapacity(samples count: Int) {
        samples.reserveCapacity(count)
    }

    // MARK: - Models

    /// Every read model at ``throughSeq``.
    ///
    /// The first call computes the daily stage from every sample. Later
    /// calls start from the last state: the days before the earliest day
    /// whose samples changed are taken from it, and only the rest is
    /// computed — for an append of today's sample, today and its week — with
    /// the same code and in the same order, so the numbers are the same bit
    /// for bit (checked against a state computed from scratch by `ReadModelEngineTests`).
    /// - Complexity: O(d) for d days plus computing the days from the
    ///   earliest change on; O(n log n) for n samples the first time.
    package mutating func state() -> StoreState {
        let firstChanged = samples.takeEarliestChangedDay()
        let seq = throughSeq
        guard let last else {
            let stage = DailyStage(samples: samples)
            return remember(StoreState(
                throughSeq: seq, readiness: readinessModel(stage.metrics),
                trends: TrendsModel(throughSeq: seq, metrics: stage.metrics),
                weeklyStats: WeeklyStatsModel(throughSeq: seq, daily: stage.daily),
                syncStatus: syncStatus.readModel().restamped(seq), apps: apps), stage: stage)
        }
        if last.state.throughSeq == seq { return last.state }
        let previous = last.state
        var stage = last.stage
        var readinessModel = previous.readiness.restamped(seq)
        var trendsModel = previous.trends.restamped(seq)
        var weeklyModel = previous.weeklyStats.restamped(seq)
        if let firstChanged {
            stage.recompute(from: firstChanged, samples: samples)
            trendsModel = TrendsModel(throughSeq: seq, metrics: stage.metrics, keeping: previous.trends, before: firstChanged)
            weeklyModel = WeeklyStatsModel(throughSeq: seq, firstDay: stage.metrics.first?.date, lastDay: stage.metrics.last?.date,
                                           keeping: previous.weeklyStats, before: firstChanged) { from in
                stage.daily(from: from, samples: samples)
            }
        }
        if firstChanged != nil || readiness.sleepTargetMinutes != previous.readiness.sleepTargetMinutes {
            readinessModel = self.readinessModel(stage.metrics, keeping: previous.readiness, before: firstChanged)
        }
        return remember(StoreState(throughSeq: seq, readiness: readinessModel, trends: trendsModel, weeklyStats: weeklyModel,
                                   syncStatus: syncStatus.readModel().restamped(seq), apps: apps), stage: stage)
    }

    /// The readiness model of `metrics` at ``throughSeq`` (see ``ReadinessModel/init(throughSeq:sleepTargetMinutes:inputs:keeping:before:)``).
    private func readinessModel(_ metrics: [DailyMetrics], keeping previous: ReadinessModel? = nil,
                                before firstChanged: DayKey? = nil) -> ReadinessModel {
        ReadinessModel(throughSeq: throughSeq, sleepTargetMinutes: readiness.sleepTargetMinutes,
                       inputs: metrics.map(ReadinessDay.Inputs.init(metrics:)), keeping: previous, before: firstChanged)
    }

    private mutating func remember(_ state: StoreState, stage: DailyStage) -> StoreState {
        last = LastState(state: state, stage: stage.released())
        return state
    }

    /// The last state ``state()`` computed, and the daily stage it was computed from.
    private struct LastState: Sendable {
        var state: StoreState
        var stage: DailyStage
    }

    // MARK: - Snapshots

    /// The snapshot of this engine (written beside the log, read by ``init(_:)``).
    /// - Complexity: O(n log n) for n samples.
    package var snapshot: ProjectionSnapshot {
        let block = samples.liveBlock()
        return ProjectionSnapshot(throughSeq: throughSeq, samples: block, index: .built(SampleIndex(indexing: block)),
                                  profileSleepTargetMinutes: readiness.profileSleepTargetMinutes, profileSeq: readiness.profileSeq,
                                  syncStatus: syncStatus, appParts: appParts)
    }

    /// The engine as `snapshot` recorded it (app projections aside: see ``restoring(_:appProjections:)``).
    /// A mapped snapshot's id index stays in the mapping until the first fold.
    /// - Complexity: O(n) for n current samples; nothing is hashed or folded.
    package init(_ snapshot: ProjectionSnapshot) {
        samples = SampleStore(restoring: snapshot.samples, index: snapshot.index)
        readiness.restoreProfile(sleepTargetMinutes: snapshot.profileSleepTargetMinutes, seq: snapshot.profileSeq,
                                 throughSeq: snapshot.throughSeq)
        syncStatus = snapshot.syncStatus
        throughSeq = snapshot.throughSeq
    }

    /// The engine as `snapshot` recorded it, with the app's `appProjections`:
    /// each restored from its part of the snapshot when the part has its
    /// name and version; the others are to be refolded from the log.
    package static func restoring(_ snapshot: ProjectionSnapshot, appProjections: [AnyAppProjection]) -> Restoring {
        var engine = ReadModelEngine(snapshot)
        let (refold, warnings) = engine.restoreApps(appProjections, from: snapshot.appParts)
        return Restoring(engine: engine, refold: refold, warnings: warnings)
    }

    /// An engine restored from a snapshot, and what is left to do.
    package struct Restoring: Sendable {
        package var engine: ReadModelEngine
        /// App projections the snapshot has no usable part for (new, of another
        /// version, or undecodable): fold them from the log up to the
        /// snapshot's seq, then ``adoptApps(from:)``.
        package var refold: [AnyAppProjection]
        /// One per part of the snapshot no projection is registered for: dropped.
        package var warnings: [String]
    }
}
