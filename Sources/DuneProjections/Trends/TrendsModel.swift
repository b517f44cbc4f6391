import DuneEvents

/// The trends read model (SPEC §6, §6.1, §6.2).
public struct TrendsModel: ReadModel {
    public let throughSeq: Int
    /// L: the last day with any sample; `nil` when the log has none.
    public let lastDay: DayKey?
    /// One entry per ``TrendMetric``, in its order (metrics without values included).
    public let metrics: [MetricTrend]
    /// `nil` without a last day or with fewer than 14 HRV days in L−59…L.
    public let hrvNormalRange: HRVNormalRange?
    /// From the first workout day to L.
    public let trainingLoad: [TrainingLoadDay]

    public init(throughSeq: Int, lastDay: DayKey?, metrics: [MetricTrend], hrvNormalRange: HRVNormalRange?,
                trainingLoad: [TrainingLoadDay]) {
        self.throughSeq = throughSeq
        self.lastDay = lastDay
        self.metrics = metrics
        self.hrvNormalRange = hrvNormalRange
        self.trainingLoad = trainingLoad
    }

    /// The model of `daily` (every day with a sample, ascending).
    /// - Complexity: O(d log d) for d days, plus the training-load span.
    public init(throughSeq: Int, daily: [DailyValues]) {
        let lastDay = daily.last?.date
        let metrics = TrendMetric.allCases.map { MetricTrend(metric: $0, series: DailySeries(daily, value: $0.value), lastDay: lastDay) }
        var normalRange: HRVNormalRange?
        var trainingLoad: [TrainingLoadDay] = []
        if let lastDay {
            let lnHRV = DailySeries(daily) { $0.hrv.map { DeterministicMath.log($0.value) } }
            normalRange = HRVNormalRange(lnHRV: lnHRV, lastDay: lastDay)
            trainingLoad = TrendFormula.trainingLoad(DailySeries(daily) { $0.workoutMinutes }, through: lastDay)
        }
        self.init(throughSeq: throughSeq, lastDay: lastDay, metrics: metrics, hrvNormalRange: normalRange,
                  trainingLoad: trainingLoad)
    }

    /// The trend of `metric`.
    public func trend(_ metric: TrendMetric) -> MetricTrend? {
        metrics.first { $0.metric == metric }
    }
}

/// One metric's daily series and its change over the last weeks.
public struct MetricTrend: Sendable, Equatable {
    public let metric: TrendMetric
    /// Days that have a value, ascending (no zero-filled days).
    public let series: DailySeries
    /// ``series`` with avg7 and avg28 per day.
    public let daily: [TrendPoint]
    /// The values in L−6…L (avg7 of L is their mean); empty without a last day.
    public let recent: DailyWindow?
    /// The values in L−34…L−7.
    public let baseline: DailyWindow?
    /// Unrounded; `nil` when insufficient.
    public let changePercent: Double?
    public let direction: TrendDirection

    /// The trend of `series` for the last day `lastDay`.
    public init(metric: TrendMetric, series: DailySeries, lastDay: DayKey?) {
        self.metric = metric
        self.series = series
        daily = series.days.indices.map { index in
            let day = series.days[index]
            return TrendPoint(date: day, value: series.values[index],
                              avg7: TrendFormula.avg7(series, on: day) ?? series.values[index],
                              avg28: TrendFormula.avg28(series, on: day) ?? series.values[index])
        }
        if let lastDay {
            let recent = series.window(from: lastDay.adding(days: -6), through: lastDay)
            let baseline = series.window(from: lastDay.adding(days: -34), through: lastDay.adding(days: -7))
            self.recent = recent
            self.baseline = baseline
            changePercent = TrendFormula.changePercent(recent: recent, baseline: baseline)
        } else {
            recent = nil
            baseline = nil
            changePercent = nil
        }
        direction = TrendFormula.direction(changePercent: changePercent)
    }
}

/// A metric's value on a day with its 7- and 28-day means.
public struct TrendPoint: Sendable, Equatable {
    public let date: DayKey
    public let value: Double
    /// Mean of the values in D−6…D.
    public let avg7: Double
    /// Mean of the values in D−27…D.
    public let avg28: Double

    public init(date: DayKey, value: Double, avg7: Double, avg28: Double) {
        self.date = date
        self.value = value
        self.avg7 = avg7
        self.avg28 = avg28
    }
}

/// The HRV normal range μ60 ± 0.5·σ60 over ln(daily hrv) in L−59…L, in ln(ms).
public struct HRVNormalRange: Sendable, Equatable {
    /// ln(daily hrv) in L−59…L.
    public let window: DailyWindow
    /// n, μ60, σ60 (sample SD) of ``window``.
    public let statistics: SampleStatistics
    public let low: Double
    public let high: Double
    /// ln(daily hrv) in L−6…L.
    public let recent: DailyWindow
    /// Mean of ``recent``; `nil` when L−6…L has no HRV day.
    public let avg7: Double?
    /// `nil` when ``avg7`` is `nil`.
    public let position: HRVRangePosition?

    /// The range for last day `lastDay`, or `nil` when L−59…L has fewer than 14 HRV days.
    public init?(lnHRV: DailySeries, lastDay: DayKey) {
        let window = lnHRV.window(from: lastDay.adding(days: -59), through: lastDay)
        let statistics = window.statistics
        guard statistics.n >= TrendFormula.minimumNormalRangeValues, let mean = statistics.mean, let sd = statistics.sd
        else { return nil }
        self.window = window
        self.statistics = statistics
        low = mean - 0.5 * sd
        high = mean + 0.5 * sd
        recent = lnHRV.window(from: lastDay.adding(days: -6), through: lastDay)
        avg7 = recent.statistics.mean
        if let avg7 {
            position = avg7 < low ? .below : (avg7 > high ? .above : .within)
        } else {
            position = nil
        }
    }
}
