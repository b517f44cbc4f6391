/// How read-model numbers are rounded for output (docs/read-models.md).
///
/// Values are kept unrounded in the read-model types (statuses and directions
/// are decided on them); rounding happens only when a model is written as JSON.
/// Rounding is half away from zero on the binary value scaled by 10ⁿ, e.g.
/// `Rounding.thousandths(2.0005)` rounds `2000.4999…` and gives `2.0`.
package enum Rounding {
    /// `value` rounded to 3 decimals: every number in the read-model files.
    package static func thousandths(_ value: Double) -> Double {
        rounded(value, scale: 1000)
    }

    /// `value` rounded to 1 decimal: the scores `score`, `hrvScore`, `rhrScore`, `sleepScore`.
    package static func tenths(_ value: Double) -> Double {
        rounded(value, scale: 10)
    }

    private static func rounded(_ value: Double, scale: Double) -> Double {
        guard value.isFinite else { return value }
        let result = (value * scale).rounded(.toNearestOrAwayFromZero) / scale
        return result == 0 ? 0 : result  // never -0
    }
}
