import DuneEvents

/// The fold behind a ``DuneStore``: the four read models of a log over one
/// sample store.
///
/// Only the trends projection keeps samples (it keeps every kind); the
/// readiness model is built from its days' metrics and the weekly stats from
/// its daily values, as `rebuild` builds its files (see
/// `ProjectionSet(forFiles:)`). The readiness projection keeps only the
/// sleep target, and the sync-status projection its refresh and task state.
/// Every event is folded once into each, in one call, so the four are always
/// at one ``throughSeq``.
///
/// ```swift
/// var fold = StoreFold()
/// fold.apply(events)
/// let state = fold.state()   // four models at fold.throughSeq
/// fold.apply(more)
/// let next = fold.state()    // computed from `state`: only the days that changed
/// ```
package struct StoreFold: Sendable {
    private(set) var trends = TrendsProjection()
    private(set) var readiness = ReadinessProjection(ignoringSamples: true)
    private(set) var syncStatus = SyncStatusProjection()
    /// The seq of the last event folded (0 before any).
    package private(set) var throughSeq = 0
    /// What the next ``state()`` starts from; `nil` before the first.
    private var last: LastState?

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

    /// The four read models at ``throughSeq``.
    ///
    /// The first call computes them from every sample. Later calls start
    /// from the last state: the models' days before the earliest day whose
    /// samples changed are taken from it, and only the rest is computed —
    /// for an append of today's sample, today and its week — with the same
    /// code and in the same order, so the numbers are the same bit for bit
    /// (checked against a state computed from scratch by `StoreFoldTests`).
    /// - Complexity: O(d) for d days plus computing the days from the
    ///   earliest change on; O(n log n) for n samples the first time.
    package mutating func state() -> StoreState {
        let firstChanged = trends.takeEarliestChangedDay()
        let seq = throughSeq
        guard let last else {
            let daily = trends.modelDailyValues()
            let metrics = daily.map(DailyMetrics.init)
            let state = StoreState(
                throughSeq: seq,
                readiness: ReadinessModel(throughSeq: seq, sleepTargetMinutes: readiness.sleepTargetMinutes,
                                          inputs: metrics.map(ReadinessDay.Inputs.init(metrics:))),
                trends: TrendsModel(throughSeq: seq, metrics: metrics),
                weeklyStats: WeeklyStatsModel(throughSeq: seq, daily: daily),
                syncStatus: syncStatus.readModel().restamped(seq))
            self.last = LastState(state: state, metrics: metrics)
            return state
        }
        if last.state.throughSeq == seq { return last.state }
        let previous = last.state
        var metrics = last.metrics
        var readinessModel = previous.readiness.restamped(seq)
        var trendsModel = previous.trends.restamped(seq)
        var weeklyModel = previous.weeklyStats.restamped(seq)
        if let firstChanged {
            // The days from the changed day's Monday on: the weekly model reads the whole week.
            let monday = firstChanged.isoWeek.monday
            var daily = trends.modelDailyValues(from: monday)
            metrics.removeSubrange((metrics.firstIndex { $0.date >= firstChanged } ?? metrics.count)...)
            metrics += daily.drop { $0.date < firstChanged }.map(DailyMetrics.init)
            readinessModel = ReadinessModel(throughSeq: seq, sleepTargetMinutes: readiness.sleepTargetMinutes,
                                            inputs: metrics.map(ReadinessDay.Inputs.init(metrics:)),
                                            keeping: previous.readiness, before: firstChanged)
            trendsModel = TrendsModel(throughSeq: seq, metrics: metrics, keeping: previous.trends, before: firstChanged)
            weeklyModel = WeeklyStatsModel(throughSeq: seq, firstDay: metrics.first?.date, lastDay: metrics.last?.date,
                                           keeping: previous.weeklyStats, before: firstChanged) { from in
                if from < monday { daily = trends.modelDailyValues(from: from) }
                return Array(daily.drop { $0.date < from })
            }
        } else if readiness.sleepTargetMinutes != previous.readiness.sleepTargetMinutes {
            readinessModel = ReadinessModel(throughSeq: seq, sleepTargetMinutes: readiness.sleepTargetMinutes,
                                            inputs: metrics.map(ReadinessDay.Inputs.init(metrics:)))
        }
        let state = StoreState(throughSeq: seq, readiness: readinessModel, trends: trendsModel, weeklyStats: weeklyModel,
                               syncStatus: syncStatus.readModel().restamped(seq))
        self.last = LastState(state: state, metrics: metrics)
        return state
    }

    /// The last state ``state()`` computed, and the metrics of its days.
    private struct LastState: Sendable {
        var state: StoreState
        var metrics: [DailyMetrics]
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
