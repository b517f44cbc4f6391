import DuneEvents

/// One day's readiness with every intermediate number of the formula.
///
/// The JSON file shows the rounded contract fields; `explain` reads the rest
/// (window days and values, z, weights) from here.
public struct ReadinessDay: Sendable, Equatable {
    /// The day this entry is for.
    public let date: DayKey
    /// The day's mean HRV in ms: the mean of its samples of ``hrvMeasure``.
    public let hrv: Double?
    /// The HRV measure of the day: that of its latest HRV sample, or on a day
    /// without HRV, of the latest earlier day with HRV (for ``hrvBaseline``);
    /// `nil` before the first day with HRV. The baseline is this measure's.
    public let hrvMeasure: HRVMeasure?
    /// The day's mean resting heart rate in count/min.
    public let rhr: Double?
    /// The day's sleep (union of intervals) in minutes.
    public let sleepMinutes: Double?
    /// The target the sleep score divides by.
    public let sleepTargetMinutes: Double
    /// ln(daily hrv) of ``hrvMeasure`` on the days D−60…D−1 that have one.
    ///
    /// Computed on demand from the shared series (a binary search and a copy of
    /// at most 60 values): a model of 50 000 days keeps no window of its own per day.
    package var hrvWindow: DailyWindow { lnHRVSeries.window(from: firstBaselineDay, through: date.adding(days: -1)) }
    /// n, mean and sample SD of ln(daily hrv) on the days D−60…D−1 that have one (any n).
    public let hrvWindowStatistics: SampleStatistics
    /// Daily resting heart rate on the days D−60…D−1 that have one (computed on demand, like `hrvWindow`).
    package var rhrWindow: DailyWindow { rhrSeries.window(from: firstBaselineDay, through: date.adding(days: -1)) }
    /// n, mean and sample SD of the daily resting heart rate on the days D−60…D−1 that have one (any n).
    public let rhrWindowStatistics: SampleStatistics
    /// The HRV component, when the day has an HRV value and a baseline.
    public let hrvComponent: ReadinessComponent?
    /// The resting-heart-rate component, when the day has a value and a baseline.
    public let rhrComponent: ReadinessComponent?
    /// The sleep component, when the day has sleep.
    public let sleepComponent: ReadinessComponent?
    /// Σ wᵢ over the available components.
    public let totalWeight: Double
    /// Σ wᵢ·sᵢ / Σ wᵢ, unrounded; `nil` when Σ wᵢ < 0.5.
    public let score: Double?
    /// Decided on the unrounded score.
    public let status: ReadinessStatus
    /// The series the windows are read from (shared by every day of a model, not copied).
    private var lnHRVSeries: DailySeries
    private var rhrSeries: DailySeries

    private var firstBaselineDay: DayKey { date.adding(days: -ReadinessFormula.baselineWindowDays) }

    /// The day's values the formula reads: all a readiness day depends on, with the series and the sleep target.
    package struct Inputs: Sendable, Equatable {
        package var date: DayKey
        /// The mean of the day's HRV samples of ``hrvMeasure``.
        package var hrv: Double?
        /// The day's own HRV measure; `nil` when it has no HRV sample.
        package var hrvMeasure: HRVMeasure?
        /// The mean of the day's HRV samples of the other measure, when it has any.
        package var otherHRV: Double?
        package var rhr: Double?
        package var sleepMinutes: Double?

        /// The inputs in a day's metrics.
        package init(metrics: DailyMetrics) {
            date = metrics.date
            hrv = metrics.value(.hrv)
            hrvMeasure = metrics.hrvMeasure
            otherHRV = metrics.otherHRV
            rhr = metrics.value(.restingHeartRate)
            sleepMinutes = metrics.value(.sleepMinutes)
        }

        /// The mean of the day's HRV samples of `measure`, or `nil` when it has none.
        package func hrv(_ measure: HRVMeasure) -> Double? {
            measure == hrvMeasure ? hrv : otherHRV
        }
    }

    /// Computes the day of `inputs` from the series of earlier days.
    /// - Parameters:
    ///   - inputs: the values of the day.
    ///   - hrvMeasure: the day's measure (see ``hrvMeasure``).
    ///   - lnHRV: ln(daily hrv) of `hrvMeasure` over (at least) D−60…D−1, ascending.
    ///   - rhrSeries: daily resting heart rate over (at least) D−60…D−1, ascending.
    ///   - sleepTargetMinutes: the sleep target.
    package init(inputs: Inputs, hrvMeasure: HRVMeasure?, lnHRV: DailySeries, rhrSeries: DailySeries, sleepTargetMinutes: Double) {
        let firstBaselineDay = inputs.date.adding(days: -ReadinessFormula.baselineWindowDays)
        let lastBaselineDay = inputs.date.adding(days: -1)
        self.init(inputs: inputs, hrvMeasure: hrvMeasure, lnHRV: lnHRV, rhrSeries: rhrSeries, sleepTargetMinutes: sleepTargetMinutes,
                  hrvWindowStatistics: lnHRV.statistics(from: firstBaselineDay, through: lastBaselineDay),
                  rhrWindowStatistics: rhrSeries.statistics(from: firstBaselineDay, through: lastBaselineDay))
    }

    /// The same, with the statistics of its two baseline windows (D−60…D−1
    /// of `lnHRV` and of `rhrSeries`) already computed.
    init(inputs: Inputs, hrvMeasure: HRVMeasure?, lnHRV: DailySeries, rhrSeries: DailySeries, sleepTargetMinutes: Double,
         hrvWindowStatistics: SampleStatistics, rhrWindowStatistics: SampleStatistics) {
        let date = inputs.date
        self.date = date
        hrv = inputs.hrv
        self.hrvMeasure = hrvMeasure
        rhr = inputs.rhr
        sleepMinutes = inputs.sleepMinutes
        self.sleepTargetMinutes = sleepTargetMinutes
        lnHRVSeries = lnHRV
        self.rhrSeries = rhrSeries
        self.hrvWindowStatistics = hrvWindowStatistics
        self.rhrWindowStatistics = rhrWindowStatistics

        var hrvComponent: ReadinessComponent?
        if let hrv, let baseline = ReadinessFormula.baseline(hrvWindowStatistics) {
            let lnValue = DeterministicMath.log(hrv)
            if let z = ReadinessFormula.zScore(lnValue, baseline: baseline) {
                hrvComponent = ReadinessComponent(input: lnValue, z: z, score: ReadinessFormula.hrvScore(z: z),
                                                  weight: ReadinessFormula.hrvWeight)
            }
        }
        var rhrComponent: ReadinessComponent?
        if let rhr, let baseline = ReadinessFormula.baseline(rhrWindowStatistics),
           let z = ReadinessFormula.zScore(rhr, baseline: baseline) {
            rhrComponent = ReadinessComponent(input: rhr, z: z, score: ReadinessFormula.rhrScore(z: z),
                                              weight: ReadinessFormula.rhrWeight)
        }
        var sleepComponent: ReadinessComponent?
        if let sleepMinutes,
           let score = ReadinessFormula.sleepScore(minutes: sleepMinutes, targetMinutes: sleepTargetMinutes) {
            sleepComponent = ReadinessComponent(input: sleepMinutes, z: nil, score: score,
                                                weight: ReadinessFormula.sleepWeight)
        }
        self.hrvComponent = hrvComponent
        self.rhrComponent = rhrComponent
        self.sleepComponent = sleepComponent

        var totalWeight = 0.0
        var weighted = 0.0
        // HRV, then RHR, then sleep: the order of the sums.
        func add(_ component: ReadinessComponent?) {
            guard let component else { return }
            totalWeight += component.weight
            weighted += component.weight * component.score
        }
        add(hrvComponent)
        add(rhrComponent)
        add(sleepComponent)
        self.totalWeight = totalWeight
        score = totalWeight >= ReadinessFormula.minimumTotalWeight ? weighted / totalWeight : nil
        status = ReadinessFormula.status(score: score)
    }

    /// The same day reading its windows from `lnHRV` and `rhrSeries`, which
    /// must hold the same values over D−60…D−1 as the series it was computed
    /// from: a model that keeps its earlier days lets them share its new
    /// series instead of holding on to the old ones.
    package func reading(lnHRV: DailySeries, rhrSeries: DailySeries) -> ReadinessDay {
        var day = self
        day.lnHRVSeries = lnHRV
        day.rhrSeries = rhrSeries
        return day
    }

    /// The HRV baseline (μ, σ, n of ln hrv), or `nil` when n < 14.
    public var hrvBaseline: SampleStatistics? { ReadinessFormula.baseline(hrvWindowStatistics) }
    /// The resting-heart-rate baseline, or `nil` when n < 14.
    public var rhrBaseline: SampleStatistics? { ReadinessFormula.baseline(rhrWindowStatistics) }
    /// The HRV component's score (0–100), or `nil` without one.
    public var hrvScore: Double? { hrvComponent?.score }
    /// The resting-heart-rate component's score (0–100), or `nil` without one.
    public var rhrScore: Double? { rhrComponent?.score }
    /// The sleep component's score (0–100), or `nil` without one.
    public var sleepScore: Double? { sleepComponent?.score }

    /// Days are equal when every number of the formula is, windows included —
    /// whatever longer series they were read from.
    public static func == (lhs: ReadinessDay, rhs: ReadinessDay) -> Bool {
        lhs.date == rhs.date && lhs.hrv == rhs.hrv && lhs.hrvMeasure == rhs.hrvMeasure && lhs.rhr == rhs.rhr && lhs.sleepMinutes == rhs.sleepMinutes
            && lhs.sleepTargetMinutes == rhs.sleepTargetMinutes && lhs.hrvWindowStatistics == rhs.hrvWindowStatistics
            && lhs.rhrWindowStatistics == rhs.rhrWindowStatistics && lhs.hrvComponent == rhs.hrvComponent
            && lhs.rhrComponent == rhs.rhrComponent && lhs.sleepComponent == rhs.sleepComponent
            && lhs.totalWeight == rhs.totalWeight && lhs.score == rhs.score && lhs.status == rhs.status
            && lhs.hrvWindow == rhs.hrvWindow && lhs.rhrWindow == rhs.rhrWindow
    }
}
