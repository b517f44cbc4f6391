import DuneEvents

/// What the weekly-stats model reads of a day with a sample: its step value
/// and its workouts. The daily stage keeps one per day (``DailyStage``), so
/// that a week is recomputed without its samples, and a snapshot stores them
/// so that the first state after an open reads no sample.
struct WeeklyDay: Sendable, Equatable {
    /// The day.
    var date: DayKey
    /// The day's step value (``DailySteps/value``), `nil` when it has no step sample.
    var steps: Double?
    /// The day's workouts, in `seq` order.
    var workouts: [DailyWorkout]

    init(date: DayKey, steps: Double?, workouts: [DailyWorkout]) {
        self.date = date
        self.steps = steps
        self.workouts = workouts
    }

    init(_ daily: DailyValues) {
        self.init(date: daily.date, steps: daily.steps?.value, workouts: daily.workouts)
    }
}
