import DuneEvents

/// Byte-level helpers of the export scanner: character classes, UTF-8
/// validation and line counting, each a tight loop over raw memory.
///
/// The scanner spends most of its time here, so the loops look at eight bytes
/// at a time where they can (ASCII runs, newline counts) and never allocate.
enum HealthExportBytes {
    static let lessThan = UInt8(ascii: "<")
    static let greaterThan = UInt8(ascii: ">")
    static let slash = UInt8(ascii: "/")
    static let equals = UInt8(ascii: "=")
    static let quote = UInt8(ascii: "\"")
    static let apostrophe = UInt8(ascii: "'")
    static let ampersand = UInt8(ascii: "&")
    static let newline = UInt8(ascii: "\n")

    // MARK: - Character classes

    /// XML white space: space, tab, line feed, carriage return.
    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    /// A byte that may start an XML name: an ASCII letter, `_`, `:`, or any
    /// byte of a multi-byte UTF-8 sequence (validated separately).
    @inline(__always)
    static func isNameStart(_ byte: UInt8) -> Bool {
        let folded = byte | 0x20
        return byte >= 0x80 || (folded >= 0x61 && folded <= 0x7A) || byte == 0x5F || byte == 0x3A
    }

    /// A byte that may continue an XML name: a name start, a digit, `-` or `.`.
    @inline(__always)
    static func isNameByte(_ byte: UInt8) -> Bool {
        let folded = byte | 0x20
        return byte >= 0x80 || (folded >= 0x61 && folded <= 0x7A) || (byte >= 0x30 && byte <= 0x3A)
            || byte == 0x5F || byte == 0x2D || byte == 0x2E
    }

    /// `'x'` for a printable ASCII byte, else `byte 0xNN`, for error messages.
    static func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x" + (hex.count == 1 ? "0" + hex : hex)
    }

    // MARK: - Scanning

    /// The index of the first `byte` in `base[from..<to]`, or `nil`.
    @inline(__always)
    static func firstIndex(of byte: UInt8, in base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int? {
        guard from < to, let found = system_memchr(base + from, byte, to - from) else { return nil }
        return UnsafeRawPointer(base).distance(to: found)
    }

    /// The number of `\n` bytes in `base[from..<to]`.
    static func newlineCount(in base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int {
        var count = 0
        var index = from
        let raw = UnsafeRawPointer(base)
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let pattern: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
        while index + 8 <= to {
            // SWAR: a byte of `x` is zero exactly where the input byte is '\n'.
            let x = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ pattern
            let zeroes = ~(((x & lows) &+ lows) | x | lows)
            count += zeroes.nonzeroBitCount
            index += 8
        }
        while index < to {
            if base[index] == newline { count += 1 }
            index += 1
        }
        return count
    }

    /// The offset of the first byte in `base[0..<count]` that is not part of
    /// well-formed UTF-8 (overlong forms, surrogates and values past U+10FFFF
    /// are invalid), or `nil` when all of it is valid.
    static func firstInvalidUTF8(in base: UnsafePointer<UInt8>, count: Int) -> Int? {
        var index = 0
        let raw = UnsafeRawPointer(base)
        while index < count {
            while index + 8 <= count,
                  raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                index += 8
            }
            guard index < count else { return nil }
            let lead = base[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; upper = 0x9F
            case 0xF0: length = 4; lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; upper = 0x8F
            default: return index
            }
            guard index + length <= count else { return index }
            let second = base[index + 1]
            guard second >= lower, second <= upper else { return index }
            for offset in 2..<length where base[index + offset] & 0xC0 != 0x80 {
                return index
            }
            index += length
        }
        return nil
    }
}
