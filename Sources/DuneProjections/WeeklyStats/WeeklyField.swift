/// The weekly totals compared with the previous week (docs/read-models.md), in output order.
public enum WeeklyField: String, Sendable, Hashable, CaseIterable {
    case workouts
    case durationMinutes
    case activeEnergyKcal
    case distanceKm
    case strengthVolumeKg
    case activeDays
    case steps
}
