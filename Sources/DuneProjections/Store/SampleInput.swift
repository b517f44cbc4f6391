import DuneEvents

/// A HealthKit sample as an app hands it to ``DuneStore``: values in the
/// units HealthKit gave, before validation and unit conversion.
///
/// The store checks it by the same rules as an `ingest` input line
/// (plausible ranges, accepted units, timestamps inside 1900–2100, durations)
/// and converts the value to the kind's canonical unit, keeping what was
/// given. Two inputs with equal values are the same content, however their
/// timestamps were spelled: appending one that is already stored is
/// ``AppendOutcome/alreadyAppended``.
///
/// ```swift
/// let hrv = SampleInput(id: sample.uuid.uuidString, kind: .hrv, start: start, end: end,
///                       source: "Apple Watch", reading: .quantity(value: 48.2, unit: "ms"))
/// ```
public struct SampleInput: Sendable, Hashable {
    /// HealthKit's sample UUID: a later input with the same id corrects this one.
    public var id: String
    public var kind: SampleKind
    public var start: Timestamp
    public var end: Timestamp
    /// The app or device that wrote the sample ("Apple Watch").
    public var source: String
    public var reading: Reading

    /// What the sample measured, in the units it was measured in.
    public enum Reading: Sendable, Hashable {
        /// A quantity: `unit` is one of the kind's accepted units
        /// (`ms`; `count/min`, `bpm`; `count`; `kg`, `g`, `lb`; `%` as a
        /// fraction 0–1, `percent` as 0–100; `count`, `kg/m2` for BMI).
        case quantity(value: Double, unit: String)
        /// A sleep stage over `start…end`.
        case sleep(SleepStage)
        /// A workout over `start…end`.
        case workout(WorkoutInput)
    }

    public init(id: String, kind: SampleKind, start: Timestamp, end: Timestamp, source: String, reading: Reading) {
        self.id = id
        self.kind = kind
        self.start = start
        self.end = end
        self.source = source
        self.reading = reading
    }
}

/// A workout as HealthKit reports it: totals in the units it gave.
public struct WorkoutInput: Sendable, Hashable {
    /// HealthKit's activity type in lower camel case (`running`, `traditionalStrengthTraining`).
    public var activityType: String
    /// Active energy and its unit: `kcal`, `Cal` or `kJ`.
    public var energy: Quantity?
    /// Distance and its unit: `m`, `km` or `mi`.
    public var distance: Quantity?
    /// Strength volume (sets × reps × load) in kg.
    public var volumeKg: Double?

    /// A number with the unit it is written in.
    public struct Quantity: Sendable, Hashable {
        public var value: Double
        public var unit: String

        public init(value: Double, unit: String) {
            self.value = value
            self.unit = unit
        }
    }

    public init(activityType: String, energy: Quantity? = nil, distance: Quantity? = nil, volumeKg: Double? = nil) {
        self.activityType = activityType
        self.energy = energy
        self.distance = distance
        self.volumeKg = volumeKg
    }
}
