import DuneEvents

/// The plan of one generated day: when the person woke and went to bed, where
/// they were, how they felt, and which workouts they did.
///
/// Day `index`'s lines span from the night that ends on its morning to its
/// evening bedtime; the next day's lines all come later, which keeps the
/// output chronological while only one day is held in memory.
struct SyntheticDay {
    var index: Int
    /// The local date as a day ordinal.
    var ordinal: Int
    /// ISO weekday, Monday = 1 … Sunday = 7.
    var weekday: Int
    /// The UTC offset of the waking hours.
    var offset: Int32
    /// Start of the night ending this morning: lights off (epoch seconds).
    var inBedStart: Int64
    /// Falling asleep.
    var sleepOnset: Int64
    /// Waking up: the start of the day's activities.
    var wake: Int64
    /// This evening's bedtime: the end of the day's activities.
    var bedtime: Int64
    /// Whether this evening is a late night out (bad sleep and HRV next morning).
    var lateNightTonight: Bool
    var ill: Bool
    var jetLag: Bool
    var onTrip: Bool
    var workouts: [SyntheticWorkout]
    /// Minutes asleep last night, filled in by the night writer.
    var asleepMinutes: Double = 0
    /// Whether the person stepped on the scale this morning.
    var weighed = false

    /// The epoch second of `secondOfDay` on this local day in its offset.
    func epoch(secondOfDay: Int) -> Int64 {
        SyntheticCalendar.epoch(ordinal: ordinal, secondOfDay: secondOfDay, offset: offset)
    }

    /// `instant` clamped into the waking window `wake + 60 s … bedtime − 60 s`.
    func clampToDay(_ instant: Int64) -> Int64 {
        min(max(instant, wake + 60), bedtime - 60)
    }
}
