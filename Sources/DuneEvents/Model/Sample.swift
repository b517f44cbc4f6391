/// One HealthKit sample, validated and converted to its canonical unit.
///
/// Samples are keyed by ``id`` (HealthKit's sample UUID): a later sample with
/// the same id is a correction that replaces the earlier one everywhere.
public struct Sample: Sendable, Hashable {
    /// HealthKit's sample UUID (or a stable id derived from an export record).
    public var id: String
    /// What was measured.
    public var kind: SampleKind
    /// When the measurement interval starts.
    public var start: Timestamp
    /// When it ends; never before ``start``.
    public var end: Timestamp
    /// The app or device that wrote the sample ("Apple Watch", "AutoSleep").
    public var source: String
    /// The value: a quantity, a sleep stage or a workout, as ``kind`` requires.
    public var reading: Reading
    /// Which HRV statistic the value is: set for every ``SampleKind/hrv``
    /// sample, `nil` for every other kind.
    ///
    /// Given explicitly by the input, or derived from ``source`` by
    /// ``HRVMeasure/init(source:)`` when the input does not name it.
    public var hrvMeasure: HRVMeasure?

    /// What the sample measured.
    public enum Reading: Sendable, Hashable {
        /// A number in the kind's canonical unit (see ``SampleKind/canonicalUnit``).
        case quantity(Quantity)
        /// A sleep stage over `start…end`.
        case sleep(SleepStage)
        /// A workout over `start…end`.
        case workout(WorkoutSummary)
    }

    /// Creates a sample from values already validated and in canonical units;
    /// what an app appends is a ``SampleInput``, which the store validates.
    ///
    /// - Parameter hrvMeasure: For an hrv sample, the measure its value is;
    ///   `nil` derives it from `source` (``HRVMeasure/init(source:)``). Ignored
    ///   for every other kind, whose ``hrvMeasure`` is always `nil`.
    public init(id: String, kind: SampleKind, start: Timestamp, end: Timestamp, source: String, reading: Reading,
                hrvMeasure: HRVMeasure? = nil) {
        self.id = id
        self.kind = kind
        self.start = start
        self.end = end
        self.source = source
        self.reading = reading
        self.hrvMeasure = kind == .hrv ? (hrvMeasure ?? HRVMeasure(source: source)) : nil
    }

    /// The day the sample counts for: the local date of `start`, or for sleep
    /// the local date of `end + 6 h` (a night belongs to the morning it ends).
    public var day: DayKey {
        kind == .sleep ? end.adding(seconds: 6 * 3600).localDate : start.localDate
    }

    /// `end − start` in seconds, from the instants (DST-safe).
    public var durationSeconds: Double { end.seconds(since: start) }

    /// The canonical quantity, or `nil` for sleep and workouts.
    public var quantity: Quantity? {
        if case .quantity(let quantity) = reading { return quantity }
        return nil
    }

    /// The sleep stage, or `nil` for other kinds.
    public var sleepStage: SleepStage? {
        if case .sleep(let stage) = reading { return stage }
        return nil
    }

    /// The workout details, or `nil` for other kinds.
    public var workout: WorkoutSummary? {
        if case .workout(let workout) = reading { return workout }
        return nil
    }
}

/// A measured number in canonical units, with what the input said.
public struct Quantity: Sendable, Hashable {
    /// The value in the kind's canonical unit.
    public var value: Double
    /// The value as written in the input.
    public var inputValue: Double
    /// The unit as written in the input.
    public var inputUnit: String

    /// Creates a quantity from its canonical value and what the input said.
    public init(value: Double, inputValue: Double, inputUnit: String) {
        self.value = value
        self.inputValue = inputValue
        self.inputUnit = inputUnit
    }
}

/// A workout in canonical units (kcal, metres, kg), with what the input said.
public struct WorkoutSummary: Sendable, Hashable {
    /// HealthKit's activity type in lower camel case ("running", "traditionalStrengthTraining").
    public var activityType: String
    /// Active energy in kcal, when given.
    public var energyKcal: Double?
    /// Distance in metres, when given.
    public var distanceMeters: Double?
    /// Strength volume (sets × reps × load) in kg.
    public var volumeKg: Double?
    /// Energy and distance as written in the input, when given.
    public var inputEnergy: Measurement?
    /// Distance as written in the input, when given.
    public var inputDistance: Measurement?

    /// A number with the unit it was written in.
    public struct Measurement: Sendable, Hashable {
        /// The number as written.
        public var value: Double
        /// The unit as written (`kJ`, `mi`, …).
        public var unit: String

        /// Creates a measurement of `value` in `unit`.
        public init(value: Double, unit: String) {
            self.value = value
            self.unit = unit
        }
    }

    /// Creates a workout summary in canonical units, with what the input said.
    public init(activityType: String, energyKcal: Double? = nil, distanceMeters: Double? = nil, volumeKg: Double? = nil,
                inputEnergy: Measurement? = nil, inputDistance: Measurement? = nil) {
        self.activityType = activityType
        self.energyKcal = energyKcal
        self.distanceMeters = distanceMeters
        self.volumeKg = volumeKg
        self.inputEnergy = inputEnergy
        self.inputDistance = inputDistance
    }
}
