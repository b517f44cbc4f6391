/// The metrics that get a trend (docs/read-models.md), in output order.
public enum TrendMetric: String, Sendable, Hashable, CaseIterable {
    /// Daily HRV in ms.
    case hrv
    /// Daily resting heart rate in count/min.
    case restingHeartRate
    /// Sleep in minutes, for the night that ends on the day.
    case sleepMinutes
    /// Daily steps (the largest per-source sum).
    case steps
    /// Body mass in kg.
    case bodyMass
    /// Body fat in percent.
    case bodyFatPercentage
    /// Body mass index in kg/m2.
    case bodyMassIndex
    /// Total workout minutes.
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
