/// Text from the data (source names, ids, activity types, task ids, errors,
/// record types) made safe to print on a terminal.
///
/// A name in someone's health data can hold any character: an escape sequence
/// that recolours or rewrites the terminal of whoever debugs the log, a bell,
/// a carriage return that overwrites the line, a bidirectional override that
/// shows the text in another order than it is stored. The human-readable
/// output writes each such character visibly as `\u{1B}` (its code point in
/// hex) and leaves the data itself as it was stored; `--json` output keeps
/// JSON's own escaping instead.
enum TerminalText {
    /// Whether `scalar` is written escaped: C0 controls (tab and newline too:
    /// one field stays on one line), DEL, C1 controls, the line and paragraph
    /// separators, and the bidirectional marks, embeddings, overrides and isolates.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `text` with every character of ``needsEscape(_:)`` written as `\u{HEX}`.
    static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

extension String {
    /// This text from the data, safe for a terminal (``TerminalText/escape(_:)``).
    var terminalSafe: String { TerminalText.escape(self) }
}
