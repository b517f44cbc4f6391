import DuneEvents

/// One activity type's share of a week.
public struct ActivityStats: Sendable, Equatable {
    public let activityType: String
    public let workouts: Int
    public let durationMinutes: Double
    public let activeEnergyKcal: Double
    public let distanceKm: Double

    /// Totals of `workouts` (all of `activityType`, in `seq` order).
    package init(activityType: String, workouts: [DailyWorkout]) {
        let totals = WeekTotals(workouts: workouts, steps: [])
        self.activityType = activityType
        self.workouts = totals.workouts
        durationMinutes = totals.durationMinutes
        activeEnergyKcal = totals.activeEnergyKcal
        distanceKm = totals.distanceKm
    }
}
