/// A 128-bit digest of bytes, stable across processes and machines.
///
/// Used to remember what content an idempotency key or a sample id was
/// ingested with, without keeping the content itself in memory. Two
/// independent 64-bit lanes (FNV-1a-style multiply-xor with different seeds
/// and primes, each finished with MurmurHash3's `fmix64`) — not a
/// cryptographic hash: an accidental collision (about 2⁻¹²⁸ per pair) would
/// make a changed line look identical and be acknowledged as
/// `alreadyAppended`; adversarial collisions are out of scope.
public struct ContentDigest: Sendable, Hashable, CustomStringConvertible {
    public let high: UInt64
    public let low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The digest of `bytes`.
    public init(_ bytes: some Sequence<UInt8>) {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325
        var b: UInt64 = 0x6c62_272e_07bb_0142
        var length: UInt64 = 0
        for byte in bytes {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            b = (b ^ UInt64(byte)) &* 0x9e37_79b9_7f4a_7c15
            b ^= b >> 29
            length &+= 1
        }
        self.high = ContentDigest.fmix(a ^ length)
        self.low = ContentDigest.fmix(b &+ length &* 0xff51_afd7_ed55_8ccd)
    }

    /// The digest of a string's UTF-8 bytes.
    public init(string: String) {
        self.init(string.utf8)
    }

    private static func fmix(_ value: UInt64) -> UInt64 {
        var k = value
        k ^= k >> 33
        k &*= 0xff51_afd7_ed55_8ccd
        k ^= k >> 33
        k &*= 0xc4ce_b9fe_1a85_ec53
        k ^= k >> 33
        return k
    }

    /// 32 lowercase hex digits.
    public var description: String {
        hex(high) + hex(low)
    }

    private func hex(_ value: UInt64) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
