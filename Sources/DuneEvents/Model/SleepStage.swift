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

    /// The raw value as a `StaticString`, for byte writers and comparisons.
    package var staticRawValue: StaticString {
        switch self {
        case .inBed: "inBed"
        case .asleepUnspecified: "asleepUnspecified"
        case .asleepCore: "asleepCore"
        case .asleepDeep: "asleepDeep"
        case .asleepREM: "asleepREM"
        case .awake: "awake"
        }
    }
}
