/// Which statistic an HRV sample's value is.
///
/// HealthKit has one HRV type, but the apps that write into it do not agree on
/// what they measure: Apple Watch writes SDNN, while Oura and WHOOP write
/// RMSSD, which is typically well above SDNN for the same person. One baseline
/// over both would be wrong, so every hrv ``Sample`` carries its measure.
///
/// An input line (or a ``SampleInput``) may name the measure. When it does
/// not, ``init(source:)`` derives it from the sample's source name:
///
/// | source name contains (ASCII case-insensitively) | measure |
/// |---|---|
/// | `oura` | ``rmssd`` |
/// | `whoop` | ``rmssd`` |
/// | anything else | ``sdnn`` |
///
/// ```swift
/// HRVMeasure(source: "Oura Ring")    // .rmssd
/// HRVMeasure(source: "WHOOP 4.0")    // .rmssd
/// HRVMeasure(source: "Apple Watch")  // .sdnn
/// ```
public enum HRVMeasure: String, Sendable, Hashable, CaseIterable {
    /// Standard deviation of the NN intervals (Apple Watch), in ms.
    case sdnn
    /// Root mean square of successive differences (Oura, WHOOP), in ms.
    case rmssd

    /// The measure a sample from `source` has when nothing names it: ``rmssd``
    /// when the name contains `oura` or `whoop` in any ASCII letter case,
    /// otherwise ``sdnn``.
    ///
    /// The comparison folds only the ASCII letters `A`–`Z`, so the result is
    /// the same on every platform and in every locale.
    ///
    /// - Parameter source: The sample's source name, as stored.
    /// - Complexity: O(*n*) in the UTF-8 length of `source`.
    public init(source: String) {
        self = ByteView.with(source) { Self(sourceBytes: $0) }
    }

    /// The rule of ``init(source:)`` over the source name's UTF-8 bytes.
    package init(sourceBytes bytes: ByteView) {
        self = Self.containsFolded(bytes, "oura") || Self.containsFolded(bytes, "whoop") ? .rmssd : .sdnn
    }

    /// Whether `bytes` contain `needle` (lowercase ASCII) with ASCII letters compared case-insensitively.
    private static func containsFolded(_ bytes: ByteView, _ needle: StaticString) -> Bool {
        let count = needle.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        let pattern = ByteView(needle)
        var start = 0
        while start + count <= bytes.count {
            var offset = 0
            while offset < count, lowered(bytes[start + offset]) == pattern[offset] { offset += 1 }
            if offset == count { return true }
            start += 1
        }
        return false
    }

    @inline(__always)
    private static func lowered(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
