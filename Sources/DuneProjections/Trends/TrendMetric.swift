/// The metrics that get a trend (docs/read-models.md), in output order.
public enum TrendMetric: String, Sendable, Hashable, CaseIterable {
    case hrv
    case restingHeartRate
    case sleepMinutes
    case steps
    case bodyMass
    case bodyFatPercentage
    case bodyMassIndex
    case workoutMinutes

    /// This metric's value on a day, or `nil` when the day has none.
    package func value(of day: DailyValues) -> Double? {
        switch self {
        case .hrv: day.hrv?.value
        case .restingHeartRate: day.restingHeartRate?.value
        case .sleepMinutes: day.sleep?.minutes
        case .steps: day.steps?.value
        case .bodyMass: day.bodyMass?.value
        case .bodyFatPercentage: day.bodyFatPercentage?.value
        case .bodyMassIndex: day.bodyMassIndex?.value
        case .workoutMinutes: day.workoutMinutes
        }
    }
}
