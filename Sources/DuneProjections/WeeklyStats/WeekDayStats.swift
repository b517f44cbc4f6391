import DuneEvents

/// One day of a week.
public struct WeekDayStats: Sendable, Equatable {
    /// The day.
    public let date: DayKey
    /// Workouts that started that day.
    public let workouts: Int
    /// Their total minutes.
    public let durationMinutes: Double
    /// Their total active energy in kcal.
    public let activeEnergyKcal: Double
    /// Their total distance in km.
    public let distanceKm: Double
    /// Their total strength volume in kg.
    public let strengthVolumeKg: Double
    /// The day's step value, `nil` when it has no step sample.
    public let steps: Double?

    /// The day `date` from its values, or an empty day when it has no sample.
    init(date: DayKey, day: WeeklyDay?) {
        let totals = WeekTotals(workouts: day?.workouts ?? [], steps: [])
        self.date = date
        workouts = totals.workouts
        durationMinutes = totals.durationMinutes
        activeEnergyKcal = totals.activeEnergyKcal
        distanceKm = totals.distanceKm
        strengthVolumeKg = totals.strengthVolumeKg
        steps = day?.steps
    }
}
