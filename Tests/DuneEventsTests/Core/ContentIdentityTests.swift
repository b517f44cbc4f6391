import Testing
@testable import DuneEvents
@testable import DuneTools
import DuneFixtures

/// The canonical content of an input line has one builder, `InputContent`,
/// which every path reaches with the values it holds: the reference parser,
/// the fast ones (from the line's bytes) and a stored event
/// (`Event.inputContent`, when the deciders' state is replayed from the log).
/// Idempotency after a restart needs them equal; this checks each of them
/// against `ReferenceInputContent` (built from the parsed JSON object, not
/// from validated values) on generated, extreme and hand-written input.
@Suite struct ContentIdentityTests {
    static let recordedAt = Timestamp(epochSeconds: 1_790_000_000, offsetSeconds: 0)

    static let inputLines: [String] = SyntheticHealthData(days: 20, seed: 21, density: 2).lines()
        + ExtremeInput.Case.allCases.filter { $0 != .longStrings }.flatMap { ExtremeInput.lines($0, count: 300, seed: 5) }
        + ExtremeInput.lines(.longStrings, count: 20, seed: 5)
        + FastDecoderTests.handWrittenInput

    /// Every accepted line: the fast and reference parsers give the
    /// reference content, and the event stored for it gives it back after a
    /// round trip through its stored line.
    @Test func storedEventsGiveBackTheContentOfTheirLine() throws {
        var checked = 0
        for line in Self.inputLines {
            guard let command = try? InputParser.parse(line) else { continue }
            let reference = try Array(line.utf8).withUnsafeBytes { buffer in
                Result { () throws(InputParser.Rejection) in try InputParser.parseGeneral(buffer) }
            }.get()
            let expected = try ReferenceInputContent.content(of: line, command: command)
            #expect(command.content == expected, "\(line.prefix(200))")
            #expect(reference.content == expected, "\(line.prefix(200))")
            // A deletion of a sample this fresh state never saw stores nothing.
            guard let event = IngestState().decide(command).events.last else { continue }
            let stored = EventCodec.encodeLine(RecordedEvent(seq: 1, id: "x", recordedAt: Self.recordedAt, event: event))
            let decoded = try stored.dropLast().withUnsafeBytes { try EventCodec.decode($0) }
            #expect(decoded.event.inputContent == expected, "\(line.prefix(200))")
            checked += 1
        }
        #expect(checked > 5_000, "\(checked) lines checked")
    }

    /// Swift compares strings by canonical equivalence, so `init(rawValue:)`
    /// takes U+212A KELVIN SIGN for the `K` of `healthKitObserver`. The parser
    /// asks for the exact bytes instead: such a line is rejected with its
    /// reason (by the reference parser, after the fast one declines it),
    /// rather than accepted with a content that no stored event gives back.
    @Test func anEnumerationSpelledWithACanonicalEquivalentIsRejected() throws {
        let kelvin = #"{"type":"refresh","source":"health"# + "\u{212A}" + #"itObserver","kind":"hrv","at":"2026-03-04T08:00:00Z","eventID":"r-1"}"#
        #expect("health\u{212A}itObserver" == "healthKitObserver", "the canonical equivalence this test is about")
        #expect(ByteView.with(kelvin) { InputParser.parseSignal($0) } == nil)
        let rejection = #expect(throws: InputParser.Rejection.self) { try InputParser.parse(kelvin) }
        #expect(rejection?.code == .unknownName && rejection?.field == "source", "\(String(describing: rejection))")
        let ascii = kelvin.replacingOccurrences(of: "\u{212A}", with: "K")
        let command = try InputParser.parse(ascii)
        let event = try #require(IngestState().decide(command).events.last)
        #expect(event.inputContent == command.content)
    }
}
