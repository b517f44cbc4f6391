/// Escaping for text from the data (source names, activity types, task ids,
/// errors) in HTML and SVG, as element text and as attribute values.
enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by entities, and control
    /// characters other than tab and newline dropped.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
