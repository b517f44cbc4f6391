/// The HealthKit sample types DuneEvents ingests.
public enum SampleKind: String, Sendable, Hashable, CaseIterable, Comparable {
    /// Heart rate variability (SDNN), in ms.
    case hrv
    /// Resting heart rate, in count/min.
    case restingHeartRate
    /// Steps taken in the sample's interval.
    case stepCount
    /// Body mass, in kg.
    case bodyMass
    /// Body fat, in percent (0–100).
    case bodyFatPercentage
    /// Body mass index, in kg/m2.
    case bodyMassIndex
    /// A sleep-analysis interval with a ``SleepStage``.
    case sleep
    /// A workout with a ``WorkoutSummary``.
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

    /// Orders kinds by their raw names.
    public static func < (lhs: SampleKind, rhs: SampleKind) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A sleep stage as HealthKit's `HKCategoryValueSleepAnalysis` names it.
public enum SleepStage: String, Sendable, Hashable, CaseIterable {
    /// In bed, not necessarily asleep; does not count as sleep.
    case inBed
    /// Asleep, stage not known.
    case asleepUnspecified
    /// Core (light) sleep.
    case asleepCore
    /// Deep sleep.
    case asleepDeep
    /// REM sleep.
    case asleepREM
    /// Awake during the night; does not count as sleep.
    case awake

    /// Whether the stage counts as sleep (the four asleep stages).
    public var isAsleep: Bool {
        switch self {
        case .asleepUnspecified, .asleepCore, .asleepDeep, .asleepREM: true
        case .inBed, .awake: false
        }
    }
}
