import DuneEvents

/// One metric's daily series and its change over the last weeks.
public struct MetricTrend: Sendable, Equatable {
    /// The metric this trend is of.
    public let metric: TrendMetric
    /// For ``TrendMetric/hrv``, the measure of every value in the series: that
    /// of the last day with HRV (values of the other measure are left out);
    /// `nil` for the other metrics, and without HRV.
    public let measure: HRVMeasure?
    /// Days that have a value, ascending (no zero-filled days).
    package let series: DailySeries
    /// One point per day that has a value (no zero-filled days), ascending, with avg7 and avg28.
    public let daily: [TrendPoint]
    /// The values in L−6…L (avg7 of L is their mean); empty without a last day.
    package let recent: DailyWindow?
    /// The values in L−34…L−7.
    package let baseline: DailyWindow?
    /// avg7 of the last day against the mean of L−34…L−7, in percent, unrounded;
    /// `nil` with fewer than 3 recent or 7 baseline values, or a baseline mean of 0.
    public let changePercent: Double?
    /// Which way the metric moved, decided on ``changePercent``.
    public let direction: TrendDirection

    /// The trend of `series` for the last day `lastDay`.
    /// - Parameter kept: the points of the first `kept.count` days of
    ///   `series`, already computed (by an earlier model whose values on and
    ///   before those days were the same: a point reads only its own and
    ///   earlier days); the others are computed.
    package init(metric: TrendMetric, series: DailySeries, measure: HRVMeasure? = nil, lastDay: DayKey?,
                 keeping kept: ArraySlice<TrendPoint> = []) {
        self.metric = metric
        self.measure = measure
        self.series = series
        var daily = Array(kept)
        daily.reserveCapacity(series.days.count)
        // The 7- and 28-day windows ending on each day (`TrendFormula.avg7`, `avg28`):
        // the same values, in the same order, found by moving each window's first
        // index forward with the days instead of searching for it every day.
        var first7 = kept.count
        var first28 = kept.count
        if let start = series.days.dropFirst(kept.count).first {
            first7 = series.firstIndex(notBefore: start.adding(days: -6))
            first28 = series.firstIndex(notBefore: start.adding(days: -27))
        }
        for index in series.days.indices.dropFirst(kept.count) {
            let day = series.days[index]
            while series.days[first7] < day.adding(days: -6) { first7 += 1 }
            while series.days[first28] < day.adding(days: -27) { first28 += 1 }
            let values = series.values
            daily.append(TrendPoint(date: day, value: values[index],
                                    avg7: SampleStatistics.mean(values[first7...index]) ?? values[index],
                                    avg28: SampleStatistics.mean(values[first28...index]) ?? values[index]))
        }
        self.daily = daily
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
    /// The day of the value.
    public let date: DayKey
    /// The metric's value that day.
    public let value: Double
    /// Mean of the values in D−6…D.
    public let avg7: Double
    /// Mean of the values in D−27…D.
    public let avg28: Double
}
