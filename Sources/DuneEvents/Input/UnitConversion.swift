/// Converts input units to each sample kind's canonical unit (docs/input-format.md).
package enum UnitConversion {
    /// The canonical value of `value` written in `unit` for `kind`, or `nil`
    /// when the unit is not accepted for that kind.
    package static func canonicalValue(_ value: Double, unit: String, kind: SampleKind) -> Double? {
        switch (kind, unit) {
        case (.hrv, "ms"): value
        case (.restingHeartRate, "count/min"), (.restingHeartRate, "bpm"): value
        case (.stepCount, "count"): value
        case (.bodyMass, "kg"): value
        case (.bodyMass, "g"): value / 1000
        case (.bodyMass, "lb"): value * 0.45359237
        case (.bodyFatPercentage, "%"): value * 100
        case (.bodyFatPercentage, "percent"): value
        case (.bodyMassIndex, "count"), (.bodyMassIndex, "kg/m2"): value
        default: nil
        }
    }

    /// The units accepted for `kind`, for error messages.
    package static func acceptedUnits(for kind: SampleKind) -> [String] {
        switch kind {
        case .hrv: ["ms"]
        case .restingHeartRate: ["count/min", "bpm"]
        case .stepCount: ["count"]
        case .bodyMass: ["kg", "g", "lb"]
        case .bodyFatPercentage: ["% (a fraction 0–1)", "percent (0–100)"]
        case .bodyMassIndex: ["count", "kg/m2"]
        case .sleep, .workout: []
        }
    }

    /// Kilocalories for `value` written in `unit` (`kcal`, `Cal`, `kJ`), or `nil`.
    package static func kilocalories(_ value: Double, unit: String) -> Double? {
        switch unit {
        case "kcal", "Cal": value
        case "kJ": value / 4.184
        default: nil
        }
    }

    /// Metres for `value` written in `unit` (`m`, `km`, `mi`), or `nil`.
    package static func meters(_ value: Double, unit: String) -> Double? {
        switch unit {
        case "m": value
        case "km": value * 1000
        case "mi": value * 1609.344
        default: nil
        }
    }

    /// The plausible range of canonical values for a quantity kind (docs/input-format.md).
    package static func plausibleRange(for kind: SampleKind) -> ClosedRange<Double>? {
        switch kind {
        case .hrv: 1...500
        case .restingHeartRate: 20...250
        case .stepCount: 0...100_000
        case .bodyMass: 1...700
        case .bodyFatPercentage: 1...80
        case .bodyMassIndex: 5...200
        case .sleep, .workout: nil
        }
    }
}
