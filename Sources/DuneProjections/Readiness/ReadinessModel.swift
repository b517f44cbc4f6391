import DuneEvents

/// The readiness read model: one entry per day that has any sample.
public struct ReadinessModel: Sendable, Equatable, ReadModel {
    /// The `seq` of the last event the model reflects; 0 for an empty log.
    public package(set) var throughSeq: Int
    /// The sleep target used for every day (latest `profile.updated`, else 480).
    public let sleepTargetMinutes: Double
    /// Ascending by date.
    public let days: [ReadinessDay]

    /// The model of days with these `inputs` (every day with a sample,
    /// ascending): the same numbers as from their daily values, without the samples.
    ///
    /// With `previous`, the days before `firstChanged` have the same inputs as
    /// in `previous`: those days are taken from it (a day reads only its own and
    /// earlier days' values), the others computed — unless the sleep target
    /// changed, which changes every day. The same model as computing every day gives.
    /// - Complexity: O(d log d) for d days; with `previous`, O(d) plus O(k log d)
    ///   for the k days from `firstChanged` on.
    package init(throughSeq: Int, sleepTargetMinutes: Double, inputs: [ReadinessDay.Inputs],
                 keeping previous: ReadinessModel? = nil, before firstChanged: DayKey? = nil) {
        var kept: ArraySlice<ReadinessDay> = []
        if let previous, let firstChanged, previous.sleepTargetMinutes == sleepTargetMinutes {
            kept = previous.days.prefix { $0.date < firstChanged }
        }
        let series = MeasureSeries(inputs)
        var days: [ReadinessDay] = []
        days.reserveCapacity(inputs.count)
        days += kept.lazy.map { $0.reading(lnHRV: series.lnHRV($0.hrvMeasure), rhrSeries: series.rhr) }
        // A day without HRV takes the measure of the latest earlier day with HRV.
        var measure = kept.last?.hrvMeasure
        // Each day's baseline windows, D−60…D−1, move forward with the days.
        var sdnnWindows = DailySeries.MovingWindows(series.lnSDNN)
        var rmssdWindows = DailySeries.MovingWindows(series.lnRMSSD)
        var rhrWindows = DailySeries.MovingWindows(series.rhr)
        let empty = SampleStatistics(EmptyCollection<Double>())
        for day in inputs.dropFirst(kept.count) {
            measure = day.hrvMeasure ?? measure
            let first = day.date.adding(days: -ReadinessFormula.baselineWindowDays)
            let last = day.date.adding(days: -1)
            let hrvWindow = switch measure {
            case .sdnn: sdnnWindows.statistics(from: first, through: last)
            case .rmssd: rmssdWindows.statistics(from: first, through: last)
            case nil: empty
            }
            days.append(ReadinessDay(inputs: day, hrvMeasure: measure, lnHRV: series.lnHRV(measure), rhrSeries: series.rhr,
                                     sleepTargetMinutes: sleepTargetMinutes, hrvWindowStatistics: hrvWindow,
                                     rhrWindowStatistics: rhrWindows.statistics(from: first, through: last)))
        }
        self.throughSeq = throughSeq
        self.sleepTargetMinutes = sleepTargetMinutes
        self.days = days
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
