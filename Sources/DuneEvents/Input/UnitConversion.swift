/// Converts input units to each sample kind's canonical unit (docs/input-format.md).
///
/// A conversion by a power of ten (`g`, `%`, `km`) is exact in decimal: it
/// moves the decimal point of the number as written, so 0.07 as a fraction
/// of 1 is 7 percent, not the 7.000000000000001 that `0.07 * 100` gives.
package enum UnitConversion {
    /// The canonical value of `value` written in `unit` for `kind`, or `nil`
    /// when the unit is not accepted for that kind.
    package static func canonicalValue(_ value: Double, unit: String, kind: SampleKind) -> Double? {
        switch (kind, unit) {
        case (.hrv, "ms"): value
        case (.restingHeartRate, "count/min"), (.restingHeartRate, "bpm"): value
        case (.stepCount, "count"): value
        case (.bodyMass, "kg"): value
        case (.bodyMass, "g"): shiftingDecimalPoint(of: value, by: -3)
        case (.bodyMass, "lb"): value * 0.45359237
        case (.bodyFatPercentage, "%"): shiftingDecimalPoint(of: value, by: 2)
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
        case "km": shiftingDecimalPoint(of: value, by: 3)
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

    // MARK: - Powers of ten

    private static let powersOfTen: [Double] = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000]

    /// `value × 10^exponent` (|exponent| ≤ 6) computed in decimal: the double
    /// nearest to the shortest decimal that reads back as `value`, with its
    /// point moved. `0.07` by 2 is exactly `7`; `0.215` by 2 is `21.5`.
    package static func shiftingDecimalPoint(of value: Double, by exponent: Int) -> Double {
        let factor = powersOfTen[Int(exponent.magnitude)]
        // An integer times a power of ten stays exact below 2^53, and IEEE
        // division rounds the exact quotient: for integers both already are
        // the decimal answer, with no text.
        if value.magnitude * factor < 9_007_199_254_740_992, value == value.rounded(.towardZero) {
            return exponent >= 0 ? value * factor : value / factor
        }
        guard value.isFinite else { return exponent >= 0 ? value * factor : value / factor }
        // `description` is the shortest decimal that reads back as `value`
        // ("0.07", "7e-05", "1.5e+20"); moving its exponent moves its point.
        let text = value.description
        var mantissa = Substring(text)
        var power = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            power = Int(text[text.index(after: e)...]) ?? 0
        }
        return Double("\(mantissa)e\(power + exponent)") ?? (exponent >= 0 ? value * factor : value / factor)
    }
}
