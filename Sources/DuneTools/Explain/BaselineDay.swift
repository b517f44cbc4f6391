import DuneEvents
import DuneProjections

/// One day of a baseline window: its value and the samples it came from.
package struct BaselineDay: Sendable, Equatable {
    package let date: DayKey
    /// The value as the formula uses it (ln ms for HRV, count/min for resting HR).
    package let value: Double
    /// The samples averaged into the day's value, in `seq` order.
    package let samples: [SampleReference]
}
