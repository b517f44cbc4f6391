/// A HealthKit sample as an app hands it to `DuneStore`: values in the
/// units HealthKit gave, before validation and unit conversion.
///
/// The store checks it by the same rules as an `ingest` input line
/// (plausible ranges, accepted units, timestamps inside 1900–2100, durations)
/// and converts the value to the kind's canonical unit, keeping what was
/// given. Two inputs with equal values are the same content, however their
/// timestamps were spelled: appending one that is already stored changes
/// nothing (the store answers `alreadyAppended`).
///
/// ```swift
/// let hrv = SampleInput(id: sample.uuid.uuidString, kind: .hrv, start: start, end: end,
///                       source: "Apple Watch", reading: .quantity(value: 48.2, unit: "ms"))
/// ```
public struct SampleInput: Sendable, Hashable {
    /// HealthKit's sample UUID: a later input with the same id corrects this one.
    public var id: String
    /// What was measured; decides which readings and units are accepted.
    public var kind: SampleKind
    /// When the measurement interval starts.
    public var start: Timestamp
    /// When it ends; an end before the start is rejected.
    public var end: Timestamp
    /// The app or device that wrote the sample ("Apple Watch").
    public var source: String
    /// The value: a quantity for the quantity kinds, a stage for sleep, a workout for workouts.
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

    /// Creates a sample input; nothing is checked until it is appended.
    /// - Parameters:
    ///   - id: HealthKit's sample UUID.
    ///   - kind: What was measured.
    ///   - start: When the interval starts.
    ///   - end: When it ends.
    ///   - source: The app or device that wrote the sample.
    ///   - reading: The value in the units HealthKit gave.
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
    public var energy: WorkoutSummary.Measurement?
    /// Distance and its unit: `m`, `km` or `mi`.
    public var distance: WorkoutSummary.Measurement?
    /// Strength volume (sets × reps × load) in kg.
    public var volumeKg: Double?

    /// Creates a workout input; nothing is checked until it is appended.
    /// - Parameters:
    ///   - activityType: HealthKit's activity type in lower camel case.
    ///   - energy: Active energy with its unit, if known.
    ///   - distance: Distance with its unit, if known.
    ///   - volumeKg: Strength volume in kg, if known.
    public init(activityType: String, energy: WorkoutSummary.Measurement? = nil, distance: WorkoutSummary.Measurement? = nil,
                volumeKg: Double? = nil) {
        self.activityType = activityType
        self.energy = energy
        self.distance = distance
        self.volumeKg = volumeKg
    }
}

// MARK: - The input line

extension SampleInput {
    /// The `ingest` input line of this sample as an object (without
    /// `eventID`), timestamps in their canonical spelling: what the store's
    /// typed appends hand to the line parser to validate.
    package var inputObject: JSONObject {
        var object = JSONObject()
        object["type"] = .string("sample")
        object["kind"] = .string(kind.rawValue)
        object["id"] = .string(id)
        object["start"] = .string(start.canonicalText)
        object["end"] = .string(end.canonicalText)
        object["source"] = .string(source)
        switch reading {
        case .quantity(let value, let unit):
            object["value"] = .number(value)
            object["unit"] = .string(unit)
        case .sleep(let stage):
            object["value"] = .string(stage.rawValue)
        case .workout(let workout):
            object["activityType"] = .string(workout.activityType)
            if let energy = workout.energy {
                object["energy"] = .number(energy.value)
                object["energyUnit"] = .string(energy.unit)
            }
            if let distance = workout.distance {
                object["distance"] = .number(distance.value)
                object["distanceUnit"] = .string(distance.unit)
            }
            if let volume = workout.volumeKg { object["volumeKg"] = .number(volume) }
        }
        return object
    }
}
