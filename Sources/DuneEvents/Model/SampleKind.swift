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
