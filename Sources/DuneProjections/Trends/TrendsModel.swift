import DuneEvents

/// The trends read model (docs/read-models.md).
public struct TrendsModel: Sendable, Equatable, ReadModel {
    /// The `seq` of the last event the model reflects; 0 for an empty log.
    public let throughSeq: Int
    /// L: the last day with any sample; `nil` when the log has none.
    public let lastDay: DayKey?
    /// One entry per ``TrendMetric``, in its order (metrics without values included).
    public let metrics: [MetricTrend]
    /// `nil` without a last day or with fewer than 14 HRV days in L−59…L.
    public let hrvNormalRange: HRVNormalRange?
    /// From the first workout day to L.
    public let trainingLoad: [TrainingLoadDay]

    package init(throughSeq: Int, lastDay: DayKey?, metrics: [MetricTrend], hrvNormalRange: HRVNormalRange?,
                trainingLoad: [TrainingLoadDay]) {
        self.throughSeq = throughSeq
        self.lastDay = lastDay
        self.metrics = metrics
        self.hrvNormalRange = hrvNormalRange
        self.trainingLoad = trainingLoad
    }

    /// The model of `daily` (every day with a sample, ascending).
    /// - Complexity: O(d log d) for d days, plus the training-load span.
    package init(throughSeq: Int, daily: [DailyValues]) {
        self.init(throughSeq: throughSeq, metrics: daily.map(DailyMetrics.init))
    }

    /// The model of days with these metrics (every day with a sample,
    /// ascending): the same numbers as from their daily values (a snapshot keeps them).
    /// - Complexity: O(d log d) for d days, plus the training-load span.
    package init(throughSeq: Int, metrics days: [DailyMetrics]) {
        let lastDay = days.last?.date
        let metrics = TrendMetric.allCases.map { MetricTrend(metric: $0, series: DailyMetrics.series(days, $0), lastDay: lastDay) }
        var normalRange: HRVNormalRange?
        var trainingLoad: [TrainingLoadDay] = []
        if let lastDay {
            let lnHRV = DailyMetrics.series(days, .hrv) { DeterministicMath.log($0) }
            normalRange = HRVNormalRange(lnHRV: lnHRV, lastDay: lastDay)
            trainingLoad = TrendFormula.trainingLoad(DailyMetrics.series(days, .workoutMinutes), through: lastDay)
        }
        self.init(throughSeq: throughSeq, lastDay: lastDay, metrics: metrics, hrvNormalRange: normalRange,
                  trainingLoad: trainingLoad)
    }

    /// The trend of `metric`.
    public func trend(_ metric: TrendMetric) -> MetricTrend? {
        metrics.first { $0.metric == metric }
    }
}
