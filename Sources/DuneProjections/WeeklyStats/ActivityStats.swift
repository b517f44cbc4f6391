import DuneEvents

/// One activity type's share of a week.
public struct ActivityStats: Sendable, Equatable {
    /// The HealthKit activity type (`running`, …).
    public let activityType: String
    /// Workouts of this type that started in the week.
    public let workouts: Int
    /// Their total minutes.
    public let durationMinutes: Double
    /// Their total active energy in kcal (workouts without energy add 0).
    public let activeEnergyKcal: Double
    /// Their total distance in km (workouts without distance add 0).
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
