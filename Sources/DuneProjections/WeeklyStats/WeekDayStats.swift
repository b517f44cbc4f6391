import DuneEvents

/// One day of a week.
public struct WeekDayStats: Sendable, Equatable {
    public let date: DayKey
    public let workouts: Int
    public let durationMinutes: Double
    public let activeEnergyKcal: Double
    public let distanceKm: Double
    public let strengthVolumeKg: Double
    /// The day's step value, `nil` when it has no step sample.
    public let steps: Double?

    /// The day `date` from its values, or an empty day when it has no sample.
    package init(date: DayKey, values: DailyValues?) {
        let totals = WeekTotals(workouts: values?.workouts ?? [], steps: [])
        self.date = date
        workouts = totals.workouts
        durationMinutes = totals.durationMinutes
        activeEnergyKcal = totals.activeEnergyKcal
        distanceKm = totals.distanceKm
        strengthVolumeKg = totals.strengthVolumeKg
        steps = values?.steps?.value
    }
}
