/// A position in the line, with the scanning primitives.
///
/// One of the few types that read raw memory, for the fast scanners. The
/// invariants: `base` points at a line whose owner (a ``ByteView``, the
/// log's read buffer) keeps it alive while the cursor is used; every byte read
/// is below `end`, except ``literal(_:)``'s two 8-byte words, which may reach
/// 16 bytes past the cursor — inside the line, because a stored line has its
/// 18-byte CRC trailer after `end`. Slices come back as ``ByteView``s
/// (``bytes(_:)``), so no caller sees the pointer.
@usableFromInline package struct Cursor {
    @usableFromInline package let base: UnsafeRawPointer
    /// Where the `data` object must end: the start of the CRC trailer.
    @usableFromInline package let end: Int
    @usableFromInline package var index = 0

    @inlinable
    package init(base: UnsafeRawPointer, end: Int) {
        self.base = base
        self.end = end
    }

    /// A cursor at the start of `line`, which it scans to its end; `nil` for an
    /// empty view with no memory. Valid while `line` is (see ``ByteView``).
    @inlinable
    package init?(line: ByteView) {
        guard let base = line.buffer.baseAddress else { return nil }
        self.init(base: base, end: line.count)
    }

    @inlinable @inline(__always)
    package func byte(_ at: Int) -> UInt8 { base.load(fromByteOffset: at, as: UInt8.self) }

    @inlinable @inline(__always)
    package func bytes(_ slice: LineSlice) -> ByteView { ByteView(UnsafeRawBufferPointer(start: base + slice.start, count: slice.count)) }

    /// The slice as a view, valid while the line under the cursor is (the same as ``bytes(_:)``).
    @inlinable @inline(__always)
    package func view(_ slice: LineSlice) -> ByteView { bytes(slice) }

    /// The slice as a `String`; `nil` when it is not valid UTF-8.
    @inlinable
    package func text(_ slice: LineSlice) -> String? {
        let bytes = self.bytes(slice)
        if !slice.nonASCII { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Consumes `literal` if the bytes at the cursor spell it.
    ///
    /// Compares two 8-byte words under a mask: reading 16 bytes at the cursor
    /// stays inside the line, which has the 18-byte CRC trailer after `end`.
    @inline(__always)
    mutating func literal(_ literal: Literal) -> Bool {
        guard index + literal.count <= end else { return false }
        let one = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
        let two = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self))
        guard (one ^ literal.first) & literal.firstMask == 0, (two ^ literal.second) & literal.secondMask == 0 else { return false }
        index += literal.count
        return true
    }

    /// Consumes `expected` if it is the byte at the cursor.
    @inlinable @inline(__always)
    package mutating func expect(_ expected: UInt8) -> Bool {
        guard index < end, byte(index) == expected else { return false }
        index += 1
        return true
    }

    /// A canonical UUID string's 36 characters and closing quote (the opening
    /// quote consumed); the cursor ends after the quote. `nil` (cursor
    /// undefined) for anything else.
    @inline(__always)
    mutating func uuid() -> PackedUUID? {
        guard index + 36 < end, byte(index + 36) == UInt8(ascii: "\""),
              let packed = PackedUUID(utf8: ByteView(UnsafeRawBufferPointer(start: base + index, count: 36)))
        else { return nil }
        index += 37
        return packed
    }

    /// A canonical timestamp string and its closing quote (the opening quote
    /// consumed); the cursor ends after the quote. `nil` for anything else.
    @inline(__always)
    mutating func timestamp() -> PackedTimestamp? {
        // The canonical lengths: …SS+HH:MM, …SSZ, …SS.mmmZ, …SS.mmm+HH:MM.
        if let packed = timestamp(length: 25) { return packed }
        if let packed = timestamp(length: 20) { return packed }
        if let packed = timestamp(length: 24) { return packed }
        return timestamp(length: 29)
    }

    @inline(__always)
    private mutating func timestamp(length: Int) -> PackedTimestamp? {
        guard index + length < end, byte(index + length) == UInt8(ascii: "\""),
              let packed = PackedTimestamp(canonical: ByteView(UnsafeRawBufferPointer(start: base + index, count: length)))
        else { return nil }
        index += length + 1
        return packed
    }

    /// `1`–`999999999999999`: digits without a leading zero.
    @inline(__always)
    mutating func positiveInteger() -> Int? {
        var value = 0
        var digits = 0
        while index < end {
            let digit = byte(index) &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            if digits == 0 && digit == 0 { return nil }
            value = value &* 10 &+ Int(digit)
            digits += 1
            index += 1
        }
        guard digits > 0, digits <= 15 else { return nil }
        return value
    }

    /// A string's contents after its opening quote has been consumed; the
    /// cursor ends after the closing quote. `nil` for an escape or a control byte.
    @inlinable @inline(__always)
    package mutating func string() -> LineSlice? {
        let start = index
        var high: UInt8 = 0
        while index < end {
            let byte = self.byte(index)
            if byte == UInt8(ascii: "\"") {
                index += 1
                return LineSlice(start: start, count: index - 1 - start, nonASCII: high >= 0x80)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
            high |= byte
            index += 1
        }
        return nil
    }

    /// A JSON number; the cursor ends after it.
    @inlinable
    package mutating func number() -> (value: Double, plainInteger: Bool)? {
        let start = index
        var negative = false
        if index < end, byte(index) == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        var mantissa: UInt64 = 0
        var significant = 0
        var exponent = 0
        var integerDigits = 0
        guard index < end else { return nil }
        if byte(index) == UInt8(ascii: "0") {
            index += 1
            integerDigits = 1
            if index < end, byte(index) &- UInt8(ascii: "0") < 10 { return nil }  // leading zero: decline
        } else {
            integerDigits = digits(into: &mantissa, significant: &significant, exponent: &exponent, fractional: false)
            guard integerDigits > 0 else { return nil }
        }
        var fraction = false
        if index < end, byte(index) == UInt8(ascii: ".") {
            fraction = true
            index += 1
            let fractionDigits = digits(into: &mantissa, significant: &significant, exponent: &exponent, fractional: true)
            guard fractionDigits > 0 else { return nil }
        }
        var hasExponent = false
        if index < end, byte(index) == UInt8(ascii: "e") || byte(index) == UInt8(ascii: "E") {
            hasExponent = true
            index += 1
            if index < end, byte(index) == UInt8(ascii: "+") || byte(index) == UInt8(ascii: "-") { index += 1 }
            var exponentDigits = 0
            while index < end, byte(index) &- UInt8(ascii: "0") < 10 {
                exponentDigits += 1
                index += 1
            }
            guard exponentDigits > 0 else { return nil }
        }
        guard index - start <= 64 else { return nil }
        let plainInteger = !negative && !fraction && !hasExponent && integerDigits <= 15
        if !hasExponent, significant <= 19, mantissa <= 1 << 53, exponent >= -22, exponent <= 22 {
            var value = Double(mantissa)
            if exponent < 0 {
                value /= Self.powersOfTen[-exponent]
            } else if exponent > 0 {
                value *= Self.powersOfTen[exponent]
            }
            return (negative ? -value : value, plainInteger)
        }
        // Not exactly computable here: let the standard library round it, as the reference parser does.
        let text = String(decoding: UnsafeRawBufferPointer(start: base + start, count: index - start), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { return nil }
        return (value, plainInteger)
    }

    /// 10⁰…10²², all exact in a `Double`.
    @usableFromInline static let powersOfTen: [Double] = (0...22).map { power in
        var value = 1.0
        for _ in 0..<power { value *= 10 }
        return value
    }

    /// A `data` object's members into `fields` (the opening brace at the cursor).
    ///
    /// Declines unknown or repeated keys, `extra`, and values other than
    /// strings, numbers and `{"unit":…,"value":…}` measurements.
    mutating func object(into fields: UnsafeMutablePointer<FieldSlot>) -> Bool {
        guard expect(UInt8(ascii: "{")) else { return false }
        if expect(UInt8(ascii: "}")) { return true }
        while true {
            guard expect(UInt8(ascii: "\"")), let keySlice = string(), !keySlice.nonASCII, let key = FieldKey.named(view(keySlice)),
                  fields[key.rawValue].kind == .absent, expect(UInt8(ascii: ":")), index < end
            else { return false }
            let first = byte(index)
            if first == UInt8(ascii: "\"") {
                index += 1
                guard let slice = string() else { return false }
                fields[key.rawValue] = FieldSlot(kind: .string, slice: slice)
            } else if first == UInt8(ascii: "{") {
                guard key == .input || key == .inputEnergy || key == .inputDistance, let slot = measurement() else { return false }
                fields[key.rawValue] = slot
            } else {
                guard let (value, plain) = number() else { return false }
                fields[key.rawValue] = FieldSlot(kind: .number, number: value, isPlainInteger: plain)
            }
            if expect(UInt8(ascii: ",")) { continue }
            return expect(UInt8(ascii: "}"))
        }
    }

    /// `{"unit":"…","value":N}` with the members in either order.
    private mutating func measurement() -> FieldSlot? {
        var unit: LineSlice?
        var value: Double?
        guard expect(UInt8(ascii: "{")) else { return nil }
        for position in 0..<2 {
            if literal(Literal.unitMember), unit == nil, let slice = string() {
                unit = slice
            } else if literal(Literal.valueMember), value == nil, let (number, _) = number() {
                value = number
            } else {
                return nil
            }
            guard expect(position == 0 ? UInt8(ascii: ",") : UInt8(ascii: "}")) else { return nil }
        }
        guard let unit, let value else { return nil }
        return FieldSlot(kind: .measurement, slice: unit, number: value)
    }

    /// Reads a run of digits into `mantissa`, keeping at most 19 significant
    /// ones: in the integer part each digit dropped past them raises
    /// `exponent`; in the fraction (`fractional`) each digit kept lowers it.
    /// Returns how many digits it read.
    @inline(__always)
    @usableFromInline mutating func digits(into mantissa: inout UInt64, significant: inout Int, exponent: inout Int, fractional: Bool) -> Int {
        var count = 0
        while index < end {
            let digit = byte(index) &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            if significant < 19 {
                mantissa = mantissa &* 10 &+ UInt64(digit)
                if mantissa != 0 { significant += 1 }
                if fractional { exponent -= 1 }
            } else {
                if !fractional { exponent += 1 }
                significant += 1
            }
            count += 1
            index += 1
        }
        return count
    }
}
