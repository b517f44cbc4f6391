import DuneEvents

/// Transcendental functions computed from IEEE `+ − × ÷` only.
///
/// The platform's `exp` may differ in the last bit between glibc and Apple's
/// libm; a generated value rounded near a decimal boundary would then print
/// differently. These versions give the same bits everywhere.
enum SyntheticMath {
    /// e^x, accurate to about 1e-15 relative for |x| < 700.
    static func exp(_ x: Double) -> Double {
        // x = k·ln2 + r with |r| ≤ ln2/2, e^x = 2^k · e^r.
        let ln2High = 0.693_147_180_369_123_816_49
        let ln2Low = 1.908_214_929_270_587_7e-10
        let k = (x * 1.442_695_040_888_963_4).rounded()
        let r = (x - k * ln2High) - k * ln2Low
        var term = 1.0
        var sum = 1.0
        for n in 1...16 {
            term = term * r / Double(n)
            sum += term
        }
        return Double(sign: .plus, exponent: Int(k), significand: sum)
    }

    /// `value` limited to `low...high`.
    @inline(__always)
    static func clamp(_ value: Double, _ low: Double, _ high: Double) -> Double {
        min(max(value, low), high)
    }
}
