import DuneEvents

/// One day of training load.
public struct TrainingLoadDay: Sendable, Equatable {
    /// The day.
    public let date: DayKey
    /// Workout minutes that day (0 when none).
    public let load: Double
    /// Chronic training load after the day.
    public let ctl: Double
    /// Acute training load after the day.
    public let atl: Double
    /// Training stress balance: yesterday's CTL − ATL.
    public let tsb: Double
}
