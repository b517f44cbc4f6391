/// A ``Timestamp`` whose text is the canonical form, held as 14 bytes of numbers.
///
/// The canonical form is exactly what ``Timestamp/format(epochSeconds:nanoseconds:offsetSeconds:)``
/// writes — `YYYY-MM-DDTHH:MM:SS`, then `.mmm` when the fraction is not zero,
/// then `Z` for offset 0 or `±HH:MM` — so the text can be rebuilt byte for byte
/// from the numbers. Every text this type accepts is one that `Timestamp(parsing:)`
/// accepts with the same instant and offset; other texts (`+00:00`, a lowercase
/// `t`, six fraction digits, …) do not pack and are kept as a `Timestamp`.
package struct PackedTimestamp: Sendable, Hashable {
    package var epochSeconds: Int64
    package var nanoseconds: Int32
    package var offsetMinutes: Int16

    package init(epochSeconds: Int64, nanoseconds: Int32, offsetMinutes: Int16) {
        self.epochSeconds = epochSeconds
        self.nanoseconds = nanoseconds
        self.offsetMinutes = offsetMinutes
    }

    /// Parses canonical text; `nil` for anything else, valid or not.
    @inline(__always)
    package init?(canonical b: ByteView) {
        let count = b.count
        guard count == 20 || count == 24 || count == 25 || count == 29 else { return nil }
        @inline(__always) func byte(_ at: Int) -> UInt8 { b[at] }
        @inline(__always) func two(_ at: Int) -> Int? {
            let a = byte(at) &- UInt8(ascii: "0")
            let c = byte(at + 1) &- UInt8(ascii: "0")
            guard a < 10, c < 10 else { return nil }
            return Int(a) * 10 + Int(c)
        }
        // `YYYY-MM-DDTHH:MM:SS` as three little-endian words (bytes 0–7, 8–15, 12–19):
        // separators compared in place, the 14 digits checked and read together.
        let w0 = b.loadLittleEndian(at: 0, as: UInt64.self)
        let w1 = b.loadLittleEndian(at: 8, as: UInt64.self)
        let w2 = b.loadLittleEndian(at: 12, as: UInt64.self)
        // Bytes 4, 7 of w0 are '-'; bytes 2 ('T'), 5 (':') of w1; byte 4 (':', byte 16) of w2.
        guard w0 & 0xFF00_00FF_0000_0000 == 0x2D00_002D_0000_0000,
              w1 & 0x0000_FF00_00FF_0000 == 0x0000_3A00_0054_0000,
              w2 & 0x0000_00FF_0000_0000 == 0x0000_003A_0000_0000
        else { return nil }
        // Separators (and bytes read twice or after the seconds) become '0', so the
        // subtraction cannot borrow across them.
        let d0 = (w0 & 0x00FF_FF00_FFFF_FFFF | 0x3000_0030_0000_0000) &- 0x3030_3030_3030_3030
        let d1 = (w1 & 0xFFFF_00FF_FF00_FFFF | 0x0000_3000_0030_0000) &- 0x3030_3030_3030_3030
        let d2 = (w2 & 0x00FF_FF00_0000_0000 | 0x3000_0030_3030_3030) &- 0x3030_3030_3030_3030
        // Every byte a digit 0…9: no high nibble, and +6 stays below 16.
        let nibbles = d0 | d1 | d2
        guard nibbles & 0xF0F0_F0F0_F0F0_F0F0 == 0,
              (d0 &+ 0x0606_0606_0606_0606) & 0x1010_1010_1010_1010 == 0,
              (d1 &+ 0x0606_0606_0606_0606) & 0x1010_1010_1010_1010 == 0,
              (d2 &+ 0x0606_0606_0606_0606) & 0x1010_1010_1010_1010 == 0
        else { return nil }
        @inline(__always) func digit(_ word: UInt64, _ at: Int) -> Int { Int(truncatingIfNeeded: word >> UInt64(8 * at)) & 0xFF }
        let year = digit(d0, 0) * 1000 + digit(d0, 1) * 100 + digit(d0, 2) * 10 + digit(d0, 3)
        let month = digit(d0, 5) * 10 + digit(d0, 6)
        let day = digit(d1, 0) * 10 + digit(d1, 1)
        let hour = digit(d1, 3) * 10 + digit(d1, 4)
        let minute = digit(d1, 6) * 10 + digit(d1, 7)
        let second = digit(d2, 5) * 10 + digit(d2, 6)
        guard month >= 1, month <= 12, day >= 1, day <= DayKey.daysIn(year: year, month: month),
              hour < 24, minute < 60, second < 60
        else { return nil }
        var index = 19
        var millis = 0
        if byte(19) == UInt8(ascii: ".") {
            guard count == 24 || count == 29, let high = two(20) else { return nil }
            let last = byte(22) &- UInt8(ascii: "0")
            guard last < 10 else { return nil }
            millis = high * 10 + Int(last)
            guard millis != 0 else { return nil }  // ".000" is written without a fraction
            index = 23
        } else {
            guard count == 20 || count == 25 else { return nil }
        }
        var offset = 0
        switch byte(index) {
        case UInt8(ascii: "Z"):
            guard count == index + 1 else { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard count == index + 6, let offsetHours = two(index + 1), byte(index + 3) == UInt8(ascii: ":"),
                  let offsetMinutes = two(index + 4), offsetHours <= 23, offsetMinutes <= 59
            else { return nil }
            offset = offsetHours * 60 + offsetMinutes
            guard offset != 0 else { return nil }  // offset 0 is written as Z
            if byte(index) == UInt8(ascii: "-") { offset = -offset }
        default:
            return nil
        }
        let ordinal: Int
        if year >= Self.firstTabulatedYear, year < Self.firstTabulatedYear + Self.tabulatedYears {
            ordinal = Int(Self.monthStarts[(year - Self.firstTabulatedYear) * 12 + month - 1]) + day - 1
        } else {
            ordinal = DayKey(year: year, month: month, day: day).ordinal
        }
        let local = Int64(ordinal) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        self.init(epochSeconds: local - Int64(offset * 60), nanoseconds: Int32(millis * 1_000_000), offsetMinutes: Int16(offset))
    }

    private static let firstTabulatedYear = 1970
    private static let tabulatedYears = 230
    /// The day ordinal of the 1st of each month of 1970–2199.
    private static let monthStarts: [Int32] = (0..<(tabulatedYears * 12)).map { index in
        Int32(DayKey(year: firstTabulatedYear + index / 12, month: index % 12 + 1, day: 1).ordinal)
    }

    /// Packs `timestamp` when its text is canonical.
    package init?(_ timestamp: Timestamp) {
        guard let packed = ByteView.with(timestamp.text, { PackedTimestamp(canonical: $0) }),
              packed.epochSeconds == timestamp.epochSeconds, packed.nanoseconds == timestamp.nanoseconds,
              Int32(packed.offsetMinutes) * 60 == timestamp.offsetSeconds
        else { return nil }
        self = packed
    }

    package var offsetSeconds: Int32 { Int32(offsetMinutes) * 60 }

    /// Seconds since the epoch with the fraction, exactly as ``Timestamp/instant``.
    @inline(__always)
    package var instant: Double { Double(epochSeconds) + Double(nanoseconds) / 1e9 }

    /// The number of bytes of the canonical text.
    @inline(__always)
    package var textLength: Int {
        19 + (nanoseconds != 0 ? 4 : 0) + (offsetMinutes == 0 ? 1 : 6)
    }

    /// Writes the canonical text into the first ``textLength`` bytes of `buffer`.
    @inline(__always)
    package func write(into buffer: MutableByteView) {
        let local = epochSeconds + Int64(offsetMinutes) * 60
        let dayOrdinal = floorDivide(local, 86_400)
        let secondOfDay = Int(local - dayOrdinal * 86_400)
        let (year, month, day) = DayKey(ordinal: Int(dayOrdinal)).components
        @inline(__always) func put(_ value: Int, _ at: Int) {
            buffer[at] = UInt8(truncatingIfNeeded: value / 10 % 10) &+ UInt8(ascii: "0")
            buffer[at + 1] = UInt8(truncatingIfNeeded: value % 10) &+ UInt8(ascii: "0")
        }
        put(year / 100, 0)
        put(year % 100, 2)
        buffer[4] = UInt8(ascii: "-")
        put(month, 5)
        buffer[7] = UInt8(ascii: "-")
        put(day, 8)
        buffer[10] = UInt8(ascii: "T")
        put(secondOfDay / 3600, 11)
        buffer[13] = UInt8(ascii: ":")
        put(secondOfDay / 60 % 60, 14)
        buffer[16] = UInt8(ascii: ":")
        put(secondOfDay % 60, 17)
        var index = 19
        if nanoseconds != 0 {
            let millis = Int(nanoseconds) / 1_000_000
            buffer[19] = UInt8(ascii: ".")
            buffer[20] = UInt8(truncatingIfNeeded: millis / 100) &+ UInt8(ascii: "0")
            put(millis % 100, 21)
            index = 23
        }
        if offsetMinutes == 0 {
            buffer[index] = UInt8(ascii: "Z")
        } else {
            let magnitude = Int(offsetMinutes.magnitude)
            buffer[index] = offsetMinutes < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
            put(magnitude / 60, index + 1)
            buffer[index + 3] = UInt8(ascii: ":")
            put(magnitude % 60, index + 4)
        }
    }

    /// Appends the canonical text to `output`.
    @inline(__always)
    package func write(into output: inout [UInt8]) {
        MutableByteView.appending(textLength, to: &output) { write(into: $0) }
    }

    /// The timestamp, with its canonical text.
    package var timestamp: Timestamp {
        let text = MutableByteView.string(count: textLength) { write(into: $0) }
        return Timestamp(epochSeconds: epochSeconds, nanoseconds: nanoseconds, offsetSeconds: offsetSeconds, text: text)
    }
}

extension Timestamp {
    /// A timestamp from parts already known to agree with `text`.
    package init(epochSeconds: Int64, nanoseconds: Int32, offsetSeconds: Int32, text: String) {
        self.epochSeconds = epochSeconds
        self.nanoseconds = nanoseconds
        self.offsetSeconds = offsetSeconds
        self.text = text
    }
}
