/// A 128-bit digest of bytes, stable across processes and machines.
///
/// Used to remember what content an idempotency key or a sample id was
/// ingested with, without keeping the content itself in memory. Two
/// independent 64-bit lanes fed eight bytes at a time (multiply by an odd
/// constant, then xor-shift, with different constants per lane; the last
/// partial word is zero-padded and the length folded in), each finished with
/// MurmurHash3's `fmix64` — not a cryptographic hash: an accidental collision
/// (about 2⁻¹²⁸ per pair) would make a changed line look identical and be
/// acknowledged as `alreadyAppended`; adversarial collisions are out of scope.
///
/// Digests are kept in memory and in the `<log>.checkpoint` file, which
/// records the digest version it was written with (see `LogCheckpoint`).
package struct ContentDigest: Sendable, Hashable, CustomStringConvertible {
    package let high: UInt64
    package let low: UInt64

    package init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The digest of `bytes` (in place when their storage is contiguous).
    package init(_ bytes: some Collection<UInt8>) {
        self = ByteView.with(contentsOf: bytes) { ContentDigest($0) }
    }

    /// The digest of a string's UTF-8 bytes.
    package init(string: String) {
        self = ByteView.with(string) { ContentDigest($0) }
    }

    /// The digest of the bytes of `words` in memory order (little-endian on
    /// every platform this package supports): the same digest as those bytes
    /// passed one by one.
    package init(words: [UInt64]) {
        var lanes = Lanes()
        for word in words { lanes.mix(word) }
        self.init(lanes, length: words.count * 8)
    }

    /// The digest of `length` bytes (33…40) given as five little-endian
    /// words, the last one holding the bytes after the 32nd, zero-padded: the
    /// same digest as those bytes passed one by one.
    @inline(__always)
    package init(words w0: UInt64, _ w1: UInt64, _ w2: UInt64, _ w3: UInt64, _ w4: UInt64, length: Int) {
        var lanes = Lanes()
        lanes.mix(w0)
        lanes.mix(w1)
        lanes.mix(w2)
        lanes.mix(w3)
        lanes.mix(w4)
        self.init(lanes, length: length)
    }

    /// The digest of the bytes in view.
    ///
    /// - Complexity: O(*n*), eight bytes per step.
    @inline(__always)
    package init(_ bytes: ByteView) {
        var lanes = Lanes()
        let count = bytes.count
        var index = 0
        while index + 8 <= count {
            lanes.mix(bytes.loadLittleEndian(at: index, as: UInt64.self))
            index += 8
        }
        if index < count { lanes.mix(bytes.loadLittleEndianZeroPadded(at: index)) }
        self.init(lanes, length: count)
    }

    /// The two lanes, fed one little-endian word at a time (the last partial word zero-padded).
    private struct Lanes {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325
        var b: UInt64 = 0x6c62_272e_07bb_0142

        @inline(__always)
        mutating func mix(_ word: UInt64) {
            a = (a ^ word) &* 0x9fb2_1c65_1e98_df25
            a ^= a >> 29
            b = (b ^ (word << 31 | word >> 33)) &* 0x9e37_79b9_7f4a_7c15
            b ^= b >> 32
        }
    }

    /// The digest of `length` bytes that left `lanes` in this state.
    @inline(__always)
    private init(_ lanes: Lanes, length count: Int) {
        let length = UInt64(count)
        self.high = ContentDigest.fmix(lanes.a ^ length)
        self.low = ContentDigest.fmix(lanes.b &+ length &* 0xff51_afd7_ed55_8ccd)
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
    package var description: String {
        hex(high) + hex(low)
    }

    private func hex(_ value: UInt64) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
