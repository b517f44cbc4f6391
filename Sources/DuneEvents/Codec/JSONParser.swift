/// A strict JSON parser for one line of bytes (RFC 8259).
///
/// It rejects what a lenient parser would let through and what could hurt
/// later: invalid UTF-8, duplicate keys, non-finite numbers, nesting deeper
/// than ``maximumDepth``, and trailing bytes after the value. Errors carry the
/// 1-based column (byte) where parsing stopped.
package struct JSONParser: ~Copyable {
    /// Objects and arrays nested deeper than this are rejected.
    package static let maximumDepth = 32

    /// Why a line is not valid JSON, and where.
    package struct SyntaxError: Error, Sendable, Equatable {
        /// What is wrong, in words a user can act on.
        package var reason: String
        /// 1-based byte column in the line.
        package var column: Int
    }

    private let bytes: ByteView
    private var index = 0

    private init(bytes: ByteView) {
        self.bytes = bytes
    }

    /// Parses `bytes` as exactly one JSON value surrounded by optional whitespace.
    ///
    /// - Throws: ``SyntaxError`` naming the reason and column.
    /// - Complexity: O(n) in the number of bytes.
    package static func parse(_ bytes: ByteView) throws(SyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.index != bytes.count {
            throw parser.error("unexpected \(parser.describeCurrent()) after the JSON value")
        }
        return value
    }

    /// Parses any collection of bytes (in place when its storage is contiguous); see ``parse(_:)-(ByteView)``.
    package static func parse(_ bytes: some Collection<UInt8>) throws(SyntaxError) -> JSONValue {
        try ByteView.with(contentsOf: bytes) { view in
            Result { () throws(SyntaxError) in try parse(view) }
        }.get()
    }

    /// Parses the UTF-8 bytes of `text` (a convenience for tests and small inputs).
    package static func parse(_ text: String) throws(SyntaxError) -> JSONValue {
        try ByteView.with(text) { view in
            Result { () throws(SyntaxError) in try parse(view) }
        }.get()
    }

    // MARK: - Values

    private mutating func parseValue(depth: Int) throws(SyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of line; the JSON value is incomplete") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object(try parseObject(depth: depth + 1))
        case UInt8(ascii: "["): return .array(try parseArray(depth: depth + 1))
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected \(describeCurrent()); expected a JSON value")
        }
    }

    private mutating func parseObject(depth: Int) throws(SyntaxError) -> JSONObject {
        guard depth <= Self.maximumDepth else { throw error("JSON nested deeper than \(Self.maximumDepth) levels") }
        index += 1
        var members: [JSONMember] = []
        // Keys seen, once an object is large: a line of 1 MiB can hold 100 000
        // members, and scanning them all for each new key would be quadratic.
        var keys: Set<String> = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return JSONObject(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error(index < bytes.count ? "unexpected \(describeCurrent()); expected a quoted key" : "unexpected end of line inside an object")
            }
            let keyColumn = index + 1
            let key = try parseString()
            let isDuplicate: Bool
            if members.count < 16 {
                isDuplicate = members.contains { $0.key == key }
            } else {
                if keys.isEmpty { keys = Set(members.map(\.key)) }
                isDuplicate = !keys.insert(key).inserted
            }
            if isDuplicate {
                throw SyntaxError(reason: "duplicate key \"\(key)\"", column: keyColumn)
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after key \"\(key)\"")
            }
            index += 1
            skipWhitespace()
            members.append(JSONMember(key, try parseValue(depth: depth)))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of line inside an object") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return JSONObject(members) }
            throw error("unexpected \(describeCurrent()); expected ',' or '}'")
        }
    }

    private mutating func parseArray(depth: Int) throws(SyntaxError) -> [JSONValue] {
        guard depth <= Self.maximumDepth else { throw error("JSON nested deeper than \(Self.maximumDepth) levels") }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return elements
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of line inside an array") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return elements }
            throw error("unexpected \(describeCurrent()); expected ',' or ']'")
        }
    }

    // MARK: - Scalars

    private mutating func parseString() throws(SyntaxError) -> String {
        index += 1  // opening quote
        let start = index
        var plain = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                if plain {
                    let slice = bytes.subview(start..<index)
                    index += 1
                    return try decodeUTF8(slice, column: start + 1)
                }
                break
            }
            if byte == UInt8(ascii: "\\") { plain = false; break }
            if byte < 0x20 { throw error("control character 0x\(String(byte, radix: 16)) inside a string; escape it") }
            index += 1
        }
        if plain { throw SyntaxError(reason: "unterminated string", column: start) }
        // Slow path with escapes.
        index = start
        var scalars: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                guard let string = String(validating: scalars, as: UTF8.self) else {
                    throw SyntaxError(reason: "invalid UTF-8 inside a string", column: start + 1)
                }
                return string
            }
            if byte < 0x20 { throw error("control character 0x\(String(byte, radix: 16)) inside a string; escape it") }
            if byte != UInt8(ascii: "\\") {
                scalars.append(byte)
                index += 1
                continue
            }
            index += 1
            guard index < bytes.count else { break }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append(0x22)
            case UInt8(ascii: "\\"): scalars.append(0x5C)
            case UInt8(ascii: "/"): scalars.append(0x2F)
            case UInt8(ascii: "b"): scalars.append(0x08)
            case UInt8(ascii: "f"): scalars.append(0x0C)
            case UInt8(ascii: "n"): scalars.append(0x0A)
            case UInt8(ascii: "r"): scalars.append(0x0D)
            case UInt8(ascii: "t"): scalars.append(0x09)
            case UInt8(ascii: "u"):
                var code = try parseHex4()
                if (0xD800..<0xDC00).contains(code) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw error("unpaired UTF-16 surrogate in \\u escape")
                    }
                    index += 2
                    let low = try parseHex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired UTF-16 surrogate in \\u escape") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(code) {
                    throw error("unpaired UTF-16 surrogate in \\u escape")
                }
                guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
            default:
                index -= 1
                throw error("invalid escape: a backslash followed by \(describeCurrent()); expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
            }
        }
        throw SyntaxError(reason: "unterminated string", column: start)
    }

    private mutating func parseHex4() throws(SyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private func decodeUTF8(_ slice: ByteView, column: Int) throws(SyntaxError) -> String {
        guard let string = slice.utf8String else {
            throw SyntaxError(reason: "invalid UTF-8 inside a string", column: column)
        }
        return string
    }

    private mutating func parseNumber() throws(SyntaxError) -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number: expected a digit") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("invalid number: leading zero") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number: expected a digit after '.'") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number: expected a digit in the exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let length = index - start
        guard length <= 64 else { throw SyntaxError(reason: "number literal longer than 64 characters", column: start + 1) }
        let text = String(decoding: bytes.subview(start..<index), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw SyntaxError(reason: "number \(text) is out of range", column: start + 1)
        }
        return value
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(SyntaxError) {
        let count = literal.utf8CodeUnitCount
        let matches = index + count <= bytes.count && (0..<count).allSatisfy { bytes[index + $0] == literal.utf8Start[$0] }
        guard matches else { throw error("unexpected \(describeCurrent()); expected a JSON value") }
        index += count
    }

    // MARK: - Helpers

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of line" }
        let byte = bytes[index]
        if byte >= 0x21 && byte < 0x7F { return "character '\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: false))"
    }

    private func error(_ reason: String) -> SyntaxError {
        SyntaxError(reason: reason, column: index + 1)
    }
}
