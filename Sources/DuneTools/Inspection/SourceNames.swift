import DuneEvents

/// Source names that look alike (issue 35, item 12): "Apple Watch" with a
/// non-breaking space, "apple watch", or the same letters in another Unicode
/// normalisation read the same on a screen, yet are other sources to a
/// selector compared by value. `forget --source` names them before it erases
/// anything, and `stats` marks them.
package enum SourceNames {
    /// A name exactly as stored: equal only when the UTF-8 bytes are
    /// (`String`'s `==` treats canonically equivalent spellings as equal).
    package struct Exact: Hashable, Sendable {
        package let name: String

        package init(_ name: String) {
            self.name = name
        }

        package static func == (lhs: Exact, rhs: Exact) -> Bool {
            lhs.name.utf8.elementsEqual(rhs.name.utf8)
        }

        package func hash(into hasher: inout Hasher) {
            for byte in name.utf8 { hasher.combine(byte) }
        }
    }

    /// What look-alike names share: lowercased, every run of white space
    /// (a non-breaking space, a tab) one space, none at either end, no
    /// invisible characters (zero-width space, byte order mark). Compared as
    /// a `String`, so spellings in another Unicode normalisation are equal too.
    package static func lookAlikeKey(_ name: String) -> String {
        spaced(name.lowercased())
    }

    /// Whether `a` and `b` are different names (by bytes) that look alike.
    package static func lookAlike(_ a: String, _ b: String) -> Bool {
        !Exact(a).name.utf8.elementsEqual(b.utf8) && lookAlikeKey(a) == lookAlikeKey(b)
    }

    /// How two look-alike names differ: "Unicode normalisation", "white space", "case", or "case and white space".
    package static func difference(_ a: String, _ b: String) -> String {
        if a == b { return "Unicode normalisation" }
        if spaced(a) == spaced(b) { return "white space" }
        if a.lowercased() == b.lowercased() { return "case" }
        return "case and white space"
    }

    /// `name` with runs of white space as one space (none at the ends) and default-ignorable
    /// scalars dropped; its case kept.
    private static func spaced(_ name: String) -> String {
        var text = ""
        var pendingSpace = false
        for scalar in name.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !text.isEmpty
                continue
            }
            if scalar.properties.isDefaultIgnorableCodePoint { continue }
            if pendingSpace {
                text.unicodeScalars.append(" ")
                pendingSpace = false
            }
            text.unicodeScalars.append(scalar)
        }
        return text
    }

    /// `name` with every character a reader cannot tell apart written as
    /// `\u{XXXX}`: white space other than a plain space, invisible
    /// characters, and combining marks (which another normalisation writes
    /// precomposed): `Apple\u{00A0}Watch`.
    package static func visible(_ name: String) -> String {
        var text = ""
        for scalar in name.unicodeScalars {
            let properties = scalar.properties
            if scalar == " " || (scalar.isASCII && !properties.isWhitespace && scalar.value >= 0x20 && scalar.value != 0x7F) {
                text.unicodeScalars.append(scalar)
            } else if properties.isWhitespace || properties.isDefaultIgnorableCodePoint
                        || properties.generalCategory == .nonspacingMark || properties.generalCategory == .control
                        || properties.generalCategory == .format {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                text += "\\u{" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "}"
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    /// The names among `names` that look like another one, in groups (each
    /// group's names in byte order, the groups by their first name); names
    /// with no look-alike are left out.
    package static func lookAlikeGroups(_ names: [String]) -> [[String]] {
        var groups: [String: [String]] = [:]
        for name in names { groups[lookAlikeKey(name), default: []].append(name) }
        return groups.values.filter { $0.count > 1 }
            .map { $0.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
            .sorted { $0[0].utf8.lexicographicallyPrecedes($1[0].utf8) }
    }
}
