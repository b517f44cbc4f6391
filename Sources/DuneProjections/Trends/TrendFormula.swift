import DuneEvents

/// The trend formulas (docs/read-models.md), shared by the projection and `explain`.
package enum TrendFormula {
    /// Values a change needs in L−6…L.
    package static let minimumRecentValues = 3
    /// Values a change needs in L−34…L−7.
    package static let minimumBaselineValues = 7
    /// |change%| at or above this is a direction.
    package static let directionThresholdPercent = 5.0
    /// Values the HRV normal range needs in L−59…L.
    package static let minimumNormalRangeValues = 14
    /// CTL smoothing factor, 1 − e^(−1/42).
    package static let ctlFactor = 1 - DeterministicMath.exp(-1.0 / 42.0)
    /// ATL smoothing factor, 1 − e^(−1/7).
    package static let atlFactor = 1 - DeterministicMath.exp(-1.0 / 7.0)

    /// Mean of the values in D−6…D.
    package static func avg7(_ series: DailySeries, on day: DayKey) -> Double? {
        series.statistics(from: day.adding(days: -6), through: day).mean
    }

    /// Mean of the values in D−27…D.
    package static func avg28(_ series: DailySeries, on day: DayKey) -> Double? {
        series.statistics(from: day.adding(days: -27), through: day).mean
    }

    /// `(recent − baseline)/baseline · 100`, or `nil` when the windows are too
    /// thin (< 3 recent, < 7 baseline values) or the baseline mean is 0.
    package static func changePercent(recent: DailyWindow, baseline: DailyWindow) -> Double? {
        guard recent.values.count >= minimumRecentValues, baseline.values.count >= minimumBaselineValues,
              let recentMean = recent.statistics.mean, let baselineMean = baseline.statistics.mean, baselineMean != 0
        else { return nil }
        return (recentMean - baselineMean) / baselineMean * 100
    }

    /// The direction of an unrounded change.
    package static func direction(changePercent: Double?) -> TrendDirection {
        guard let changePercent else { return .insufficientData }
        if changePercent >= directionThresholdPercent { return .up }
        if changePercent <= -directionThresholdPercent { return .down }
        return .stable
    }

    /// Daily CTL/ATL/TSB from the first day of `load` to `last`, missing days 0,
    /// starting from 0: `TSB_D = CTL_{D−1} − ATL_{D−1}`, then
    /// `CTL_D = CTL_{D−1} + (load_D − CTL_{D−1})·(1 − e^(−1/42))` and likewise ATL with 7.
    /// Empty when `load` is empty or starts after `last`.
    /// - Parameter kept: the first days of the result, already computed (by an
    ///   earlier model whose loads on and before those days were the same: a
    ///   day reads only its own and earlier loads); the days after them are
    ///   computed, going on from the last kept CTL and ATL.
    /// - Complexity: O(days from the first load, or the last kept day, to `last`).
    package static func trainingLoad(_ load: DailySeries, through last: DayKey,
                                     keeping kept: ArraySlice<TrainingLoadDay> = []) -> [TrainingLoadDay] {
        guard let first = load.days.first, first <= last else { return [] }
        var days = Array(kept)
        days.reserveCapacity(last.ordinal - first.ordinal + 1)
        var ctl = kept.last?.ctl ?? 0
        var atl = kept.last?.atl ?? 0
        let start = kept.last.map { $0.date.adding(days: 1) } ?? first
        guard start <= last else { return days }
        var index = load.firstIndex(notBefore: start)
        for ordinal in start.ordinal...last.ordinal {
            let date = DayKey(ordinal: ordinal)
            var today = 0.0
            if index < load.days.count, load.days[index] == date {
                today = load.values[index]
                index += 1
            }
            let tsb = ctl - atl
            ctl += (today - ctl) * ctlFactor
            atl += (today - atl) * atlFactor
            days.append(TrainingLoadDay(date: date, load: today, ctl: ctl, atl: atl, tsb: tsb))
        }
        return days
    }
}
