/// A HealthKit sample as an app hands it to `DuneStore`: values in the
/// units HealthKit gave, before validation and unit conversion.
///
/// The store checks it by the same rules as an `ingest` input line (plausible
/// ranges, timestamps inside 1900–2100, durations, ids) and converts the value
/// to the kind's canonical unit, keeping what was given. The reading decides
/// the kind, and each kind takes its own unit type, so a unit the kind does
/// not accept cannot be written. Two inputs with equal values are the same
/// content, however their timestamps were spelled, and the same content as
/// the equal `ingest` line: appending one that is already stored changes
/// nothing (the store answers `alreadyAppended`).
///
/// Other values under the same ``id`` are a correction. Values equal to any
/// earlier version of the sample are `alreadyAppended` (an old delivery never
/// undoes a correction) — except when the append carries an `eventID` the
/// log has not seen (`StoreInput.sample(_:eventID:)`) and the values are not
/// the sample's current ones: that is a correction back to the earlier
/// value (48 → 50 → 48), as docs/input-format.md says.
///
/// ```swift
/// let hrv = SampleInput(id: sample.uuid.uuidString, start: Timestamp(sample.startDate, in: .current),
///                       end: Timestamp(sample.endDate, in: .current), source: "Apple Watch",
///                       reading: .hrv(sample.quantity.doubleValue(for: .secondUnit(with: .milli)), .milliseconds))
/// let ring = SampleInput(id: id, start: start, end: end, source: "My Ring",
///                        reading: .hrv(62.0, .milliseconds), hrvMeasure: .rmssd)  // the source name does not say
/// ```
public struct SampleInput: Sendable, Hashable {
    /// HealthKit's sample UUID: a later input with the same id corrects this one.
    public var id: String
    /// When the measurement interval starts.
    public var start: Timestamp
    /// When it ends; an end before the start is rejected.
    public var end: Timestamp
    /// The app or device that wrote the sample ("Apple Watch"), 1–256 bytes.
    public var source: String
    /// The value, which also says what was measured.
    public var reading: Reading
    /// For an hrv reading, which statistic the value is, when the app knows
    /// it; `nil` derives it from ``source`` (``HRVMeasure/init(source:)``:
    /// a name containing `oura` or `whoop` is RMSSD, any other SDNN). Set on
    /// any other reading, the input is rejected (``Rejection/Code/measureNotHRV``).
    public var hrvMeasure: HRVMeasure?

    /// What the sample measured, in the unit it was measured in.
    public enum Reading: Sendable, Hashable {
        /// Heart rate variability; which statistic it is comes from
        /// ``SampleInput/hrvMeasure``, or from the source name.
        case hrv(Double, HRVUnit)
        /// Resting heart rate.
        case restingHeartRate(Double, HeartRateUnit)
        /// Steps in the sample's interval.
        case stepCount(Double, StepCountUnit)
        /// Body mass.
        case bodyMass(Double, MassUnit)
        /// Body fat; mind ``BodyFatUnit/fraction``, HealthKit's fraction 0–1.
        case bodyFatPercentage(Double, BodyFatUnit)
        /// Body mass index.
        case bodyMassIndex(Double, BodyMassIndexUnit)
        /// A sleep stage over `start…end`.
        case sleep(SleepStage)
        /// A workout over `start…end`.
        case workout(WorkoutInput)

        /// The kind of sample this reading is.
        public var kind: SampleKind {
            switch self {
            case .hrv: .hrv
            case .restingHeartRate: .restingHeartRate
            case .stepCount: .stepCount
            case .bodyMass: .bodyMass
            case .bodyFatPercentage: .bodyFatPercentage
            case .bodyMassIndex: .bodyMassIndex
            case .sleep: .sleep
            case .workout: .workout
            }
        }

        /// The number and its unit's input name, for the quantity kinds.
        var quantity: InputMeasure? {
            switch self {
            case .hrv(let value, let unit): InputMeasure(value: value, unit: unit.rawValue)
            case .restingHeartRate(let value, let unit): InputMeasure(value: value, unit: unit.rawValue)
            case .stepCount(let value, let unit): InputMeasure(value: value, unit: unit.rawValue)
            case .bodyMass(let value, let unit): InputMeasure(value: value, unit: unit.rawValue)
            case .bodyFatPercentage(let value, let unit): InputMeasure(value: value, unit: unit.rawValue)
            case .bodyMassIndex(let value, let unit): InputMeasure(value: value, unit: unit.rawValue)
            case .sleep, .workout: nil
            }
        }
    }

    /// Creates a sample input; nothing is checked until it is appended.
    /// - Parameters:
    ///   - id: HealthKit's sample UUID.
    ///   - start: When the interval starts.
    ///   - end: When it ends.
    ///   - source: The app or device that wrote the sample.
    ///   - reading: The value in the unit HealthKit gave.
    ///   - hrvMeasure: For an hrv reading, the statistic it is; `nil` takes it from `source`.
    public init(id: String, start: Timestamp, end: Timestamp, source: String, reading: Reading, hrvMeasure: HRVMeasure? = nil) {
        self.id = id
        self.start = start
        self.end = end
        self.source = source
        self.reading = reading
        self.hrvMeasure = hrvMeasure
    }

    /// What was measured: the reading's kind.
    public var kind: SampleKind { reading.kind }
}

/// A workout as HealthKit reports it: totals in the units it gave.
///
/// ```swift
/// WorkoutInput(activityType: "running",
///              energy: workout.totalEnergyBurned?.doubleValue(for: .kilocalorie()), energyUnit: .kilocalories,
///              distance: workout.totalDistance?.doubleValue(for: .meter()), distanceUnit: .meters)
/// ```
public struct WorkoutInput: Sendable, Hashable {
    /// HealthKit's activity type in lower camel case (`running`, `traditionalStrengthTraining`), 1–256 bytes.
    public var activityType: String
    /// Active energy in ``energyUnit``, when known; 0–50,000 kcal.
    public var energy: Double?
    /// The unit of ``energy``.
    public var energyUnit: EnergyUnit
    /// Distance in ``distanceUnit``, when known; 0–2,000 km.
    public var distance: Double?
    /// The unit of ``distance``.
    public var distanceUnit: DistanceUnit
    /// Strength volume (sets × reps × load) in kg, when known; 0–500,000 kg.
    public var volumeKg: Double?

    /// Creates a workout input; nothing is checked until it is appended.
    /// - Parameters:
    ///   - activityType: HealthKit's activity type in lower camel case.
    ///   - energy: Active energy, if known.
    ///   - energyUnit: The unit of `energy`.
    ///   - distance: Distance, if known.
    ///   - distanceUnit: The unit of `distance`.
    ///   - volumeKg: Strength volume in kg, if known.
    public init(activityType: String, energy: Double? = nil, energyUnit: EnergyUnit = .kilocalories, distance: Double? = nil,
                distanceUnit: DistanceUnit = .meters, volumeKg: Double? = nil) {
        self.activityType = activityType
        self.energy = energy
        self.energyUnit = energyUnit
        self.distance = distance
        self.distanceUnit = distanceUnit
        self.volumeKg = volumeKg
    }
}
