/// The weekly totals compared with the previous week (docs/read-models.md), in output order.
public enum WeeklyField: String, Sendable, Hashable, CaseIterable {
    /// The number of workouts.
    case workouts
    /// Total workout minutes.
    case durationMinutes
    /// Total active energy in kcal.
    case activeEnergyKcal
    /// Total distance in km.
    case distanceKm
    /// Total strength volume in kg.
    case strengthVolumeKg
    /// Days with at least one workout.
    case activeDays
    /// The sum of the daily step values.
    case steps
}
