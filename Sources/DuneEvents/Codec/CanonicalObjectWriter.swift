/// Writes one JSON object member by member in canonical order — keys sorted
/// by their UTF-8 bytes, as ``JSONWriter`` sorts them — without a JSON tree.
///
/// The caller names its own members in that order; the members of `merging`
/// (an input line's unknown fields, kept as parsed) are written in their
/// place among them. Values are written as ``JSONWriter`` writes them, so
/// the bytes equal `JSONWriter.write(.object(…))` of the same members.
/// ``EventCodec``'s line writer and ``InputContent`` write every object of a
/// stored line and of an input line's content through it.
struct CanonicalObjectWriter {
    /// `merging`'s members in canonical order, and the next one to write.
    private let merged: [JSONMember]
    private var nextMerged = 0
    /// `{` before the first member, `,` after it.
    private var separator = UInt8(ascii: "{")

    /// - Parameter merging: members to write among the caller's own. A member
    ///   whose key the caller also writes is left out: the caller's wins
    ///   (an input line's unknown fields never share a key with its known ones).
    init(merging: JSONObject = JSONObject()) {
        merged = merging.isEmpty ? [] : merging.sortedMembers
    }

    /// Writes `{` or `,`, then `key`; the value must follow. `key` is the
    /// member's name written as JSON with its colon (`"end":`, one copy per
    /// member); keys come in canonical order and need no escaping.
    @inline(__always)
    mutating func key(_ key: StaticString, into output: inout [UInt8]) {
        if nextMerged < merged.count { writeMerged(before: key, into: &output) }
        output.append(separator)
        separator = UInt8(ascii: ",")
        output.appendLiteral(key)
    }

    /// A string member.
    @inline(__always)
    mutating func string(_ key: StaticString, _ text: some JSONStringText, into output: inout [UInt8]) {
        self.key(key, into: &output)
        text.writeQuoted(into: &output)
    }

    /// A string member, left out when `text` is `nil`.
    @inline(__always)
    mutating func string(_ key: StaticString, ifPresent text: String?, into output: inout [UInt8]) {
        guard let text else { return }
        string(key, text, into: &output)
    }

    /// A number member.
    @inline(__always)
    mutating func number(_ key: StaticString, _ number: Double, into output: inout [UInt8]) {
        self.key(key, into: &output)
        JSONWriter.writeNumber(number, into: &output)
    }

    /// A number member, left out when `number` is `nil`.
    @inline(__always)
    mutating func number(_ key: StaticString, ifPresent number: Double?, into output: inout [UInt8]) {
        guard let number else { return }
        self.number(key, number, into: &output)
    }

    /// Any value.
    mutating func value(_ key: StaticString, _ value: JSONValue, into output: inout [UInt8]) {
        self.key(key, into: &output)
        JSONWriter.write(value, into: &output)
    }

    /// `{"unit":…,"value":…}` of a number with the unit it was written in.
    mutating func measurement(_ key: StaticString, value: Double, unit: String, into output: inout [UInt8]) {
        self.key(key, into: &output)
        var inner = CanonicalObjectWriter()
        inner.string(#""unit":"#, unit, into: &output)
        inner.number(#""value":"#, value, into: &output)
        inner.close(into: &output)
    }

    /// Writes the merged members not yet written, and `}`.
    @inline(__always)
    mutating func close(into output: inout [UInt8]) {
        if nextMerged < merged.count { writeMerged(before: nil, into: &output) }
        if separator == UInt8(ascii: "{") { output.append(separator) }
        output.append(UInt8(ascii: "}"))
    }

    /// Writes the merged members whose keys sort before `key` (all of them for
    /// `nil`), and skips one whose key equals it.
    private mutating func writeMerged(before key: StaticString?, into output: inout [UInt8]) {
        // The name between the quotes of `"name":`.
        let own = key.map { ByteView($0).dropFirst().dropLast(2) }
        while nextMerged < merged.count {
            let member = merged[nextMerged]
            if let own {
                if own.elementsEqual(member.key.utf8) {
                    nextMerged += 1
                    return
                }
                guard member.key.utf8.lexicographicallyPrecedes(own) else { return }
            }
            output.append(separator)
            separator = UInt8(ascii: ",")
            JSONWriter.writeMembers([member], into: &output)
            nextMerged += 1
        }
    }
}
