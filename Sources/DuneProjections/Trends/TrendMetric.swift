/// The metrics that get a trend (SPEC §6), in output order.
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
    public func value(of day: DailyValues) -> Double? {
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

/// Which way a metric moved: avg7 of the last day against the L−34…L−7 mean.
public enum TrendDirection: String, Sendable, Hashable, CaseIterable {
    /// change% ≥ +5.
    case up
    /// change% ≤ −5.
    case down
    /// −5 < change% < +5.
    case stable
    /// Fewer than 3 recent or 7 baseline values, or a baseline mean of 0.
    case insufficientData
}

/// Where the recent ln-HRV average sits against the normal range.
public enum HRVRangePosition: String, Sendable, Hashable, CaseIterable {
    case below
    case within
    case above
}
