/// The HealthKit sample types DuneEvents ingests.
public enum SampleKind: String, Sendable, Hashable, CaseIterable, Comparable {
    case hrv
    case restingHeartRate
    case stepCount
    case bodyMass
    case bodyFatPercentage
    case bodyMassIndex
    case sleep
    case workout

    /// The unit every value of this kind is stored in (quantity kinds only).
    public var canonicalUnit: String? {
        switch self {
        case .hrv: "ms"
        case .restingHeartRate: "count/min"
        case .stepCount: "count"
        case .bodyMass: "kg"
        case .bodyFatPercentage: "percent"
        case .bodyMassIndex: "kg/m2"
        case .sleep, .workout: nil
        }
    }

    public static func < (lhs: SampleKind, rhs: SampleKind) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A sleep stage as HealthKit's `HKCategoryValueSleepAnalysis` names it.
public enum SleepStage: String, Sendable, Hashable, CaseIterable {
    case inBed
    case asleepUnspecified
    case asleepCore
    case asleepDeep
    case asleepREM
    case awake

    /// Whether the stage counts as sleep (the four asleep stages).
    public var isAsleep: Bool {
        switch self {
        case .asleepUnspecified, .asleepCore, .asleepDeep, .asleepREM: true
        case .inBed, .awake: false
        }
    }
}
