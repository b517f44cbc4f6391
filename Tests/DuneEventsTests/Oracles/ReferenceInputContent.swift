@testable import DuneEvents

/// The reference builder of an input line's canonical content, kept in the
/// tests as the oracle of `InputContent` (`ContentIdentityTests`): the line's
/// parsed JSON object as written, without `eventID`, its timestamps respelled
/// canonically (`Z` = `+00:00`, `.5` = `.500`), an hrv sample's `measure`
/// filled in by the source rule when the line has none, written by `JSONWriter`.
/// It reads the members from the parsed object, not from the validated
/// values the product builds the content from.
enum ReferenceInputContent {
    /// The content of `line`, which the parser accepted as `command`.
    static func content(of line: String, command: IngestCommand) throws -> [UInt8] {
        let value = try Array(line.utf8).withUnsafeBytes { try JSONParser.parse($0) }
        guard case .object(let object) = value else { throw Unexpected() }
        var canonical = object.removing(["eventID"])
        // The members the command's type reads as timestamps (another is an unknown member, kept as written).
        let timestamps: [String]
        switch command.intent {
        case .sample: timestamps = ["start", "end"]
        case .deleteSample, .refresh, .task, .profile: timestamps = ["at"]
        case .syncAnchor: timestamps = []
        }
        for key in timestamps {
            guard case .string(let text)? = canonical[key] else { throw Unexpected() }
            canonical[key] = .string(try Timestamp(parsing: text).canonicalText)
        }
        // An hrv sample's content always names its measure: the line's, else the source's (SPEC §11.1).
        if case .sample = command.intent, canonical["kind"] == .string("hrv"), canonical["measure"] == nil,
           case .string(let source)? = canonical["source"] {
            let lowered = source.lowercased()
            canonical["measure"] = .string(lowered.contains("oura") || lowered.contains("whoop") ? "rmssd" : "sdnn")
        }
        var bytes: [UInt8] = []
        JSONWriter.write(.object(canonical), into: &bytes)
        return bytes
    }

    struct Unexpected: Error {}
}
