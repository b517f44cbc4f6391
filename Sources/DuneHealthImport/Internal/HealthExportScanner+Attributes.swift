import DuneEvents

/// Why an attribute value could not be decoded (a bad entity reference).
struct HealthExportValueProblem: Error, Sendable, Equatable {
    var reason: String
}

extension HealthExportScanner {
    // MARK: - Finding attributes

    /// The current tag's attribute called `name`, or `nil`; the first one
    /// wins if a (malformed) tag repeats a name.
    func attribute(named name: StaticString) -> HealthExportAttribute? {
        let count = name.utf8CodeUnitCount
        for attribute in attributes where attribute.nameCount == count {
            if ByteView.equal(bytes + attribute.nameStart, name.utf8Start, count: count) { return attribute }
        }
        return nil
    }

    /// The raw bytes of an attribute's value as written (entities not decoded).
    func rawValue(_ attribute: HealthExportAttribute) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: bytes + attribute.valueStart, count: attribute.valueCount)
    }

    /// The name of an attribute (validated UTF-8).
    func name(of attribute: HealthExportAttribute) -> String {
        String(decoding: UnsafeBufferPointer(start: bytes + attribute.nameStart, count: attribute.nameCount), as: UTF8.self)
    }

    /// The value of the attribute called `name`, decoded, or `nil` when absent.
    ///
    /// - Throws: ``HealthExportValueProblem`` naming the attribute and the bad reference.
    func decodedValue(named name: StaticString) throws(HealthExportValueProblem) -> String? {
        guard let attribute = attribute(named: name) else { return nil }
        do {
            return try Self.decode(rawValue(attribute))
        } catch {
            throw HealthExportValueProblem(reason: "attribute \(name) \(error.reason)")
        }
    }

    // MARK: - Decoding

    /// Decodes an attribute value the way an XML parser would: the five
    /// predefined entities and numeric character references are replaced, and
    /// literal tabs and line breaks become spaces (attribute-value
    /// normalization; `\r\n` counts as one). The bytes were validated as
    /// UTF-8 by the scanner, so the result is exactly what was written.
    ///
    /// - Throws: ``HealthExportValueProblem`` for an undeclared entity, a bare
    ///   `&`, or a character reference to U+0000, a surrogate or past U+10FFFF.
    static func decode(_ raw: UnsafeBufferPointer<UInt8>) throws(HealthExportValueProblem) -> String {
        var plain = true
        for byte in raw where byte == HealthExportBytes.ampersand || byte == 0x09 || byte == 0x0A || byte == 0x0D {
            plain = false
            break
        }
        if plain { return String(decoding: raw, as: UTF8.self) }

        var output: [UInt8] = []
        output.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            switch byte {
            case HealthExportBytes.ampersand:
                var semicolon = index + 1
                while semicolon < raw.count, semicolon - index <= 12, raw[semicolon] != UInt8(ascii: ";") { semicolon += 1 }
                guard semicolon < raw.count, raw[semicolon] == UInt8(ascii: ";") else {
                    throw HealthExportValueProblem(reason: "has a '&' that does not start an entity reference (write &amp;)")
                }
                let name = Array(raw[(index + 1)..<semicolon])
                try appendEntity(name, to: &output)
                index = semicolon + 1
            case 0x0D:
                output.append(0x20)
                index += (index + 1 < raw.count && raw[index + 1] == 0x0A) ? 2 : 1
            case 0x09, 0x0A:
                output.append(0x20)
                index += 1
            default:
                output.append(byte)
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func appendEntity(_ name: [UInt8], to output: inout [UInt8]) throws(HealthExportValueProblem) {
        switch name {
        case Array("amp".utf8): output.append(UInt8(ascii: "&"))
        case Array("lt".utf8): output.append(UInt8(ascii: "<"))
        case Array("gt".utf8): output.append(UInt8(ascii: ">"))
        case Array("quot".utf8): output.append(UInt8(ascii: "\""))
        case Array("apos".utf8): output.append(UInt8(ascii: "'"))
        default:
            let text = String(decoding: name, as: UTF8.self)
            guard name.first == UInt8(ascii: "#") else {
                throw HealthExportValueProblem(reason: "uses the undeclared entity &\(text); (only &amp; &lt; &gt; &quot; &apos; and &#…; are known)")
            }
            var digits = name.dropFirst()
            var radix: UInt32 = 10
            if digits.first == UInt8(ascii: "x") {
                radix = 16
                digits = digits.dropFirst()
            }
            guard !digits.isEmpty, digits.count <= 8 else {
                throw HealthExportValueProblem(reason: "has the malformed character reference &\(text);")
            }
            var value: UInt32 = 0
            for digit in digits {
                let nibble: UInt32
                switch digit {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = UInt32(digit - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: nibble = UInt32(digit - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: nibble = UInt32(digit - UInt8(ascii: "A") + 10)
                default: throw HealthExportValueProblem(reason: "has the malformed character reference &\(text);")
                }
                value = value * radix + nibble
            }
            guard value != 0, let scalar = Unicode.Scalar(value) else {
                throw HealthExportValueProblem(reason: "has the character reference &\(text);, which is not a Unicode character")
            }
            output.append(contentsOf: Array(String(Character(scalar)).utf8))
        }
    }
}
