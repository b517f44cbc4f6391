import DuneEvents

/// The readiness read model: one entry per day that has any sample.
public struct ReadinessModel: Sendable, Equatable, ReadModel {
    /// The `seq` of the last event the model reflects; 0 for an empty log.
    public let throughSeq: Int
    /// The sleep target used for every day (latest `profile.updated`, else 480).
    public let sleepTargetMinutes: Double
    /// Ascending by date.
    public let days: [ReadinessDay]

    package init(throughSeq: Int, sleepTargetMinutes: Double, days: [ReadinessDay]) {
        self.throughSeq = throughSeq
        self.sleepTargetMinutes = sleepTargetMinutes
        self.days = days
    }

    /// The model of `daily` (every day with a sample, ascending).
    /// - Complexity: O(d log d) for d days.
    package init(throughSeq: Int, sleepTargetMinutes: Double, daily: [DailyValues]) {
        let lnHRV = DailySeries(daily) { $0.hrv.map { DeterministicMath.log($0.value) } }
        let rhr = DailySeries(daily) { $0.restingHeartRate?.value }
        self.init(throughSeq: throughSeq, sleepTargetMinutes: sleepTargetMinutes,
                  days: daily.map { ReadinessDay(daily: $0, lnHRV: lnHRV, rhrSeries: rhr, sleepTargetMinutes: sleepTargetMinutes) })
    }

    /// The entry for `date`, or `nil` when that day has no sample.
    public func day(_ date: DayKey) -> ReadinessDay? {
        days.first { $0.date == date }
    }
}
