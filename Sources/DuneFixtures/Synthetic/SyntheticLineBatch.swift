import DuneEvents

/// One day of generated input lines: their bytes in one arena, each with the
/// instant it sorts by.
///
/// The generator writes a day's lines stream by stream (sleep, then body, then
/// workouts, …) and the batch puts them in chronological order before they are
/// emitted, so only one day is ever held in memory. Writing is done byte by
/// byte from `StaticString`s and integers: no `String`, no Foundation, no
/// allocation per line once the arena has grown.
struct SyntheticLineBatch {
    /// Where one line sits in the arena and when it happens.
    struct Line {
        /// The instant the line sorts by, in milliseconds since the epoch.
        var key: Int64
        /// Tie-breaker: lines with equal keys keep the order they were written in.
        var order: Int32
        var start: Int32
        var count: Int32
    }

    private(set) var arena: [UInt8] = []
    private(set) var lines: [Line] = []
    private var lineStart = 0
    private var lineKey: Int64 = 0
    private var needsComma = false
    /// The last day ordinal ``time(_:_:offset:millis:)`` wrote, and its date.
    private var cachedOrdinal: Int64 = .min
    private var cachedDate: (year: Int, month: Int, day: Int) = (0, 0, 0)

    init() {
        arena.reserveCapacity(1 << 16)
        lines.reserveCapacity(512)
    }

    mutating func removeAll() {
        arena.removeAll(keepingCapacity: true)
        lines.removeAll(keepingCapacity: true)
    }

    // MARK: - Lines

    /// Starts a JSON object line that sorts at `keyMillis`.
    mutating func begin(keyMillis: Int64) {
        lineStart = arena.count
        lineKey = keyMillis
        needsComma = false
        arena.append(UInt8(ascii: "{"))
    }

    /// Closes the current line; returns its index for ``duplicate(_:keyMillis:)``.
    @discardableResult
    mutating func end() -> Int {
        arena.append(UInt8(ascii: "}"))
        lines.append(Line(key: lineKey, order: Int32(lines.count), start: Int32(lineStart),
                          count: Int32(arena.count - lineStart)))
        return lines.count - 1
    }

    /// Appends a byte-identical copy of line `index` that sorts at `keyMillis` (a re-sent line).
    mutating func duplicate(_ index: Int, keyMillis: Int64) {
        let line = lines[index]
        let copy = Array(arena[Int(line.start)..<Int(line.start + line.count)])
        let start = arena.count
        arena.append(contentsOf: copy)
        lines.append(Line(key: keyMillis, order: Int32(lines.count), start: Int32(start), count: line.count))
    }

    /// Puts the lines in order of their keys; equal keys keep their writing order.
    mutating func sortChronologically() {
        lines.sort { $0.key != $1.key ? $0.key < $1.key : $0.order < $1.order }
    }

    /// Calls `body` with each line's bytes (no newline), in the current order.
    func forEachLine(_ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        try arena.withUnsafeBytes { bytes in
            for line in lines {
                let start = Int(line.start)
                try body(UnsafeRawBufferPointer(rebasing: bytes[start..<(start + Int(line.count))]))
            }
        }
    }

    // MARK: - Members

    /// `"name":"value"`.
    mutating func string(_ name: StaticString, _ value: StaticString) {
        key(name)
        quoted(value)
    }

    /// `"name":123`.
    mutating func int(_ name: StaticString, _ value: Int) {
        key(name)
        appendInt(value)
    }

    /// `"name":12.345`, rounded to `places` decimals, trailing zeros dropped.
    mutating func decimal(_ name: StaticString, _ value: Double, places: Int) {
        key(name)
        appendDecimal(value, places: places)
    }

    /// `"name":true`.
    mutating func bool(_ name: StaticString, _ value: Bool) {
        key(name)
        append(value ? "true" : "false")
    }

    /// `"name":"XXXXXXXX-XXXX-4XXX-YXXX-XXXXXXXXXXXX"`.
    mutating func uuid(_ name: StaticString, _ id: SyntheticID) {
        key(name)
        appendBytes(count: 38) { out in
            out[0] = UInt8(ascii: "\"")
            Self.hex(id.high >> 32, digits: 8, into: out, at: 1)
            out[9] = UInt8(ascii: "-")
            Self.hex(id.high >> 16 & 0xFFFF, digits: 4, into: out, at: 10)
            out[14] = UInt8(ascii: "-")
            Self.hex(id.high & 0xFFFF, digits: 4, into: out, at: 15)
            out[19] = UInt8(ascii: "-")
            Self.hex(id.low >> 48, digits: 4, into: out, at: 20)
            out[24] = UInt8(ascii: "-")
            Self.hex(id.low & 0xFFFF_FFFF_FFFF, digits: 12, into: out, at: 25)
            out[37] = UInt8(ascii: "\"")
        }
    }

    /// `"name":"prefix-123"` (task ids).
    mutating func numbered(_ name: StaticString, prefix: StaticString, number: Int) {
        key(name)
        arena.append(UInt8(ascii: "\""))
        append(prefix)
        arena.append(UInt8(ascii: "-"))
        appendInt(number)
        arena.append(UInt8(ascii: "\""))
    }

    /// `"name":"2026-03-29T07:12:00+02:00"`: RFC 3339 in the given offset, `Z` for 0.
    ///
    /// - Parameters:
    ///   - millis: the fraction of the second, written as `.SSS` when not `nil`.
    mutating func time(_ name: StaticString, _ epochSeconds: Int64, offset: Int32, millis: Int? = nil) {
        key(name)
        let local = epochSeconds + Int64(offset)
        let ordinal = floorDivide(local, 86_400)
        if ordinal != cachedOrdinal {
            cachedOrdinal = ordinal
            let date = DayKey(ordinal: Int(ordinal)).components
            cachedDate = (date.year, date.month, date.day)
        }
        let date = cachedDate
        let secondOfDay = Int(local - ordinal * 86_400)
        let count = 21 + (millis == nil ? 0 : 4) + (offset == 0 ? 1 : 6)
        appendBytes(count: count) { out in
            out[0] = UInt8(ascii: "\"")
            Self.digits(date.year, width: 4, into: out, at: 1)
            out[5] = UInt8(ascii: "-")
            Self.digits(date.month, width: 2, into: out, at: 6)
            out[8] = UInt8(ascii: "-")
            Self.digits(date.day, width: 2, into: out, at: 9)
            out[11] = UInt8(ascii: "T")
            Self.digits(secondOfDay / 3600, width: 2, into: out, at: 12)
            out[14] = UInt8(ascii: ":")
            Self.digits(secondOfDay / 60 % 60, width: 2, into: out, at: 15)
            out[17] = UInt8(ascii: ":")
            Self.digits(secondOfDay % 60, width: 2, into: out, at: 18)
            var index = 20
            if let millis {
                out[index] = UInt8(ascii: ".")
                Self.digits(millis, width: 3, into: out, at: index + 1)
                index += 4
            }
            if offset == 0 {
                out[index] = UInt8(ascii: "Z")
                index += 1
            } else {
                let minutes = Int(offset.magnitude) / 60
                out[index] = offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
                Self.digits(minutes / 60, width: 2, into: out, at: index + 1)
                out[index + 3] = UInt8(ascii: ":")
                Self.digits(minutes % 60, width: 2, into: out, at: index + 4)
                index += 6
            }
            out[index] = UInt8(ascii: "\"")
        }
    }

    /// `"name":"…"` for an instant in milliseconds.
    mutating func time(_ name: StaticString, millis: Int64, offset: Int32) {
        let seconds = floorDivide(millis, 1000)
        time(name, seconds, offset: offset, millis: Int(millis - seconds * 1000))
    }

    // MARK: - Bytes

    /// `,"name":` (no comma before the first member).
    private mutating func key(_ name: StaticString) {
        let comma = needsComma ? 1 : 0
        needsComma = true
        name.withUTF8Buffer { text in
            appendBytes(count: comma + text.count + 3) { out in
                if comma == 1 { out[0] = UInt8(ascii: ",") }
                out[comma] = UInt8(ascii: "\"")
                _ = UnsafeMutableBufferPointer(rebasing: out[(comma + 1)...]).update(fromContentsOf: text)
                out[comma + 1 + text.count] = UInt8(ascii: "\"")
                out[comma + 2 + text.count] = UInt8(ascii: ":")
            }
        }
    }

    /// `"text"` (the texts here never need escaping).
    private mutating func quoted(_ text: StaticString) {
        text.withUTF8Buffer { text in
            appendBytes(count: text.count + 2) { out in
                out[0] = UInt8(ascii: "\"")
                _ = UnsafeMutableBufferPointer(rebasing: out[1...]).update(fromContentsOf: text)
                out[text.count + 1] = UInt8(ascii: "\"")
            }
        }
    }

    /// Grows the arena by `count` bytes and lets `fill` write all of them.
    @inline(__always)
    private mutating func appendBytes(count: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { scratch in
            fill(scratch)
            arena.append(contentsOf: UnsafeBufferPointer(scratch))
        }
    }

    @inline(__always)
    private static func digits(_ value: Int, width: Int, into out: UnsafeMutableBufferPointer<UInt8>, at index: Int) {
        var rest = value
        var position = index + width - 1
        while position >= index {
            out[position] = 0x30 &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
            position -= 1
        }
    }

    @inline(__always)
    private static func hex(_ value: UInt64, digits: Int, into out: UnsafeMutableBufferPointer<UInt8>, at index: Int) {
        for position in 0..<digits {
            let nibble = UInt8(truncatingIfNeeded: value >> UInt64((digits - 1 - position) * 4) & 0xF)
            out[index + position] = nibble < 10 ? 0x30 &+ nibble : 0x41 &+ nibble &- 10
        }
    }

    @inline(__always)
    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { arena.append(contentsOf: $0) }
    }

    private mutating func appendInt(_ value: Int) {
        if value < 0 {
            arena.append(UInt8(ascii: "-"))
            appendInt(-value)
            return
        }
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        appendPadded(value, width: digits)
    }

    /// Decimal text of `value` rounded to `places` decimals; only digits that
    /// matter, so `74.50` is written `74.5` and `74.00` is written `74`.
    private mutating func appendDecimal(_ value: Double, places: Int) {
        var scale = 1
        for _ in 0..<places { scale *= 10 }
        var scaled = Int((value * Double(scale)).rounded())
        if scaled < 0 {
            arena.append(UInt8(ascii: "-"))
            scaled = -scaled
        }
        appendInt(scaled / scale)
        var fraction = scaled % scale
        guard fraction != 0 else { return }
        var width = places
        while fraction % 10 == 0 {
            fraction /= 10
            width -= 1
        }
        arena.append(UInt8(ascii: "."))
        appendPadded(fraction, width: width)
    }

    /// `value` (≥ 0) in exactly `width` decimal digits, zero-padded on the left.
    @inline(__always)
    private mutating func appendPadded(_ value: Int, width: Int) {
        appendBytes(count: width) { out in Self.digits(value, width: width, into: out, at: 0) }
    }
}
