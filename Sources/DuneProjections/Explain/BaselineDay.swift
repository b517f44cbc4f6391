import DuneEvents

/// One day of a baseline window: its value and the samples it came from.
public struct BaselineDay: Sendable, Equatable {
    public let date: DayKey
    /// The value as the formula uses it (ln ms for HRV, count/min for resting HR).
    public let value: Double
    /// The samples averaged into the day's value, in `seq` order.
    public let samples: [SampleReference]

    public init(date: DayKey, value: Double, samples: [SampleReference]) {
        self.date = date
        self.value = value
        self.samples = samples
    }
}
