// The units a typed sample can be given in, one type per kind, so that a
// reading cannot carry a unit its kind does not accept. Each raw value is the
// unit's name in an input line (docs/input-format.md); the store converts the
// value to the kind's canonical unit and keeps what was given, exactly as
// `ingest` does for the line.
//
// With HealthKit, ask the `HKQuantity` for the value in the unit you name:
//
//     .hrv(quantity.doubleValue(for: .secondUnit(with: .milli)), .milliseconds)
//     .bodyMass(quantity.doubleValue(for: .gramUnit(with: .kilo)), .kilograms)

/// A unit of heart rate variability.
public enum HRVUnit: String, Sendable, Hashable, CaseIterable {
    /// Milliseconds (`HKUnit.secondUnit(with: .milli)`); the canonical unit.
    case milliseconds = "ms"
}

/// A unit of heart rate.
public enum HeartRateUnit: String, Sendable, Hashable, CaseIterable {
    /// Counts per minute (`HKUnit.count().unitDivided(by: .minute())`); the canonical unit.
    case countPerMinute = "count/min"
    /// Beats per minute: the same values as counts per minute.
    case beatsPerMinute = "bpm"
}

/// A unit of steps.
public enum StepCountUnit: String, Sendable, Hashable, CaseIterable {
    /// Steps counted (`HKUnit.count()`); the canonical unit.
    case count
}

/// A unit of body mass.
public enum MassUnit: String, Sendable, Hashable, CaseIterable {
    /// Kilograms (`HKUnit.gramUnit(with: .kilo)`); the canonical unit.
    case kilograms = "kg"
    /// Grams (`HKUnit.gram()`), ÷ 1000 to kilograms.
    case grams = "g"
    /// Pounds (`HKUnit.pound()`), × 0.45359237 to kilograms.
    case pounds = "lb"
}

/// A unit of body fat.
public enum BodyFatUnit: String, Sendable, Hashable, CaseIterable {
    /// HealthKit's `HKUnit.percent()`, whose values are fractions 0–1:
    /// 0.215 is 21.5 percent (× 100 to percent).
    case fraction = "%"
    /// Percent, 0–100; the canonical unit.
    case percent
}

/// A unit of body mass index.
public enum BodyMassIndexUnit: String, Sendable, Hashable, CaseIterable {
    /// HealthKit's `HKUnit.count()`, in which it reports BMI: the same values as kg/m².
    case count
    /// Kilograms per square metre; the canonical unit.
    case kilogramsPerSquareMeter = "kg/m2"
}

/// A unit of a workout's energy.
public enum EnergyUnit: String, Sendable, Hashable, CaseIterable {
    /// Kilocalories (`HKUnit.kilocalorie()`); the canonical unit.
    case kilocalories = "kcal"
    /// Large calories (`HKUnit.largeCalorie()`): the same values as kilocalories.
    case largeCalories = "Cal"
    /// Kilojoules (`HKUnit.jouleUnit(with: .kilo)`), ÷ 4.184 to kilocalories.
    case kilojoules = "kJ"
}

/// A unit of a workout's distance.
public enum DistanceUnit: String, Sendable, Hashable, CaseIterable {
    /// Metres (`HKUnit.meter()`); the canonical unit.
    case meters = "m"
    /// Kilometres (`HKUnit.meterUnit(with: .kilo)`), × 1000 to metres.
    case kilometers = "km"
    /// Miles (`HKUnit.mile()`), × 1609.344 to metres.
    case miles = "mi"
}
