import DuneEvents

/// The eight metric values of one day (``TrendMetric``): all that the
/// readiness and trends models read of a day's values. A snapshot keeps them
/// for every day, so that the first read after a restore computes those
/// models without reading every sample.
package struct DailyMetrics: Sendable, Equatable {
    package var date: DayKey
    /// Bit `i` set: the value of `TrendMetric.allCases[i]` is present.
    package var present: UInt8
    /// One per metric, in `TrendMetric.allCases` order; 0 where absent.
    /// The `hrv` value is of the day's measure, ``hrvMeasure``.
    package var values: [Double]
    /// The day's HRV measure (``DailyValues/hrvMeasure``); `nil` without HRV.
    package var hrvMeasure: HRVMeasure?
    /// The mean of the day's HRV samples of the other measure, when it has any.
    package var otherHRV: Double?

    /// The metrics of `date` as a snapshot stored them.
    init(date: DayKey, present: UInt8, values: [Double], hrvMeasure: HRVMeasure?, otherHRV: Double?) {
        self.date = date
        self.present = present
        self.values = values
        self.hrvMeasure = hrvMeasure
        self.otherHRV = otherHRV
    }

    /// The metrics of `daily`.
    package init(_ daily: DailyValues) {
        date = daily.date
        hrvMeasure = daily.hrvMeasure
        otherHRV = daily.otherHRV?.value
        present = 0
        values = []
        values.reserveCapacity(TrendMetric.allCases.count)
        for (index, metric) in TrendMetric.allCases.enumerated() {
            let value = metric.value(of: daily)
            if value != nil { present |= 1 << UInt8(index) }
            values.append(value ?? 0)
        }
    }

    /// The value of `metric`, or `nil` when the day has none.
    package func value(_ metric: TrendMetric) -> Double? {
        let index = Self.index(metric)
        return present & (1 << UInt8(index)) != 0 ? values[index] : nil
    }

    /// The mean of the day's HRV samples of `measure`, or `nil` when it has none.
    package func hrv(_ measure: HRVMeasure) -> Double? {
        measure == hrvMeasure ? value(.hrv) : otherHRV
    }

    private static func index(_ metric: TrendMetric) -> Int {
        switch metric {
        case .hrv: 0
        case .restingHeartRate: 1
        case .sleepMinutes: 2
        case .steps: 3
        case .bodyMass: 4
        case .bodyFatPercentage: 5
        case .bodyMassIndex: 6
        case .workoutMinutes: 7
        }
    }
}
