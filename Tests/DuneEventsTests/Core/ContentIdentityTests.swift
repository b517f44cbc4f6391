import Testing
@testable import DuneEvents
import DuneFixtures

/// The canonical content of an input line has two builders: the parser's
/// (`IngestCommand.content`: the parsed object without `eventID`, timestamps
/// respelled; the fast paths write the same bytes) and the stored event's
/// (`Event.inputContent`: rebuilt from the typed values and `extra` when the
/// deciders' state is replayed from the log). Idempotency after a restart
/// needs them equal; this checks them on generated and extreme input.
@Suite struct ContentIdentityTests {
    static let recordedAt = Timestamp(epochSeconds: 1_790_000_000, offsetSeconds: 0)

    static let inputLines: [String] = SyntheticHealthData(days: 20, seed: 21, density: 2).lines()
        + ExtremeInput.Case.allCases.filter { $0 != .longStrings }.flatMap { ExtremeInput.lines($0, count: 300, seed: 5) }
        + ExtremeInput.lines(.longStrings, count: 20, seed: 5)
        + FastDecoderTests.handWrittenInput

    /// Every accepted line: the fast and reference parsers give the same
    /// content, and the event stored for it gives it back after a round trip
    /// through its stored line.
    @Test func storedEventsGiveBackTheContentOfTheirLine() throws {
        var checked = 0
        for line in Self.inputLines {
            guard let command = try? InputParser.parse(line) else { continue }
            let reference = try Array(line.utf8).withUnsafeBytes { buffer in
                Result { () throws(InputParser.Rejection) in try InputParser.parseReference(buffer) }
            }.get()
            #expect(command.content == reference.content, "\(line.prefix(200))")
            // A deletion of a sample this fresh state never saw stores nothing.
            guard let event = IngestState().decide(command).events.last else { continue }
            let stored = EventCodec.encodeLine(RecordedEvent(seq: 1, id: "x", recordedAt: Self.recordedAt, event: event))
            let decoded = try stored.dropLast().withUnsafeBytes { try EventCodec.decode($0) }
            #expect(decoded.event.inputContent == command.content, "\(line.prefix(200))")
            checked += 1
        }
        #expect(checked > 5_000, "\(checked) lines checked")
    }

    /// Known difference: Swift compares strings by canonical equivalence, so
    /// an enumeration value spelled with a character canonically equal to an
    /// ASCII letter (U+212A KELVIN SIGN for the `K` of `healthKitObserver`)
    /// is accepted, the parser's content keeps it as written, and the stored
    /// event gives back the raw value's ASCII spelling: after a restart, a retry
    /// of the same line with its `eventID` is answered as a conflict. Building
    /// the parser's content from the typed values would fix it and change
    /// ingest behaviour for such lines, so it is left for a decision.
    @Test func anEnumerationSpelledWithACanonicalEquivalentIsStoredAsItsRawValue() throws {
        let line = #"{"type":"refresh","source":"health"# + "\u{212A}" + #"itObserver","kind":"hrv","at":"2026-03-04T08:00:00Z","eventID":"r-1"}"#
        let command = try InputParser.parse(line)
        guard case .refresh(let request) = command.intent else { Issue.record("not a refresh: \(command.intent)"); return }
        #expect(request.source == .healthKitObserver)
        let event = try #require(IngestState().decide(command).events.last)
        withKnownIssue("the parser keeps the spelling as written; the stored event gives back the raw value") {
            #expect(event.inputContent == command.content)
        }
    }
}
