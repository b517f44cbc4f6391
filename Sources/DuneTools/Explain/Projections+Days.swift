import DuneEvents
import DuneProjections

/// What `explain` reads of the engine: one day, and the values and samples behind it.
extension ReadModelEngine {
    /// The daily values of `date` with their contributing samples, or `nil`.
    package func dailyValues(on date: DayKey) -> DailyValues? {
        samples.dailyValues(on: date)
    }

    /// Day `date` alone, computed from only D−60…D by the same code as
    /// the engine's readiness model (on a day without HRV, also the latest earlier day with
    /// HRV, for the measure); `nil` when the day has no sample.
    /// - Complexity: O(k log k) for k samples in D−60…D (and in the days back to
    ///   the latest with HRV), plus O(d) over the days with samples.
    package func day(_ date: DayKey) -> ReadinessDay? {
        guard let values = samples.dailyValues(on: date) else { return nil }
        let first = date.adding(days: -ReadinessFormula.baselineWindowDays)
        let days = samples.days
        let earlier = days.filter { $0 >= first && $0 < date }.compactMap { samples.dailyValues(on: $0) }
        // Without HRV, the day takes the measure of the latest earlier day with HRV, however far back.
        let measure = values.hrvMeasure
            ?? days.filter { $0 < date }.reversed().lazy.compactMap { samples.dailyValues(on: $0)?.hrvMeasure }.first
        let lnHRV = DailySeries(earlier, date: \.date) { day in measure.flatMap { day.hrv($0) }.map { DeterministicMath.log($0.value) } }
        let rhr = DailySeries(earlier, date: \.date) { $0.restingHeartRate?.value }
        return ReadinessDay(inputs: ReadinessDay.Inputs(metrics: DailyMetrics(values)), hrvMeasure: measure, lnHRV: lnHRV, rhrSeries: rhr,
                            sleepTargetMinutes: readiness.sleepTargetMinutes)
    }
}

extension DailySeries {
    /// The value on `day`, or `nil`.
    package func value(on day: DayKey) -> Double? {
        let index = firstIndex(notBefore: day)
        return index < days.count && days[index] == day ? values[index] : nil
    }

}

extension DailySteps {
    /// The winning source's samples, in `seq` order.
    package var samples: [SampleReference] {
        sources.first { $0.source == source }?.samples ?? []
    }

}
