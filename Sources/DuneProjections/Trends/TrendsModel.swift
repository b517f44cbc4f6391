import DuneEvents

/// The trends read model (docs/read-models.md).
public struct TrendsModel: Sendable, Equatable, ReadModel {
    /// The `seq` of the last event the model reflects; 0 for an empty log.
    public package(set) var throughSeq: Int
    /// L: the last day with any sample; `nil` when the log has none.
    public let lastDay: DayKey?
    /// One entry per ``TrendMetric``, in its order (metrics without values included).
    public let metrics: [MetricTrend]
    /// `nil` without a last day or with fewer than 14 HRV days in L−59…L.
    public let hrvNormalRange: HRVNormalRange?
    /// From the first workout day to L.
    public let trainingLoad: [TrainingLoadDay]

    /// The version of the trends model's output: bump it whenever a change
    /// makes the engine produce other bytes for the same log, so that
    /// snapshots taken by the older code are not used (see `ProjectionSnapshot`).
    package static let foldVersion: UInt32 = 2
    /// CRC-32 of `trends.json` rebuilt from the shipped sample log at
    /// ``foldVersion``: `FoldVersionTests` fails when the output changes and these two do not.
    package static let foldVersionOutputCRC: UInt32 = 0x5ba9b064

    /// The model of days with these metrics (every day with a sample,
    /// ascending): the same numbers as from their daily values (a snapshot keeps them).
    /// - Complexity: O(d log d) for d days, plus the training-load span.
    package init(throughSeq: Int, metrics days: [DailyMetrics]) {
        self.init(throughSeq: throughSeq, metrics: days, keeping: nil, before: nil)
    }

    /// The model of days with these metrics, where the days before
    /// `firstChanged` have the same metrics as in `previous`: their daily
    /// points and training-load days are taken from it (each reads only its
    /// own and earlier days), the rest computed. The same model as
    /// ``init(throughSeq:metrics:)`` gives.
    /// - Complexity: O(d) for d days, plus O(k log d) for the k days from
    ///   `firstChanged` on and the training-load days after them.
    package init(throughSeq: Int, metrics days: [DailyMetrics], keeping previous: TrendsModel?, before firstChanged: DayKey?) {
        let lastDay = days.last?.date
        func kept<Point>(_ points: [Point]?, _ date: (Point) -> DayKey) -> ArraySlice<Point> {
            guard let points, let firstChanged, let lastDay else { return [] }
            return points.prefix { date($0) < firstChanged && date($0) <= lastDay }
        }
        // HRV counts only the values of the measure of the last day with HRV.
        let measure = days.last { $0.hrvMeasure != nil }?.hrvMeasure
        let hrv = measure.map { measure in DailySeries(days, date: \.date) { $0.hrv(measure) } } ?? .empty
        let metrics = TrendMetric.allCases.map { metric in
            guard metric == .hrv else {
                return MetricTrend(metric: metric, series: DailySeries(days, date: \.date) { $0.value(metric) }, lastDay: lastDay,
                                   keeping: kept(previous?.trend(metric)?.daily, \.date))
            }
            let previousHRV = previous?.trend(.hrv).flatMap { $0.measure == measure ? $0.daily : nil }
            return MetricTrend(metric: metric, series: hrv, measure: measure, lastDay: lastDay, keeping: kept(previousHRV, \.date))
        }
        self.throughSeq = throughSeq
        self.lastDay = lastDay
        self.metrics = metrics
        if let lastDay {
            let lnHRV = hrv.mapValues(DeterministicMath.log)
            hrvNormalRange = HRVNormalRange(lnHRV: lnHRV, lastDay: lastDay)
            let load = DailySeries(days, date: \.date) { $0.value(.workoutMinutes) }
            // The kept days hold only while the load still starts where they do.
            var keptLoad = kept(previous?.trainingLoad, \.date)
            if keptLoad.first?.date != load.days.first { keptLoad = [] }
            trainingLoad = TrendFormula.trainingLoad(load, through: lastDay, keeping: keptLoad)
        } else {
            hrvNormalRange = nil
            trainingLoad = []
        }
    }

    /// The trend of `metric`.
    public func trend(_ metric: TrendMetric) -> MetricTrend? {
        metrics.first { $0.metric == metric }
    }
}
