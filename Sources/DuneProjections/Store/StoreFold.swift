import DuneEvents

/// The fold behind a ``DuneStore``: the four read models of a log over one
/// sample store.
///
/// Only the trends projection keeps samples (it keeps every kind); the
/// readiness model is built from its days' metrics and the weekly stats from
/// its daily values, as `rebuild` builds its files (see
/// ``ProjectionSet/init(forFiles:)``). The readiness projection keeps only the
/// sleep target, and the sync-status projection its refresh and task state.
/// Every event is folded once into each, in one call, so the four are always
/// at one ``throughSeq``.
///
/// ```swift
/// var fold = StoreFold()
/// fold.apply(events)
/// let state = fold.state()   // four models at fold.throughSeq
/// ```
package struct StoreFold: Sendable {
    private(set) var trends = TrendsProjection()
    private(set) var readiness = ReadinessProjection(ignoringSamples: true)
    private(set) var syncStatus = SyncStatusProjection()
    /// The seq of the last event folded (0 before any).
    package private(set) var throughSeq = 0

    package init() {}

    /// Folds `batch` (events, or a decoded batch); events with `seq ≤ throughSeq` are skipped.
    /// - Complexity: O(n) for n events.
    package mutating func apply(_ batch: some ProjectionBatch) {
        guard !batch.isEmpty else { return }
        batch.fold(into: &trends)
        batch.fold(into: &readiness)
        batch.fold(into: &syncStatus)
        throughSeq = max(throughSeq, trends.throughSeq)
    }

    /// Makes room for `count` samples ahead of a replay.
    package mutating func reserveCapacity(samples count: Int) {
        trends.reserveCapacity(samples: count)
    }

    /// The four read models at ``throughSeq``, from one pass over the days.
    /// - Complexity: O(n log n) for n samples.
    package func state() -> StoreState {
        let daily = trends.modelDailyValues()
        let metrics = daily.map(DailyMetrics.init)
        let seq = throughSeq
        return StoreState(
            throughSeq: seq,
            readiness: ReadinessModel(throughSeq: seq, sleepTargetMinutes: readiness.sleepTargetMinutes,
                                      inputs: metrics.map(ReadinessDay.Inputs.init(metrics:))),
            trends: TrendsModel(throughSeq: seq, metrics: metrics),
            weeklyStats: WeeklyStatsModel(throughSeq: seq, daily: daily),
            syncStatus: syncStatus.readModel().restamped(seq))
    }

    /// The snapshot of this fold (written beside the log, read by ``init(_:)``).
    /// - Complexity: O(n log n) for n samples.
    package var snapshot: ProjectionSnapshot {
        ProjectionSnapshot(throughSeq: throughSeq, samples: trends.samples.liveBlock(), profileSleepTargetMinutes: readiness.profileSleepTargetMinutes,
                           profileSeq: readiness.profileSeq, syncStatus: syncStatus,
                           dailyMetrics: trends.samples.modelDailyValues().map(DailyMetrics.init))
    }

    /// The fold as `snapshot` recorded it.
    /// - Complexity: O(n) for n current samples.
    package init(_ snapshot: ProjectionSnapshot) {
        trends = snapshot.restoredTrends()
        readiness.restoreProfile(sleepTargetMinutes: snapshot.profileSleepTargetMinutes, seq: snapshot.profileSeq)
        syncStatus = snapshot.syncStatus
        throughSeq = snapshot.throughSeq
    }
}
