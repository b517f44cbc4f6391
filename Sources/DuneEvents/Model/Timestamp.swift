/// An instant with the UTC offset it was written in.
///
/// Parsed from RFC 3339 text with seconds and an explicit offset
/// (`2026-02-28T07:12:00+09:00`, `2026-02-28T07:12:00.250Z`). The original
/// text is kept so a stored event writes back exactly what the input said, and
/// the local date is computed in the written offset, never the machine's zone.
///
/// Ordering is by instant; two texts for the same instant (`…Z` and `…+00:00`)
/// order by their text so that `<` and `==` agree.
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z.
    public let epochSeconds: Int64
    /// Fraction of the second in nanoseconds, 0..<1_000_000_000.
    public let nanoseconds: Int32
    /// The written UTC offset in seconds (east positive).
    public let offsetSeconds: Int32
    /// The text as written in the input.
    public let text: String

    /// Why a timestamp text was rejected.
    public struct ParseError: Error, Sendable, Equatable {
        /// What is wrong with the text and what was expected, e.g.
        /// `has no UTC offset; add 'Z' or '±HH:MM' (e.g. 2026-02-28T07:00:00Z)`.
        public var reason: String
    }

    /// Parses the RFC 3339 text in `bytes`; `nil` when ``init(parsing:)`` would
    /// reject it. For parsers that have the bytes already (no copy of them).
    package init?(utf8 bytes: ByteView) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let parsed = try? Timestamp.scan(bytes, text: text) else { return nil }
        self.epochSeconds = parsed.0
        self.nanoseconds = parsed.1
        self.offsetSeconds = parsed.2
        self.text = text
    }

    /// Parses the RFC 3339 text `text`; `nil` when ``init(parsing:)`` would
    /// reject it. Reads the string's UTF-8 in place (no copy of the bytes).
    package init?(utf8Text text: String) {
        guard let parsed = ByteView.with(text, { Timestamp(utf8: $0) }) else { return nil }
        self = parsed
    }

    /// Parses RFC 3339 text with seconds and an offset.
    ///
    /// - Throws: ``ParseError`` that says what is wrong, e.g. a missing offset.
    public init(parsing text: String) throws(ParseError) {
        let parsed = try ByteView.with(text) { bytes in
            Result { () throws(ParseError) in try Timestamp.scan(bytes, text: text) }
        }.get()
        self.epochSeconds = parsed.0
        self.nanoseconds = parsed.1
        self.offsetSeconds = parsed.2
        self.text = text
    }

    /// A timestamp at `epochSeconds` written in `offsetSeconds`, formatted as RFC 3339.
    public init(epochSeconds: Int64, nanoseconds: Int32 = 0, offsetSeconds: Int32) {
        self.epochSeconds = epochSeconds
        self.nanoseconds = nanoseconds
        self.offsetSeconds = offsetSeconds
        self.text = Timestamp.format(epochSeconds: epochSeconds, nanoseconds: nanoseconds, offsetSeconds: offsetSeconds)
    }

    /// A timestamp `secondsSince1970` after 1970-01-01T00:00:00Z, written in
    /// `offsetSeconds`: the one conversion from a number of seconds (and from
    /// a `Date`, whose `init(_:in:)` calls it with `timeIntervalSince1970`).
    ///
    /// The instant is rounded to the microsecond, the canonical precision
    /// (``canonicalPrecisionNanoseconds``): a `Date`'s double holds no finer
    /// digits that mean anything (about 0.2 µs today), so a sample at
    /// `07:12:40.123` keeps the text `…07:12:40.123…`, the same content as the
    /// line that says so, never `…40.122999907`. The offset is rounded to
    /// whole minutes, as RFC 3339 writes it (old local mean times had
    /// seconds). A number that is not finite or lies beyond ±300,000 years is
    /// clamped to that bound; it is outside the accepted window anyway
    /// (the log's timestamp window), so an append rejects it.
    ///
    /// ```swift
    /// let start = Timestamp(secondsSince1970: 1_772_431_960.123, offsetSeconds: 3600)
    /// // start.text == "2026-03-02T07:12:40.123+01:00"
    /// ```
    public init(secondsSince1970: Double, offsetSeconds: Int32) {
        let bound = 1e13
        let clamped = secondsSince1970.isNaN ? -bound : min(max(secondsSince1970, -bound), bound)
        let micros = (clamped * 1e6).rounded()
        let whole = (micros / 1e6).rounded(.down)
        var seconds = Int64(whole)
        var fraction = Int64(micros - whole * 1e6)
        if fraction >= 1_000_000 {
            seconds += 1
            fraction -= 1_000_000
        } else if fraction < 0 {
            seconds -= 1
            fraction += 1_000_000
        }
        let offset = Int32((Double(offsetSeconds) / 60).rounded()) * 60
        self.init(epochSeconds: seconds, nanoseconds: Int32(fraction) * 1000, offsetSeconds: offset)
    }

    /// A `Date`'s instant, `seconds` after 2001-01-01T00:00:00Z (its
    /// `timeIntervalSinceReferenceDate`), written in `offsetSeconds`: the
    /// instant `Date.timeIntervalSince1970` gives (the same sum Foundation
    /// computes), through ``init(secondsSince1970:offsetSeconds:)``.
    package init(secondsSinceReferenceDate seconds: Double, offsetSeconds: Int) {
        let clampedOffset = Int32(clamping: offsetSeconds)
        self.init(secondsSince1970: seconds + 978_307_200, offsetSeconds: clampedOffset)
    }

    /// The precision at which content identity compares instants, in
    /// nanoseconds: one microsecond. Two timestamps closer than that (after
    /// rounding each to it) are the same instant for idempotency, so a sample
    /// stored with a nine-digit fraction by an earlier conversion
    /// (`…40.122999907`) is the same content as `…40.123`.
    public static let canonicalPrecisionNanoseconds: Int32 = 1000

    /// The text as written in the input.
    public var description: String { text }

    /// The instant in seconds since the epoch, with the fraction.
    public var instant: Double { Double(epochSeconds) + Double(nanoseconds) / 1e9 }

    /// The calendar date of this instant in its own written offset.
    public var localDate: DayKey {
        DayKey(ordinal: Int(floorDivide(epochSeconds + Int64(offsetSeconds), 86_400)))
    }

    /// The same offset, `seconds` later.
    public func adding(seconds: Int64) -> Timestamp {
        Timestamp(epochSeconds: epochSeconds + seconds, nanoseconds: nanoseconds, offsetSeconds: offsetSeconds)
    }

    /// Seconds from `other` to `self` (positive when `self` is later).
    public func seconds(since other: Timestamp) -> Double {
        Double(epochSeconds - other.epochSeconds) + Double(nanoseconds - other.nanoseconds) / 1e9
    }

    /// Whether `lhs` is an earlier instant than `rhs`; the same instant written two ways orders by its text.
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        if lhs.epochSeconds != rhs.epochSeconds { return lhs.epochSeconds < rhs.epochSeconds }
        if lhs.nanoseconds != rhs.nanoseconds { return lhs.nanoseconds < rhs.nanoseconds }
        return lhs.text.utf8.lexicographicallyPrecedes(rhs.text.utf8)
    }

    // MARK: - Formatting

    /// The canonical RFC 3339 text of this instant in its written offset,
    /// at the canonical precision (the instant rounded to the microsecond,
    /// half up): `Z` for offset 0, else `±HH:MM`; a fraction when there is
    /// one, in milliseconds (`.250`) when it is a whole number of them, else
    /// with as many digits as it needs, up to microseconds (`.000250`).
    ///
    /// Two timestamps have the same canonical text exactly when they are the
    /// same instant to the microsecond, written in the same offset:
    /// `2026-02-28T07:12:00.5Z` and `2026-02-28T07:12:00.500+00:00` are both
    /// `2026-02-28T07:12:00.500Z`, and `…07:12:00.122999907Z` is
    /// `…07:12:00.123Z`. Idempotency compares content in this form, so a
    /// sample is the same content however its timestamps were spelled or
    /// converted.
    public var canonicalText: String {
        let precision = Int64(Timestamp.canonicalPrecisionNanoseconds)
        var seconds = epochSeconds
        var rounded = (Int64(nanoseconds) + precision / 2) / precision * precision
        if rounded >= 1_000_000_000 {
            seconds += 1
            rounded -= 1_000_000_000
        }
        return Timestamp.format(epochSeconds: seconds, nanoseconds: Int32(rounded), offsetSeconds: offsetSeconds)
    }

    /// RFC 3339 text: `Z` for offset 0, else `±HH:MM`; a fraction when present,
    /// in milliseconds (`.250`) when it is a whole number of them, else with as
    /// many digits as it needs, up to nanoseconds (`.000250`).
    package static func format(epochSeconds: Int64, nanoseconds: Int32, offsetSeconds: Int32) -> String {
        let local = epochSeconds + Int64(offsetSeconds)
        let day = DayKey(ordinal: Int(floorDivide(local, 86_400)))
        let secondOfDay = Int(local - Int64(day.ordinal) * 86_400)
        var text = "\(day)T\(pad(secondOfDay / 3600)):\(pad(secondOfDay / 60 % 60)):\(pad(secondOfDay % 60))"
        if nanoseconds != 0 {
            var digits = String(String(Int(nanoseconds) + 1_000_000_000).dropFirst())
            while digits.count > 3, digits.last == "0" { digits.removeLast() }
            text += "." + digits
        }
        if offsetSeconds == 0 {
            text += "Z"
        } else {
            let magnitude = Int(abs(offsetSeconds)) / 60
            text += (offsetSeconds < 0 ? "-" : "+") + "\(pad(magnitude / 60)):\(pad(magnitude % 60))"
        }
        return text
    }

    private static func pad(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    // MARK: - Scanning

    private static func scan(_ b: ByteView, text: String) throws(ParseError) -> (Int64, Int32, Int32) {
        func fail(_ reason: String) -> ParseError { ParseError(reason: "timestamp \"\(text)\" \(reason)") }
        func digits(_ at: Int, _ count: Int) -> Int? {
            guard at + count <= b.count else { return nil }
            var value = 0
            for i in at..<(at + count) {
                let byte = b[i]
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = digits(0, 4), b.count > 4, b[4] == UInt8(ascii: "-"),
              let month = digits(5, 2), b.count > 7, b[7] == UInt8(ascii: "-"),
              let day = digits(8, 2)
        else { throw fail("is not an RFC 3339 date-time (expected YYYY-MM-DDTHH:MM:SS±HH:MM)") }
        guard b.count > 10, b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t") else {
            throw fail("has no time part; expected YYYY-MM-DDTHH:MM:SS±HH:MM")
        }
        guard let hour = digits(11, 2), b.count > 13, b[13] == UInt8(ascii: ":"),
              let minute = digits(14, 2)
        else { throw fail("has an invalid time; expected HH:MM:SS") }
        guard b.count > 16, b[16] == UInt8(ascii: ":"), let second = digits(17, 2) else {
            throw fail("has no seconds; expected HH:MM:SS")
        }
        guard (1...12).contains(month) else { throw fail("has month \(month), outside 1–12") }
        guard (1...DayKey.daysIn(year: year, month: month)).contains(day) else {
            throw fail("has day \(day), which \(year)-\(pad(month)) does not have")
        }
        guard hour < 24, minute < 60, second < 60 else { throw fail("has a time outside 00:00:00–23:59:59") }
        var index = 19
        var nanos = 0
        if index < b.count, b[index] == UInt8(ascii: ".") {
            index += 1
            var count = 0
            while index < b.count, b[index] >= 0x30, b[index] <= 0x39 {
                if count < 9 { nanos = nanos * 10 + Int(b[index] - 0x30) }
                count += 1
                index += 1
            }
            guard count > 0 else { throw fail("has a '.' without fraction digits") }
            guard count <= 9 else { throw fail("has more than 9 fraction digits") }
            for _ in count..<9 { nanos *= 10 }
        }
        guard index < b.count else {
            throw fail("has no UTC offset; add 'Z' or '±HH:MM' (e.g. \(String(decoding: b.subview(0..<index), as: UTF8.self))Z)")
        }
        var offset = 0
        switch b[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = b[index] == UInt8(ascii: "-") ? -1 : 1
            guard let offsetHours = digits(index + 1, 2), index + 3 < b.count, b[index + 3] == UInt8(ascii: ":"),
                  let offsetMinutes = digits(index + 4, 2)
            else { throw fail("has an invalid UTC offset; expected ±HH:MM") }
            guard offsetHours <= 23, offsetMinutes <= 59 else { throw fail("has a UTC offset outside ±23:59") }
            offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
            index += 6
        default:
            throw fail("has an invalid UTC offset; expected 'Z' or ±HH:MM")
        }
        guard index == b.count else { throw fail("has unexpected characters after the UTC offset") }
        let ordinal = DayKey(year: year, month: month, day: day).ordinal
        let local = Int64(ordinal) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return (local - Int64(offset), Int32(nanos), Int32(offset))
    }
}

/// Floor division for possibly negative numerators.
@inline(__always)
package func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
    let quotient = value / divisor
    return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
}
