/// Writes JSON in DuneEvents' one canonical form.
///
/// Object keys are sorted by their UTF-8 bytes, integral numbers below 2^53 are
/// written without a fraction, other numbers in Swift's shortest round-trip
/// form, and strings escape only what JSON requires. The same value therefore
/// gives the same bytes in every process and on every machine.
package enum JSONWriter {
    /// The canonical bytes of `value`, appended to `output`.
    package static func write(_ value: JSONValue, into output: inout [UInt8]) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number): writeNumber(number, into: &output)
        case .string(let string): writeString(string, into: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                write(element, into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            writeMembers(object.sortedMembers, into: &output)
            output.append(UInt8(ascii: "}"))
        }
    }

    /// `"k":v,"k":v` for `members` in the order given, without braces.
    package static func writeMembers(_ members: [JSONMember], into output: inout [UInt8]) {
        for (index, member) in members.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            writeString(member.key, into: &output)
            output.append(UInt8(ascii: ":"))
            write(member.value, into: &output)
        }
    }

    /// The canonical JSON text of `value`.
    package static func string(_ value: JSONValue) -> String {
        var bytes: [UInt8] = []
        write(value, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes a finite number: integers below 2^53 without a fraction, others shortest round-trip.
    ///
    /// Non-finite numbers never reach the writer (input validation rejects them);
    /// if one does, it is written as `null` so the output stays valid JSON.
    package static func writeNumber(_ number: Double, into output: inout [UInt8]) {
        // Integers (most numbers of a read model and of a log: counts, zeros of
        // empty days, step counts) are written without a String: the bytes of `formatNumber`.
        if number == number.rounded(), abs(number) < 9_007_199_254_740_992 {
            if number == 0 {
                output.append(UInt8(ascii: "0"))  // also -0
            } else if number > 0 {
                writeInteger(Int(number), into: &output)
            } else {
                output.append(UInt8(ascii: "-"))
                writeInteger(Int(-number), into: &output)
            }
            return
        }
        output.append(contentsOf: formatNumber(number).utf8)
    }

    /// Appends the decimal digits of `value`.
    static func writeInteger(_ value: Int, into output: inout [UInt8]) {
        guard value > 0 else {
            output.append(contentsOf: String(value).utf8)
            return
        }
        // The digits come out last first: append them so, then turn them around in place.
        let start = output.count
        var rest = value
        while rest > 0 {
            output.append(UInt8(rest % 10) &+ UInt8(ascii: "0"))
            rest /= 10
        }
        output[start...].reverse()
    }

    /// The canonical text of a number (see ``writeNumber(_:into:)``).
    package static func formatNumber(_ number: Double) -> String {
        guard number.isFinite else { return "null" }
        if number == number.rounded(), abs(number) < 9_007_199_254_740_992 {
            if number == 0 { return "0" }  // also turns -0 into 0
            return String(Int64(number))
        }
        return number.description
    }

    /// Writes `string` as a JSON string literal.
    ///
    /// Runs of bytes that need no escaping are copied at once; only `"`, `\\`
    /// and control characters are escaped.
    package static func writeString(_ string: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        ByteView.with(string) { bytes in
            var runStart = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if runStart < index { bytes.subview(runStart..<index).append(to: &output) }
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""): output.append(contentsOf: [0x5C, 0x22])
                case UInt8(ascii: "\\"): output.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
                case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
                case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
                default:
                    let hex = hexDigits
                    output.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
            }
            if runStart < bytes.count { bytes.subview(from: runStart).append(to: &output) }
        }
        output.append(UInt8(ascii: "\""))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
