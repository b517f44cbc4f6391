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
/// 2. **Daily stage** (``DailyStage``). The ``DailyMetrics`` and the
///    ``WeeklyDay`` of every day with a sample, computed once from the
///    samples and shared by the readiness, trends and weekly-stats models;
///    after an append only the days from the earliest changed one are
///    recomputed. A snapshot stores it, so an engine restored from one
///    computes its first state without reading a sample.
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
    /// The folded samples; empty while ``unreadSamples`` holds them.
    private var store = SampleStore()
    /// The samples of the mapped snapshot this engine was restored from,
    /// still in the mapping: nothing was folded since, and nothing asked for them yet.
    private var unreadSamples: UnreadSamples?
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
    /// The daily stage of the snapshot this engine was restored from, until the first ``state()`` takes it.
    private var restoredStage: RestoredStage?
    /// Whether a section of the snapshot this engine was restored from (its
    /// id index, or its samples) failed its check when first read.
    private var foundDamage = false

    /// An empty engine that also folds the app's own `appProjections`.
    package init(appProjections: [AnyAppProjection] = []) {
        apps = appProjections.map(AppFoldState.init)
    }

    /// The current samples of every kind (corrections and deletions applied).
    ///
    /// An engine restored from a mapped snapshot reads them from the file
    /// the first time they are needed; when that section fails its check,
    /// this is empty and ``snapshotIsDamaged`` is set: the host must not use it then.
    package var samples: SampleStore {
        guard let unreadSamples else { return store }
        return unreadSamples.store() ?? SampleStore()
    }

    /// Whether a section of the snapshot this engine was restored from (its
    /// id index or its samples, read when a fold or a lookup first needed
    /// them) failed its check: from then on nothing is folded, and the host
    /// ends with an error (``SnapshotFile/damageError(logPath:)``) rather
    /// than publish a state it cannot fold on.
    package var snapshotIsDamaged: Bool { foundDamage || unreadSamples?.isDamaged == true }

    /// How many current samples each source has (looked up by name; see
    /// ``SampleStore/sampleCountsBySource()``): from the snapshot when its
    /// samples were not read.
    package func sampleCountsBySource() -> [String: Int] {
        guard let unreadSamples else { return store.sampleCountsBySource() }
        var counts: [String: Int] = [:]
        for count in unreadSamples.sourceCounts { counts[count.source, default: 0] += count.samples }
        return counts
    }

    // MARK: - Folding

    /// Folds `events` in order; events with `seq ≤ throughSeq` are skipped.
    /// - Complexity: O(n) for n events.
    package mutating func apply(_ events: [RecordedEvent]) {
        guard readIndex() else { return }
        if hasLiveApps { foldApps(projectedEvents(events)) }
        for event in events where event.seq > throughSeq {
            store.apply(event)
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
        store.apply(batch, after: throughSeq)
        readiness.apply(batch)
        syncStatus.apply(batch)
        throughSeq = lastSeq
    }

    /// Reads the restored snapshot's samples and id index before the first
    /// fold or a lookup by id (``SampleStore/sample(id:)``; see
    /// ``SampleStore/readIndex()``); `false`, with ``snapshotIsDamaged`` set,
    /// when either is damaged.
    @discardableResult
    package mutating func readIndex() -> Bool {
        guard readSamples(withIndex: true) else { return false }
        foundDamage = foundDamage || !store.readIndex()
        return !snapshotIsDamaged
    }

    /// Reads the restored snapshot's samples (not its id index) when they
    /// were not yet: what a query by day needs; `false`, with
    /// ``snapshotIsDamaged`` set, when they are damaged.
    package mutating func readSamples() -> Bool {
        readSamples(withIndex: false)
    }

    /// ``readSamples()``; with `withIndex`, the snapshot's id index is read
    /// too, beside the samples (see `UnreadSamples.store(withIndex:)`).
    private mutating func readSamples(withIndex: Bool) -> Bool {
        if let unreadSamples {
            guard let loaded = unreadSamples.store(withIndex: withIndex) else {
                foundDamage = true
                return false
            }
            store = loaded
            self.unreadSamples = nil
        }
        return !snapshotIsDamaged
    }

    /// Makes room for `count` samples ahead of a replay.
    package mutating func reserveCapacity(samples count: Int) {
        store.reserveCapacity(count)
    }

    // MARK: - Models

    /// Every read model at ``throughSeq``.
    ///
    /// The first call computes the daily stage from every sample — or, in
    /// an engine restored from a snapshot, takes the stage the snapshot
    /// stored, so that no sample is read. Later calls start from the last
    /// state: the days before the earliest day whose samples changed are
    /// taken from it, and only the rest is computed — for an append of
    /// today's sample, today and its week — with the same code and in the
    /// same order, so the numbers are the same bit for bit (checked against
    /// a state computed from scratch by `ReadModelEngineTests`).
    /// - Complexity: O(d) for d days plus computing the days from the
    ///   earliest change on; O(n log n) for n samples the first time, unless restored.
    package mutating func state() -> StoreState {
        if last == nil, let restored = restoredStage {
            restoredStage = nil
            last = LastState(state: state(of: restored.stage, at: restored.seq, sleepTargetMinutes: restored.sleepTargetMinutes),
                             stage: restored.stage)
        }
        let firstChanged = store.takeEarliestChangedDay()
        let seq = throughSeq
        guard let last else {
            let stage = DailyStage(samples: samples)
            return remember(state(of: stage, at: seq, sleepTargetMinutes: readiness.sleepTargetMinutes), stage: stage)
        }
        if last.state.throughSeq == seq { return last.state }
        let previous = last.state
        var stage = last.stage
        var readinessModel = previous.readiness.restamped(seq)
        var trendsModel = previous.trends.restamped(seq)
        var weeklyModel = previous.weeklyStats.restamped(seq)
        if let firstChanged {
            stage.recompute(from: firstChanged, samples: store)
            trendsModel = TrendsModel(throughSeq: seq, metrics: stage.metrics, keeping: previous.trends, before: firstChanged)
            weeklyModel = WeeklyStatsModel(throughSeq: seq, days: stage.weekly, keeping: previous.weeklyStats, before: firstChanged)
        }
        if firstChanged != nil || readiness.sleepTargetMinutes != previous.readiness.sleepTargetMinutes {
            readinessModel = ReadinessModel(throughSeq: seq, sleepTargetMinutes: readiness.sleepTargetMinutes,
                                            inputs: stage.metrics.map(ReadinessDay.Inputs.init(metrics:)),
                                            keeping: previous.readiness, before: firstChanged)
        }
        return remember(StoreState(throughSeq: seq, readiness: readinessModel, trends: trendsModel, weeklyStats: weeklyModel,
                                   syncStatus: syncStatus.readModel().restamped(seq), apps: apps), stage: stage)
    }

    /// The daily stage at ``throughSeq``, what a snapshot stores: the last
    /// state's (or the restored one), brought up to date from the earliest
    /// day whose samples changed, as ``state()`` does, without computing the models.
    private mutating func currentStage() -> DailyStage {
        if let last, last.state.throughSeq == throughSeq { return last.stage }
        guard var stage = last?.stage ?? restoredStage?.stage else { return DailyStage(samples: samples) }
        if let firstChanged = store.takeEarliestChangedDay() { stage.recompute(from: firstChanged, samples: store) }
        return stage
    }

    /// Every model of `stage`, computed from scratch, stamped `seq` (the sync
    /// status and the app models are the engine's own: those at `seq` when
    /// it is ``throughSeq``, else recomputed by the next ``state()``). The
    /// three models are independent: the trends are computed beside the other
    /// two, on a second processor when there is one (`computedTogether`).
    private func state(of stage: DailyStage, at seq: Int, sleepTargetMinutes: Double) -> StoreState {
        let (trends, (readiness, weeklyStats)) = computedTogether({
            TrendsModel(throughSeq: seq, metrics: stage.metrics)
        }, {
            (ReadinessModel(throughSeq: seq, sleepTargetMinutes: sleepTargetMinutes,
                            inputs: stage.metrics.map(ReadinessDay.Inputs.init(metrics:))),
             WeeklyStatsModel(throughSeq: seq, days: stage.weekly))
        })
        return StoreState(throughSeq: seq, readiness: readiness, trends: trends, weeklyStats: weeklyStats,
                          syncStatus: syncStatus.readModel().restamped(seq), apps: apps)
    }

    private mutating func remember(_ state: StoreState, stage: DailyStage) -> StoreState {
        last = LastState(state: state, stage: stage)
        return state
    }

    /// The last state ``state()`` computed, and the daily stage it was computed from.
    private struct LastState: Sendable {
        var state: StoreState
        var stage: DailyStage
    }

    /// A restored snapshot's daily stage, and what its models are computed with.
    private struct RestoredStage: Sendable {
        var stage: DailyStage
        var seq: Int
        var sleepTargetMinutes: Double
    }

    // MARK: - Snapshots

    /// The snapshot of this engine (written beside the log, read by
    /// ``init(_:)``), with the daily stage of its state at ``throughSeq``;
    /// `nil` when the snapshot it was restored from proved damaged.
    /// - Complexity: O(n log n) for n samples.
    package var snapshot: ProjectionSnapshot? {
        var engine = self
        let stage = engine.currentStage()
        let current = engine.samples
        guard !engine.snapshotIsDamaged else { return nil }
        let counts = current.sampleCountsBySource().sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        let (samples, index): (SnapshotSamples, SnapshotIndex)
        if let compact = current.compactSnapshotSamples() {
            // The restored rows are written as they are (without the replaced and deleted ones), the index as it is or renumbered.
            (samples, index) = compact
        } else {
            let block = current.liveBlock()
            (samples, index) = (.built(block), .built(SampleIndex(indexing: block)))
        }
        return ProjectionSnapshot(throughSeq: throughSeq, samples: samples, index: index,
                                  stage: stage, sourceCounts: counts.map { SourceCount(source: $0.key, samples: $0.value) },
                                  profileSleepTargetMinutes: readiness.profileSleepTargetMinutes, profileSeq: readiness.profileSeq,
                                  syncStatus: syncStatus, appParts: appParts)
    }

    /// The engine as `snapshot` recorded it (app projections aside: see ``restoring(_:appProjections:)``).
    /// A mapped snapshot's samples and id index stay in the mapping until
    /// they are first needed, and its first state is computed from its daily stage.
    /// - Complexity: O(1) for a mapped snapshot (O(n) for n samples of a built one); nothing is hashed or folded.
    package init(_ snapshot: ProjectionSnapshot) {
        unreadSamples = UnreadSamples(snapshot.samples, index: snapshot.index, sourceCounts: snapshot.sourceCounts)
        readiness.restoreProfile(sleepTargetMinutes: snapshot.profileSleepTargetMinutes, seq: snapshot.profileSeq,
                                 throughSeq: snapshot.throughSeq)
        syncStatus = snapshot.syncStatus
        throughSeq = snapshot.throughSeq
        restoredStage = RestoredStage(stage: snapshot.stage, seq: snapshot.throughSeq, sleepTargetMinutes: readiness.sleepTargetMinutes)
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
