import DuneTools

/// What a file looks like from its first bytes, so that a command given the
/// wrong kind of file says so once — "this is a CSV file" — instead of
/// rejecting each of its lines with a reason that does not help (issue 35,
/// items 10 and 11). A guess for advice only: no command decides what to
/// read from it.
enum FileLook: Equatable {
    /// JSON lines whose first line is an object: `ingest`'s input.
    case jsonLines
    /// A DuneEvents log: the first line has `seq` and ends with its `crc`.
    case eventLog
    /// One JSON document over many lines (or one array); `healthAutoExport`
    /// when it has the `data` object with `metrics` or `workouts` of the
    /// Health Auto Export app.
    case jsonDocument(healthAutoExport: Bool)
    /// Comma-separated values; `header` is the start of the first line.
    case csv(header: String)
    /// An XML document; `healthExport` when it is the Health app's export.xml.
    case xml(healthExport: Bool)
    /// None of these (or empty).
    case other

    /// How many leading bytes are read to guess.
    static let prefixBytes = 16_384

    /// The look of the regular file at `path`; `nil` when it cannot be read (stdin, a pipe, missing).
    static func of(path: String) -> FileLook? {
        guard path != "-", let bytes = ProcessCalls.prefix(of: path, count: prefixBytes) else { return nil }
        return of(bytes: bytes)
    }

    /// The look of a file that starts with `bytes`.
    static func of(bytes: [UInt8]) -> FileLook {
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        guard start < bytes.count else { return .other }
        let rest = bytes[start...]
        let lineEnd = rest.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
        var firstLine = String(decoding: bytes[start..<lineEnd], as: UTF8.self)
        while firstLine.last == "\r" || firstLine.last == " " { firstLine.removeLast() }
        let text = String(decoding: rest, as: UTF8.self)
        switch bytes[start] {
        case UInt8(ascii: "<"):
            return .xml(healthExport: text.contains("<HealthData") || text.contains("HealthKit Export"))
        case UInt8(ascii: "["):
            return .jsonDocument(healthAutoExport: false)
        case UInt8(ascii: "{"):
            // `{` alone on the first line is a pretty-printed document; anything else is taken for
            // JSON lines (a cut or damaged first line is that line's own rejection, not a format).
            if firstLine == "{" {
                let autoExport = text.contains("\"data\"") && (text.contains("\"metrics\"") || text.contains("\"workouts\""))
                return .jsonDocument(healthAutoExport: autoExport)
            }
            if firstLine.contains("\"seq\":"), firstLine.contains(",\"crc\":\"") { return .eventLog }
            return .jsonLines
        default:
            // CSV: a header with separators and no JSON in it, and a second line with as many separators.
            let lines = text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: true)
            func separators(_ line: Substring) -> Int { line.filter { $0 == "," || $0 == ";" }.count }
            if !firstLine.contains("{"), !firstLine.contains("\"type\""), let header = lines.first, separators(header) > 0,
               lines.count < 2 || separators(lines[1]) == separators(header) {
                let header = firstLine.count > 60 ? String(firstLine.prefix(60)) + "…" : firstLine
                return .csv(header: header)
            }
            return .other
        }
    }

    /// What `ingest` (JSON lines) says about an input of this look before
    /// reading it; `nil` when it looks like what `ingest` reads.
    func ingestAdvice(input: String) -> String? {
        switch self {
        case .jsonLines, .other:
            return nil
        case .xml(healthExport: true):
            return "this is the Health app's export.xml, not JSON lines: import it with 'dune-replay ingest --format apple-health \(input.terminalSafe)'"
        case .xml(healthExport: false):
            return "this is an XML document, not JSON lines (one JSON object per line, docs/input-format.md); the one XML input ingest reads is the Health app's export.xml, with --format apple-health"
        case .jsonDocument(healthAutoExport: true):
            return "this is one JSON document (it looks like a Health Auto Export file), not JSON lines; ingest does not read that format: export from the Health app (profile › Export All Health Data) and import export.xml with --format apple-health, or write one JSON object per sample per line (docs/input-format.md)"
        case .jsonDocument(healthAutoExport: false):
            return "this is one JSON document over many lines, not JSON lines: write each event as one JSON object on its own line (docs/input-format.md)"
        case .csv(let header):
            return "this looks like CSV (first line: \(header.terminalSafe)), not JSON lines; ingest does not read CSV: convert each row to JSON lines as docs/input-format.md describes (Scripts/whoop_to_input.py does it for a WHOOP export)"
        case .eventLog:
            return "this is a DuneEvents log (lines with seq and crc), not ingest input; a log is read with --log \(input.terminalSafe)"
        }
    }

    /// What `ingest --format apple-health` says about an input of this look;
    /// `nil` when it looks like XML.
    func appleHealthAdvice(input: String) -> String? {
        switch self {
        case .xml, .other:
            return nil
        case .jsonLines:
            return "this is JSON lines (its first line is a JSON object), not the Health app's export.xml: ingest it without --format apple-health"
        case .jsonDocument(let autoExport):
            return "this is a JSON document\(autoExport ? " (it looks like a Health Auto Export file)" : ""), not the Health app's export.xml; --format apple-health reads the export.xml inside the Health app's export.zip"
        case .csv:
            return "this looks like CSV, not the Health app's export.xml; --format apple-health reads the export.xml inside the Health app's export.zip"
        case .eventLog:
            return "this is a DuneEvents log, not the Health app's export.xml; a log is read with --log \(input.terminalSafe)"
        }
    }

    /// What a command reading a log says when the log at `path` fails to read
    /// and does not look like a log at all; `nil` when it does (real damage).
    static func logAdvice(path: String) -> String? {
        guard let look = of(path: path) else { return nil }
        let what = "'\(path.terminalSafe)'"
        switch look {
        case .eventLog, .other:
            return nil
        case .jsonLines:
            return "\(what) is not a log: its lines have no seq and crc; it looks like ingest input. Append it to a log with 'dune-replay ingest --log LOG \(path.terminalSafe)', then read LOG."
        case .xml, .jsonDocument, .csv:
            return "\(what) is not a log (it looks like \(look.noun)); import the data into a log with 'dune-replay ingest' first (see its --help)."
        }
    }

    /// A few words for this look: "a CSV file".
    var noun: String {
        switch self {
        case .jsonLines: "JSON lines"
        case .eventLog: "a DuneEvents log"
        case .jsonDocument(let autoExport): autoExport ? "a Health Auto Export JSON file" : "a JSON document"
        case .csv: "a CSV file"
        case .xml(let health): health ? "the Health app's export.xml" : "an XML document"
        case .other: "an unknown format"
        }
    }
}
