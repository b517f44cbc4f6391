import Foundation
import Testing
@testable import DuneEvents
import DuneFixtures
@testable import DuneTools

/// The fast ingest path against the reference: `InputParser.parseSample`
/// against `JSONParser` + `InputRules.command(from:)` on generated and
/// randomly damaged input lines, `EventCodec.appendLine` against
/// `ReferenceEventEncoder` on the events of the generated log.
@Suite struct FastIngestTests {
    static let inputLines: [String] = SyntheticHealthData(days: 40, seed: 9, density: 2).lines() + FastDecoderTests.handWrittenInput + [
        #"{"type":"sample","kind":"stepCount","id":"s-1","start":"2026-03-01T07:00:00Z","end":"2026-03-01T07:10:00Z","value":-0,"unit":"count","source":"iPhone"}"#,
        #"{"kind":"stepCount","type":"sample","id":"s-2","end":"2026-03-01T07:10:00Z","start":"2026-03-01T07:00:00Z","source":"Jürgen","unit":"count","value":12.50}"#,
        #"{"type":"sample","kind":"hrv","id":"h-1","start":"2026-03-01T07:00:00Z","end":"2026-03-01T06:00:00Z","value":40,"unit":"ms","source":"W"}"#,
        #"{"type":"sample","kind":"hrv","id":"","start":"2026-03-01T07:00:00Z","end":"2026-03-01T07:00:00Z","value":40,"unit":"ms","source":"W"}"#,
        #"{"type":"sample","kind":"hrv","id":"h-2","start":"2026-03-01T07:00:00Z","end":"2026-03-01T07:00:00Z","value":4000,"unit":"ms","source":"W"}"#,
        #"{"type":"sample","kind":"bodyMass","id":"b-1","start":"2026-03-01T07:00:00Z","end":"2026-03-01T07:00:00Z","value":80000,"unit":"g","source":"W","eventID":"k"}"#,
        #"{"type":"sample","kind":"sleep","id":"z-1","start":"2026-03-01T07:00:00Z","end":"2026-03-02T08:00:00Z","value":"asleepCore","source":"W"}"#,
        #"{"type":"sample","kind":"sleep","id":"z-2","start":"2026-03-01T07:00:00Z","end":"2026-03-01T08:00:00Z","value":"awake","unit":"x","source":"W"}"#,
        #" {"type":"sample","kind":"hrv","id":"h-3","start":"2026-03-01T07:00:00Z","end":"2026-03-01T07:00:00Z","value":40,"unit":"ms","source":"W"} "#,
        // hrv `measure` (SPEC §11.1): named, or by the source rule; unknown, on another kind, twice, not a string.
        #"{"type":"sample","kind":"hrv","id":"8264d208-f9ae-4bcc-ac75-d0a4fcc88751","start":"2026-03-01T07:00:00Z","end":"2026-03-01T07:00:00Z","value":40,"unit":"ms","source":"Oura","measure":"rmssd"}"#,
        #"{"type":"sample","kind":"hrv","id":"8264d208-f9ae-4bcc-ac75-d0a4fcc88752","start":"2026-03-01T07:00:00Z","end":"2026-03-01T07:00:00Z","value":40,"unit":"ms","source":"Oura","measure":"sdnn"}"#,
        #"{"measure":"rmssd","type":"sample","kind":"hrv","id":"h-4","start":"2026-03-01T07:00:00Z","end":"2026-03-01T07:00:00Z","value":40,"unit":"ms","source":"W","eventID":"m-1"}"#,
        #"{"type":"sample","kind":"hrv","id":"h-5","start":"2026-03-01T07:00:00Z","end":"2026-03-01T07:00:00Z","value":40,"unit":"ms","source":"WHOOP 4.0"}"#,
        #"{"type":"sample","kind":"hrv","id":"h-6","start":"2026-03-01T07:00:00Z","end":"2026-03-01T07:00:00Z","value":40,"unit":"ms","source":"W","measure":"RMSSD"}"#,
        #"{"type":"sample","kind":"hrv","id":"h-7","start":"2026-03-01T07:00:00Z","end":"2026-03-01T07:00:00Z","value":40,"unit":"ms","source":"W","measure":1}"#,
        #"{"type":"sample","kind":"hrv","id":"h-8","start":"2026-03-01T07:00:00Z","end":"2026-03-01T07:00:00Z","value":40,"unit":"ms","source":"W","measure":"sdnn","measure":"sdnn"}"#,
        #"{"type":"sample","kind":"restingHeartRate","id":"r-9","start":"2026-03-01T07:00:00Z","end":"2026-03-01T07:00:00Z","value":40,"unit":"bpm","source":"Oura","measure":"rmssd"}"#,
        #"{"type":"sample","kind":"sleep","id":"z-3","start":"2026-03-01T07:00:00Z","end":"2026-03-01T08:00:00Z","value":"awake","source":"W","measure":"sdnn"}"#,
        // Signal lines (`InputParser.parseSignal`): the common ones, and ones only the reference takes or words.
        #"{"type":"refresh","source":"foreground","at":"2026-01-05T07:03:26.297+01:00"}"#,
        #"{"at":"2026-01-05T07:03:27.721+01:00","kind":"sleep","source":"healthKitObserver","type":"refresh","eventID":"r-1"}"#,
        #"{"type":"refresh","source":"healthKitObserver","at":"2026-01-05T07:03:27.721+01:00"}"#,
        #"{"type":"refresh","source":"pullToRefresh","kind":"workout","at":"2026-01-05T07:03:27Z"}"#,
        #"{"type":"refresh","source":"elsewhere","at":"2026-01-05T07:03:27.721+01:00"}"#,
        #"{"type":"refresh","source":"foreground","at":"2026-01-05T07:03:27.7+01:00"}"#,
        #"{"type":"refresh","source":"foreground","at":"2026-01-05T07:03:27.721+01:00","note":"kept"}"#,
        #"{"type":"task","task":"readiness-1","feature":"readiness","phase":"started","at":"2026-01-05T07:03:26.339+01:00"}"#,
        #"{"type":"task","task":"readiness-1","feature":"readiness","phase":"failed","at":"2026-01-05T07:03:29.085+01:00","error":"HealthKit query timed out after 10 s"}"#,
        #"{"type":"task","task":"t-é","feature":"trends","phase":"failed","at":"2026-01-05T07:03:29.085+01:00","error":""}"#,
        #"{"type":"task","task":"","feature":"trends","phase":"started","at":"2026-01-05T07:03:29.085+01:00"}"#,
        #"{"type":"task","task":"t","feature":"trends","phase":"paused","at":"2026-01-05T07:03:29.085+01:00"}"#,
        #"{"type":"task","task":"t","feature":"trends","phase":"started","at":"1899-12-31T23:59:59Z"}"#,
        #"{"type":"task","task":"t","feature":"trends","phase":"cancelled","source":"foreground","at":"2026-01-05T07:03:29Z"}"#,
        #"{"type":"task","task":"t\u0041","feature":"trends","phase":"started","at":"2026-01-05T07:03:29Z"}"#,
    ] + TimestampWindowTests.edgeLines

    static func reference(_ line: [UInt8]) -> Result<IngestCommand, InputParser.Rejection> {
        line.withUnsafeBytes { bytes in Result { () throws(InputParser.Rejection) in try InputParser.parseGeneral(bytes) } }
    }

    static func fast(_ line: [UInt8]) -> IngestCommand? {
        ByteView.with(line) { InputParser.parseSample($0) ?? InputParser.parseSignal($0) }
    }

    @Test func fastParserAcceptsTheCommonLinesWithTheReferenceResult() throws {
        var handled = 0
        for text in Self.inputLines {
            let line = Array(text.utf8)
            guard let fast = Self.fast(line) else { continue }
            #expect(Self.reference(line) == .success(fast), "\(text)")
            handled += 1
        }
        #expect(handled * 100 >= Self.inputLines.count * 80, "fast path took \(handled) of \(Self.inputLines.count)")
        // The signal lines (refresh, task) have their own fast path, and the generator writes many.
        let signals = Self.inputLines.count { text in ByteView.with(text) { InputParser.parseSignal($0) } != nil }
        #expect(signals > 100, "parseSignal took \(signals) lines")
        // The public entry point gives the reference's result for every line, accepted or not.
        for text in Self.inputLines {
            let line = Array(text.utf8)
            let public_ = line.withUnsafeBytes { bytes in Result { () throws(InputParser.Rejection) in try InputParser.parse(bytes) } }
            #expect(public_ == Self.reference(line), "\(text)")
        }
    }

    @Test func damagedInputLinesGetTheReferenceCommandOrAreDeclined() throws {
        var random = SplitMix(seed: 0x1A9E)
        let alphabet = Array(#"0123456789.-+eE:TZ" {}[],\abcxyzé"#.utf8) + [0x00, 0x1F, 0x80, 0xFF]
        var accepted = 0
        for round in 0..<15_000 {
            var line = Array(Self.inputLines[Int(random.next() % UInt64(Self.inputLines.count))].utf8)
            for _ in 0..<(1 + Int(random.next() % 2)) {
                let position = Int(random.next() % UInt64(line.count))
                switch random.next() % 4 {
                case 0: line[position] = alphabet[Int(random.next() % UInt64(alphabet.count))]
                case 1: line.remove(at: position)
                case 2: line.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: position)
                default: line[position] = line[position] ^ (1 << UInt8(random.next() % 7))
                }
                if line.isEmpty { line = [UInt8(ascii: "{")] }
            }
            if let fast = Self.fast(line) {
                #expect(Self.reference(line) == .success(fast), "round \(round): \(String(decoding: line, as: UTF8.self))")
                accepted += 1
            }
        }
        #expect(accepted > 1000)
    }

    @Test func fastEncoderWritesTheReferenceBytes() throws {
        let events = try FastDecoderTests.corpus.map { try FastDecoderTests.reference($0).get() }
        for event in events {
            var bytes: [UInt8] = Array("prefix".utf8)
            EventCodec.appendLine(event, to: &bytes)
            #expect(Array(bytes.dropFirst(6)) == ReferenceEventEncoder.line(event), "seq \(event.seq)")
        }
        // Odd values the corpus may lack: escapes, non-canonical units, extra members, negative zero.
        let odd = Event(.sampleIngested(Sample(id: "q\"uote\\d\u{1}", kind: .stepCount, start: FastDecoderTests.recordedAt(1),
                                                 end: FastDecoderTests.recordedAt(2), source: "tab\tnewline\n",
                                                 reading: .quantity(Quantity(value: -0.0, inputValue: 1e-7, inputUnit: "steps")))),
                        eventID: "e\u{7f}", extra: JSONObject([JSONMember("z", .array([.null, .bool(true)])), JSONMember("a", .number(0.1))]))
        let recorded = RecordedEvent(seq: 7, id: "not-a-uuid", recordedAt: FastDecoderTests.recordedAt(3), event: odd)
        var bytes: [UInt8] = []
        EventCodec.appendLine(recorded, to: &bytes)
        #expect(bytes == ReferenceEventEncoder.line(recorded))
        // Refresh and task events with every optional member, escapes, and extra members.
        let at = FastDecoderTests.recordedAt(4)
        let signals: [Event] = [
            Event(.refreshRequested(RefreshRecord(source: .healthKitObserver, kind: .hrv, at: at, outcome: .throttled,
                                                  reason: .typeThrottle, refreshSignal: 12)), eventID: "r\"1"),
            Event(.refreshRequested(RefreshRecord(source: .foreground, kind: nil, at: at, outcome: .performed, reason: nil,
                                                  refreshSignal: 0))),
            Event(.task(TaskRecord(task: "t\\1", feature: "tr\u{1}ends", phase: .cancelled, requestedPhase: .started, at: at,
                                   error: "timed \"out\"\n", reason: .superseded, supersededBy: "t-2")), eventID: "e"),
            Event(.task(TaskRecord(task: "t", feature: "f", phase: .completed, at: at))),
            Event(.task(TaskRecord(task: "t", feature: "f", phase: .failed, at: at, error: "")),
                  extra: JSONObject([JSONMember("note", .string("kept"))])),
        ]
        for (index, signal) in signals.enumerated() {
            let recorded = RecordedEvent(seq: 8 + index, id: "01a20a72-da90-7a09-a39d-ba05882bf5ac", recordedAt: at, event: signal)
            var bytes: [UInt8] = []
            EventCodec.appendLine(recorded, to: &bytes)
            #expect(bytes == ReferenceEventEncoder.line(recorded), "signal \(index)")
        }
    }

    /// Rejections and stored lines (without event id, recordedAt and CRC) of one ingest.
    struct IngestRecord: Equatable {
        var summary: IngestSession.Summary
        var rejections: [String]
        var lines: [String]
    }

    final class Rejections: @unchecked Sendable {
        var all: [String] = []
    }

    func ingest(_ input: String, into path: String, classic: Bool) async throws -> IngestRecord {
        let log = try EventLog(path: path)
        let rejections = Rejections()
        var session = IngestSession(log: log, batchSize: 700, onRejection: { rejections.all.append($0.description) })
        if classic { session.onAppended = { _ in } }  // hands events on: every line becomes a command
        let reader = try InputLineReader(path: input)
        while let line = try reader.next() { try await session.submit(line: line, input: "input") }
        let summary = try await session.finish()
        await log.close()
        let lines = try logTestRead(path).split(separator: UInt8(ascii: "\n")).map { line -> String in
            let text = String(decoding: line, as: UTF8.self)
            let id = text.range(of: #","id":""#)!.upperBound
            let type = text.range(of: #"","type":"#)!.lowerBound
            let data = text.range(of: #","data":"#)!.lowerBound
            let crc = text.range(of: #","crc":""#, options: .backwards)!.lowerBound
            return String(text[..<id]) + String(text[type..<text.range(of: #","recordedAt":"#)!.lowerBound]) + String(text[data..<crc])
        }
        return IngestRecord(summary: summary, rejections: rejections.all, lines: lines)
    }

    @Test func preparedSamplesWriteWhatCommandsWrite() async throws {
        try await withTemporaryDirectory { directory in
            var random = SplitMix(seed: 0x9E9A)
            var lines = Self.inputLines
            // Damage one line in fifty, and send a few twice (idempotency through both paths).
            for index in lines.indices where random.next() % 50 == 0 {
                var bytes = Array(lines[index].utf8)
                bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(ascii: "#")
                lines[index] = String(decoding: bytes, as: UTF8.self)
            }
            lines += lines.prefix(300)
            let input = directory + "/input.jsonl"
            try logTestWrite(input, Array(lines.joined(separator: "\n").utf8))
            let prepared = try await ingest(input, into: directory + "/prepared.jsonl", classic: false)
            let classic = try await ingest(input, into: directory + "/classic.jsonl", classic: true)
            #expect(prepared.summary == classic.summary)
            #expect(prepared.rejections == classic.rejections)
            #expect(prepared.lines == classic.lines)
            #expect(prepared.summary.appended > 5_000 && prepared.summary.rejected > 50 && prepared.summary.alreadyAppended > 200, "\(prepared.summary)")
        }
    }

    @Test func contentDigestsSeparateNearContents() {
        var seen = Set<ContentDigest>()
        var base = Array(#"{"end":"2026-03-01T07:10:00Z","id":"s-1","kind":"stepCount"}"#.utf8)
        for index in 0..<base.count {
            for delta: UInt8 in [1, 2, 0x80] {
                base[index] ^= delta
                seen.insert(ContentDigest(base))
                base[index] ^= delta
            }
        }
        for length in 0...base.count { seen.insert(ContentDigest(base.prefix(length))) }
        #expect(seen.count == base.count * 3 + base.count + 1)
        #expect(ContentDigest(base) == ContentDigest(string: String(decoding: base, as: UTF8.self)))
    }
}
