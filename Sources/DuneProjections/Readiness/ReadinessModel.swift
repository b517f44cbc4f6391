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
        self.init(throughSeq: throughSeq, sleepTargetMinutes: sleepTargetMinutes, inputs: daily.map(ReadinessDay.Inputs.init))
    }

    /// The model of days with these `inputs` (every day with a sample, ascending): the same
    /// numbers as from their daily values, without the samples (a snapshot keeps them).
    /// - Complexity: O(d log d) for d days.
    package init(throughSeq: Int, sleepTargetMinutes: Double, inputs: [ReadinessDay.Inputs]) {
        let (lnHRVSeries, rhrSeries) = Self.series(inputs)
        self.init(throughSeq: throughSeq, sleepTargetMinutes: sleepTargetMinutes,
                  days: inputs.map { ReadinessDay(inputs: $0, lnHRV: lnHRVSeries, rhrSeries: rhrSeries, sleepTargetMinutes: sleepTargetMinutes) })
    }

    /// The model of days with these `inputs`, where the days before
    /// `firstChanged` have the same inputs as in `previous`: those days are
    /// taken from it (a day reads only its own and earlier days' values),
    /// the others computed — unless the sleep target changed, which changes
    /// every day. The same model as ``init(throughSeq:sleepTargetMinutes:inputs:)`` gives.
    /// - Complexity: O(d) for d days, plus O(k log d) for the k days from `firstChanged` on.
    package init(throughSeq: Int, sleepTargetMinutes: Double, inputs: [ReadinessDay.Inputs],
                 keeping previous: ReadinessModel, before firstChanged: DayKey) {
        guard previous.sleepTargetMinutes == sleepTargetMinutes else {
            self.init(throughSeq: throughSeq, sleepTargetMinutes: sleepTargetMinutes, inputs: inputs)
            return
        }
        let (lnHRVSeries, rhrSeries) = Self.series(inputs)
        var days = previous.days.prefix { $0.date < firstChanged }.map { $0.reading(lnHRV: lnHRVSeries, rhrSeries: rhrSeries) }
        for day in inputs.drop(while: { $0.date < firstChanged }) {
            days.append(ReadinessDay(inputs: day, lnHRV: lnHRVSeries, rhrSeries: rhrSeries, sleepTargetMinutes: sleepTargetMinutes))
        }
        self.init(throughSeq: throughSeq, sleepTargetMinutes: sleepTargetMinutes, days: days)
    }

    /// ln(daily hrv) and daily resting heart rate over the days of `inputs`.
    private static func series(_ inputs: [ReadinessDay.Inputs]) -> (lnHRV: DailySeries, rhr: DailySeries) {
        var hrvDays: [DayKey] = []
        var lnHRV: [Double] = []
        var rhrDays: [DayKey] = []
        var rhrValues: [Double] = []
        for day in inputs {
            if let hrv = day.hrv {
                hrvDays.append(day.date)
                lnHRV.append(DeterministicMath.log(hrv))
            }
            if let rhr = day.rhr {
                rhrDays.append(day.date)
                rhrValues.append(rhr)
            }
        }
        return (DailySeries(days: hrvDays, values: lnHRV), DailySeries(days: rhrDays, values: rhrValues))
    }

    /// The entry for `date`, or `nil` when that day has no sample.
    public func day(_ date: DayKey) -> ReadinessDay? {
        days.first { $0.date == date }
    }
}
