import DuneEvents

/// The readiness read model: one entry per day that has any sample.
public struct ReadinessModel: Sendable, Equatable, ReadModel {
    /// The `seq` of the last event the model reflects; 0 for an empty log.
    public package(set) var throughSeq: Int
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
        self.init(throughSeq: throughSeq, sleepTargetMinutes: sleepTargetMinutes, inputs: inputs, keeping: [])
    }

    /// The model of days with these `inputs`, where the days before
    /// `firstChanged` have the same inputs as in `previous`: those days are
    /// taken from it (a day reads only its own and earlier days' values),
    /// the others computed — unless the sleep target changed, which changes
    /// every day. The same model as ``init(throughSeq:sleepTargetMinutes:inputs:)`` gives.
    /// - Complexity: O(d) for d days, plus O(k log d) for the k days from `firstChanged` on.
    package init(throughSeq: Int, sleepTargetMinutes: Double, inputs: [ReadinessDay.Inputs],
                 keeping previous: ReadinessModel, before firstChanged: DayKey) {
        let kept = previous.sleepTargetMinutes == sleepTargetMinutes ? previous.days.prefix { $0.date < firstChanged } : [][...]
        self.init(throughSeq: throughSeq, sleepTargetMinutes: sleepTargetMinutes, inputs: inputs, keeping: kept)
    }

    /// The model of `inputs` whose first `kept.count` days are `kept`, already computed.
    private init(throughSeq: Int, sleepTargetMinutes: Double, inputs: [ReadinessDay.Inputs], keeping kept: ArraySlice<ReadinessDay>) {
        let series = MeasureSeries(inputs)
        var days = kept.map { $0.reading(lnHRV: series.lnHRV($0.hrvMeasure), rhrSeries: series.rhr) }
        // A day without HRV takes the measure of the latest earlier day with HRV.
        var measure = kept.last?.hrvMeasure
        for day in inputs.dropFirst(kept.count) {
            measure = day.hrvMeasure ?? measure
            days.append(ReadinessDay(inputs: day, hrvMeasure: measure, lnHRV: series.lnHRV(measure), rhrSeries: series.rhr,
                                     sleepTargetMinutes: sleepTargetMinutes))
        }
        self.init(throughSeq: throughSeq, sleepTargetMinutes: sleepTargetMinutes, days: days)
    }

    /// ln(daily hrv) per measure and daily resting heart rate over the days of some inputs.
    struct MeasureSeries {
        let lnSDNN: DailySeries
        let lnRMSSD: DailySeries
        let rhr: DailySeries

        init(_ inputs: [ReadinessDay.Inputs]) {
            lnSDNN = DailySeries(inputs, date: \.date) { $0.hrv(.sdnn).map(DeterministicMath.log) }
            lnRMSSD = DailySeries(inputs, date: \.date) { $0.hrv(.rmssd).map(DeterministicMath.log) }
            rhr = DailySeries(inputs, date: \.date) { $0.rhr }
        }

        /// The ln(daily hrv) series of `measure`; empty without one.
        func lnHRV(_ measure: HRVMeasure?) -> DailySeries {
            switch measure {
            case .sdnn: lnSDNN
            case .rmssd: lnRMSSD
            case nil: .empty
            }
        }
    }

    /// The entry for `date`, or `nil` when that day has no sample.
    public func day(_ date: DayKey) -> ReadinessDay? {
        days.first { $0.date == date }
    }
}
