import DuneEvents

/// The values of a series inside a date window, with their statistics.
package struct DailyWindow: Sendable, Equatable {
    /// The first day of the window (it may have no value).
    package let first: DayKey
    /// The last day of the window (it may have no value).
    package let last: DayKey
    /// The days in the window that have a value, ascending.
    package let days: [DayKey]
    /// Their values, in the same order.
    package let values: [Double]

    /// n, mean and sample SD of ``values``, summed in date order.
    package var statistics: SampleStatistics { SampleStatistics(values) }
}
