import DuneEvents

/// The HRV normal range μ60 ± 0.5·σ60 over ln(daily hrv) in L−59…L, in ln(ms).
public struct HRVNormalRange: Sendable, Equatable {
    /// ln(daily hrv) in L−59…L.
    package let window: DailyWindow
    /// n, μ60, σ60 (sample SD) of ln(daily hrv) in L−59…L.
    public let statistics: SampleStatistics
    /// The lower bound μ60 − 0.5·σ60, in ln(ms).
    public let low: Double
    /// The upper bound μ60 + 0.5·σ60, in ln(ms).
    public let high: Double
    /// ln(daily hrv) in L−6…L.
    package let recent: DailyWindow
    /// Mean of ln(daily hrv) in L−6…L; `nil` when that week has no HRV day.
    public let avg7: Double?
    /// `nil` when ``avg7`` is `nil`.
    public let position: HRVRangePosition?

    /// The range for last day `lastDay`, or `nil` when L−59…L has fewer than 14 HRV days.
    package init?(lnHRV: DailySeries, lastDay: DayKey) {
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
