/// A UUID string held as 128 bits plus its letter case — an exact, allocation-free
/// stand-in for the 36-character text.
///
/// Only the canonical text form packs: 8-4-4-4-12 hex digits with dashes, the
/// letters either all uppercase or all lowercase (HealthKit writes uppercase,
/// UUIDv7 event ids are lowercase). Anything else — mixed case, braces, other
/// lengths, a non-UUID id such as `hrv-1` — does not pack and is kept as a
/// `String` by the caller. Packing is a pure function of the text, so two ids
/// are equal exactly when their packed forms are equal, and ``text`` gives
/// back the same bytes.
package struct PackedUUID: Sendable, Hashable {
    package var high: UInt64
    package var low: UInt64
    /// Whether hex letters are written uppercase (also true for an id without letters).
    package var uppercase: Bool

    package init(high: UInt64, low: UInt64, uppercase: Bool) {
        self.high = high
        self.low = low
        self.uppercase = uppercase
    }

    /// Packs the 36 bytes at `bytes`, or `nil` when they are not a canonical UUID.
    ///
    /// Eight characters at a time (SWAR): four 8-byte words cover the 32 hex
    /// digits, each checked and converted with a handful of word operations.
    @inline(__always)
    package init?(utf8 bytes: ByteView) {
        guard bytes.count == 36, bytes[8] == UInt8(ascii: "-"), bytes[13] == UInt8(ascii: "-"),
              bytes[18] == UInt8(ascii: "-"), bytes[23] == UInt8(ascii: "-")
        else { return nil }
        @inline(__always) func word(_ offset: Int) -> UInt64 { bytes.loadLittleEndian(at: offset, as: UInt64.self) }
        @inline(__always) func half(_ offset: Int) -> UInt64 { UInt64(bytes.loadLittleEndian(at: offset, as: UInt32.self)) }
        var cases: UInt64 = 0
        guard let a = Self.hexWord(word(0), &cases), let b = Self.hexWord(half(9) | half(14) << 32, &cases),
              let c = Self.hexWord(half(19) | half(24) << 32, &cases), let d = Self.hexWord(word(28), &cases),
              cases & 0x03 != 0x03
        else { return nil }
        self.init(high: a << 32 | b, low: c << 32 | d, uppercase: cases & 0x02 == 0)
    }

    /// The value of 8 hex digits (the first in the lowest byte), or `nil` when
    /// one is not a hex digit. Sets bit 0 of `cases` for an uppercase letter,
    /// bit 1 for a lowercase one.
    @inline(__always)
    static func hexWord(_ x: UInt64, _ cases: inout UInt64) -> UInt64? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        guard x & high == 0 else { return nil }
        let folded = x | 0x2020_2020_2020_2020  // 'A'…'F' → 'a'…'f'; digits keep their 0x20 bit
        // A byte's high bit says `y ≥ lo` (in `y + 0x80 − lo`) or `y > hi` (in `y + 0x7F − hi`); no carries, as y < 0x80.
        @inline(__always) func within(_ y: UInt64, _ lo: UInt64, _ hi: UInt64) -> UInt64 {
            (y &+ (0x80 - lo) &* ones) & ~(y &+ (0x7F - hi) &* ones) & high
        }
        let digits = within(x, 0x30, 0x39)
        let letters = within(folded, 0x61, 0x66)
        guard digits | letters == high else { return nil }
        let lowerBits = (x & 0x2020_2020_2020_2020) << 2  // a letter's 0x20 bit moved to 0x80
        if letters & ~lowerBits != 0 { cases |= 1 }
        if letters & lowerBits != 0 { cases |= 2 }
        var value = (x & 0x0F0F_0F0F_0F0F_0F0F) &+ (letters >> 7) &* 9
        value = (value & 0x00FF_00FF_00FF_00FF) << 4 | (value >> 8) & 0x00FF_00FF_00FF_00FF
        value = (value & 0x0000_FFFF_0000_FFFF) << 8 | (value >> 16) & 0x0000_FFFF_0000_FFFF
        return (value & 0xFFFF_FFFF) << 16 | value >> 32
    }

    /// Packs `text`, or `nil` when it is not a canonical UUID.
    package init?(_ text: String) {
        guard let packed = ByteView.with(text, { PackedUUID(utf8: $0) }) else { return nil }
        self = packed
    }

    /// Writes the 36 characters into `output`.
    package func write(into output: inout [UInt8]) {
        MutableByteView.appending(36, to: &output) { write(into: $0) }
    }

    /// Writes the 36 characters into the first 36 bytes of `buffer`.
    @inline(__always)
    package func write(into buffer: MutableByteView) {
        let letterBase: UInt8 = uppercase ? UInt8(ascii: "A") &- 10 : UInt8(ascii: "a") &- 10
        var position = 0
        for digit in 0..<32 {
            if digit == 8 || digit == 12 || digit == 16 || digit == 20 {
                buffer[position] = UInt8(ascii: "-")
                position += 1
            }
            let word = digit < 16 ? high : low
            let nibble = UInt8(truncatingIfNeeded: word >> UInt64(60 - 4 * (digit & 15))) & 0xF
            buffer[position] = nibble < 10 ? nibble &+ UInt8(ascii: "0") : nibble &+ letterBase
            position += 1
        }
    }

    /// `ContentDigest(string: text)`, without writing the text out: its 36
    /// bytes are built as five little-endian words (the last one zero-padded,
    /// as the digest pads it) with a few word operations each.
    package var textDigest: ContentDigest {
        let letterOffset: UInt64 = uppercase ? 7 : 39  // 'A' or 'a', minus ('0' + 10)
        let dash: UInt64 = 0x2D
        let h1 = Self.hexText(UInt32(truncatingIfNeeded: high >> 32), letterOffset)
        let h2 = Self.hexText(UInt32(truncatingIfNeeded: high), letterOffset)
        let l1 = Self.hexText(UInt32(truncatingIfNeeded: low >> 32), letterOffset)
        let l2 = Self.hexText(UInt32(truncatingIfNeeded: low), letterOffset)
        // Digits d0…d31 in the text 8-4-4-4-12: d0-7 '-' d8-11 '-' d12-15 '-' d16-19 '-' d20-31.
        let w1 = dash | (h2 & 0xFFFF_FFFF) << 8 | dash << 40 | (h2 >> 32 & 0xFFFF) << 48
        let w2 = h2 >> 48 | dash << 16 | (l1 & 0xFFFF_FFFF) << 24 | dash << 56
        let w3 = l1 >> 32 | (l2 & 0xFFFF_FFFF) << 32
        return ContentDigest(words: h1, w1, w2, w3, l2 >> 32, length: 36)
    }

    /// The 8 hex digits of `value` as ASCII, the first in the lowest byte.
    @inline(__always)
    private static func hexText(_ value: UInt32, _ letterOffset: UInt64) -> UInt64 {
        var x = UInt64(value)
        x = (x | x << 16) & 0x0000_FFFF_0000_FFFF
        x = (x | x << 8) & 0x00FF_00FF_00FF_00FF
        x = (x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F  // nibble k from the lowest in byte k
        x = x.byteSwapped  // the first digit in the lowest byte
        let letters = ((x &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101  // 1 where the nibble is 10 or more
        return x &+ 0x3030_3030_3030_3030 &+ letters &* letterOffset
    }

    /// The text this was packed from.
    package var text: String {
        MutableByteView.string(count: 36) { write(into: $0) }
    }

    /// A well-mixed 64-bit hash, the same in every process.
    @inline(__always)
    package var hashValue64: UInt64 {
        var k = high ^ (low &* 0x9E37_79B9_7F4A_7C15) ^ (uppercase ? 0x5851_F42D_4C95_7F2D : 0)
        k ^= k >> 33
        k &*= 0xFF51_AFD7_ED55_8CCD
        k ^= k >> 33
        k &*= 0xC4CE_B9FE_1A85_EC53
        k ^= k >> 33
        return k
    }
}
