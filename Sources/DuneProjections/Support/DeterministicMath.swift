/// `ln` and `exp` written in plain Swift arithmetic.
///
/// Read models must be byte-identical on every machine. The C library's `log`
/// and `exp` may differ in the last bit between platforms (glibc, Apple's libm),
/// and a last-bit difference can flip a value that sits on a rounding boundary.
/// These versions use only IEEE-754 `+ − × ÷`, which every platform evaluates
/// identically, so every machine computes the same bits. They are accurate to a
/// few units in the last place, far below the 3-decimal output precision.
package enum DeterministicMath {
    /// ln 2, the `Double` nearest to it.
    static let ln2 = 0.693_147_180_559_945_3
    /// ln 2 split Cody–Waite style (as in fdlibm): `ln2High` has its low 32 bits
    /// zero, so `k · ln2High` is exact for every exponent k a `Double` has.
    static let ln2High = 6.931_471_803_691_238_164_90e-01
    static let ln2Low = 1.908_214_929_270_587_700_02e-10

    /// The natural logarithm of `x`.
    ///
    /// `x = m · 2^e` with `m` in [√½, √2); `ln m = 2·atanh(s)` with
    /// `s = (m − 1)/(m + 1)`, `|s| ≤ 0.172`, summed as a fixed 15-term series
    /// (the first omitted term is below 10⁻²³ of the result).
    /// - Returns: `-infinity` for 0, `nan` for negative or `nan` input, `x` for `+infinity`.
    package static func log(_ x: Double) -> Double {
        guard x > 0 else { return x == 0 ? -.infinity : .nan }
        guard x.isFinite else { return x }
        var exponent = Double(x.exponent)
        var mantissa = x.significand  // in [1, 2)
        if mantissa > 1.414_213_562_373_095_1 {
            mantissa /= 2
            exponent += 1
        }
        let s = (mantissa - 1) / (mantissa + 1)
        let s2 = s * s
        // Horner form of 1 + s²/3 + s⁴/5 + … + s²⁸/29.
        var series = 1.0 / 29.0
        var denominator = 27.0
        while denominator >= 1 {
            series = series * s2 + 1 / denominator
            denominator -= 2
        }
        return exponent * ln2High + (exponent * ln2Low + 2 * s * series)
    }

    /// e raised to `x`.
    ///
    /// `x = k·ln 2 + r` with `|r| ≤ ½ ln 2`; `e^r` as a fixed 22-term Taylor
    /// series, scaled by `2^k` exactly.
    static func exp(_ x: Double) -> Double {
        guard x.isFinite else { return x.isNaN ? x : (x > 0 ? x : 0) }
        if x > 709.8 { return .infinity }
        if x < -745.2 { return 0 }
        let k = (x / ln2).rounded()
        let r = (x - k * ln2High) - k * ln2Low
        // Horner form of 1 + r(1 + r/2(1 + r/3(… (1 + r/22)))).
        var series = 1.0
        var n = 22.0
        while n >= 1 {
            series = 1 + r / n * series
            n -= 1
        }
        let power = Int(k)
        // Scale in two steps so that 2^power never overflows on its own.
        let half = power / 2
        return series * Double(sign: .plus, exponent: half, significand: 1)
            * Double(sign: .plus, exponent: power - half, significand: 1)
    }
}
