import Testing
@testable import DuneEvents
import DuneFixtures
import DuneOracles
@testable import DuneTools

/// The fast read path against the reference: `StoredLineScanner` and the
/// packed batch forms against `EventCodec.decode`, the chunked parallel reader
/// against the line-by-line reference reader — on generated lines, on lines
/// with random damage, and on whole logs cut into chunks of every size.
@Suite struct FastDecoderTests {
    // MARK: - Corpus

    /// Stored lines of 45 generated days plus hand-written events that take
    /// every rare path (non-UUID ids, converted units, workouts, eventIDs,
    /// extra members, non-canonical timestamps, escapes, non-ASCII, hrv
    /// measures), with samples of both versions of `sample.ingested`.
    static let corpus: [[UInt8]] = {
        var state = IngestState()
        var events: [RecordedEvent] = []
        func append(_ event: Event, content: [UInt8]?) {
            let seq = events.count + 1
            let recorded = RecordedEvent(seq: seq, id: eventID(seq), recordedAt: recordedAt(seq), event: event)
            state.evolve(with: recorded, content: content)
            events.append(recorded)
        }
        for text in SyntheticHealthData(days: 45, seed: 7, density: 2).lines() + handWrittenInput {
            guard let command = try? InputParser.parse(text) else { continue }
            let decision = state.decide(command)
            for (index, event) in decision.events.enumerated() {
                append(event, content: index == decision.events.count - 1 ? command.content : nil)
            }
        }
        // Every third sample line as the build before sample.ingested v2 wrote it (v1:
        // no measure), where that means the same measure: both versions in one log.
        for index in events.indices where events[index].seq % 3 == 0 {
            guard case .sampleIngested(let sample) = events[index].payload,
                  sample.hrvMeasure == nil || sample.hrvMeasure == HRVMeasure(source: sample.source) else { continue }
            events[index].storedVersion = 1
        }
        return events.map { Array(EventCodec.encodeLine($0).dropLast()) }
    }()

    static let handWrittenInput = [
        #"{"type":"sample","kind":"hrv","id":"hrv-1","start":"2026-03-01T06:00:00+01:00","end":"2026-03-01T06:00:00+01:00","value":48.2,"unit":"ms","source":"Apple Watch"}"#,
        #"{"type":"sample","kind":"hrv","id":"8264d208-f9ae-4bcc-ac75-d0a4fcc88761","start":"2026-03-01T06:00:00+01:00","end":"2026-03-01T06:00:00+01:00","value":71.2,"unit":"ms","source":"Oura Ring"}"#,
        #"{"type":"sample","kind":"hrv","id":"8264d208-f9ae-4bcc-ac75-d0a4fcc88762","start":"2026-03-01T06:00:00+01:00","end":"2026-03-01T06:00:00+01:00","value":66,"unit":"ms","source":"Apple Watch","measure":"rmssd","eventID":"m-2"}"#,
        #"{"type":"sample","kind":"hrv","id":"hrv-m","start":"2026-03-01T06:00:00+01:00","end":"2026-03-01T06:00:00+01:00","value":66,"unit":"ms","source":"WHOOP","measure":"sdnn"}"#,
        #"{"type":"sample","kind":"hrv","id":"8264d208-f9ae-4bcc-ac75-d0a4fcc88741","start":"2026-03-01T06:00:00.5+00:00","end":"2026-03-01T06:00:01Z","value":1e2,"unit":"ms","source":"Jürgen's Watch"}"#,
        #"{"type":"sample","kind":"bodyMass","id":"8264D208-F9AE-4BCC-AC75-D0A4FCC88742","start":"2026-03-01t07:00:00Z","end":"2026-03-01T07:00:00Z","value":180.5,"unit":"lb","source":"Scale \"Pro\""}"#,
        #"{"type":"sample","kind":"stepCount","id":"8264D208-F9AE-4BCC-AC75-D0A4FCC88743","start":"2026-03-01T07:00:00.123456+05:30","end":"2026-03-01T07:10:00-03:00","value":0.30000000000000004,"unit":"count","source":"iPhone","eventID":"e-1"}"#,
        #"{"type":"sample","kind":"stepCount","id":"8264D208-f9ae-4BCC-AC75-D0A4FCC88744","start":"2026-03-01T07:00:00Z","end":"2026-03-01T07:10:00Z","value":99999.99999999999,"unit":"count","source":"iPhone","note":"x"}"#,
        #"{"type":"sample","kind":"sleep","id":"8264D208-F9AE-4BCC-AC75-D0A4FCC88745","start":"2026-03-01T23:00:00.000+01:00","end":"2026-03-02T06:00:00+01:00","value":"asleepREM","source":"AutoSleep","eventID":"e-2"}"#,
        #"{"type":"sample","kind":"workout","id":"8264D208-F9AE-4BCC-AC75-D0A4FCC88746","start":"2026-03-02T17:00:00+01:00","end":"2026-03-02T18:00:00+01:00","activityType":"running","energy":2500,"energyUnit":"kJ","distance":6.2,"distanceUnit":"mi","source":"Apple Watch"}"#,
        #"{"type":"sample","kind":"workout","id":"8264D208-F9AE-4BCC-AC75-D0A4FCC88747","start":"2026-03-03T17:00:00+01:00","end":"2026-03-03T18:00:00+01:00","activityType":"traditionalStrengthTraining","volumeKg":4200,"source":"Apple Watch","indoor":true}"#,
        #"{"type":"sample","kind":"bodyFatPercentage","id":"8264D208-F9AE-4BCC-AC75-D0A4FCC88748","start":"2026-03-01T07:00:00Z","end":"2026-03-01T07:00:00Z","value":0.182,"unit":"%","source":"Withings"}"#,
        #"{"type":"sampleDeleted","id":"hrv-1","at":"2026-03-04T08:00:00+01:00"}"#,
        #"{"type":"refresh","source":"healthKitObserver","kind":"hrv","at":"2026-03-04T08:00:00.250+01:00","eventID":"r-1"}"#,
        #"{"type":"task","task":"t-1","feature":"readiness","phase":"started","at":"2026-03-04T08:00:01Z"}"#,
        #"{"type":"task","task":"t-2","feature":"readiness","phase":"started","at":"2026-03-04T08:00:02Z"}"#,
        #"{"type":"task","task":"t-2","feature":"readiness","phase":"failed","at":"2026-03-04T08:00:03Z","error":"Cancelled"}"#,
        #"{"type":"profile","sleepTargetMinutes":450.5,"at":"2026-03-04T08:00:04+01:00"}"#,
    ]

    /// A lowercase UUIDv7-shaped id for `seq` (event ids are not read by the decoder's logic).
    static func eventID(_ seq: Int) -> String {
        let hex = String(seq, radix: 16)
        let digits = String(repeating: "0", count: 12 - hex.count) + hex
        return "019a2b3c-4d5e-7f60-8a1b-" + digits
    }

    static func recordedAt(_ seq: Int) -> Timestamp {
        Timestamp(epochSeconds: 1_790_000_000 + Int64(seq), nanoseconds: Int32(seq % 1000) * 1_000_000, offsetSeconds: 0)
    }

    // MARK: - Line by line

    /// What the scanner made of `line`: the event, or `nil` when it declined.
    static func scan(_ line: [UInt8]) -> RecordedEvent? {
        var builder = EventBatchBuilder()
        let handled = ByteView.with(line) { StoredLineScanner().decode($0, into: &builder) }
        guard handled else { return nil }
        let batch = builder.build()
        return batch.count == 1 ? batch[0] : nil
    }

    static func reference(_ line: [UInt8]) -> Result<RecordedEvent, EventCodec.DecodeError> {
        line.withUnsafeBytes { bytes in Result { () throws(EventCodec.DecodeError) in try EventCodec.decode(bytes) } }
    }

    @Test func scannerDecodesEveryGeneratedLineLikeTheReference() throws {
        var handled = 0
        for line in Self.corpus {
            let expected = try Self.reference(line).get()
            if let fast = Self.scan(line) {
                #expect(fast == expected, "\(String(decoding: line, as: UTF8.self))")
                handled += 1
            }
        }
        // The scanner must carry the bulk: everything but the rare forms.
        #expect(handled * 100 >= Self.corpus.count * 95, "scanner handled \(handled) of \(Self.corpus.count)")
    }

    @Test func randomlyDamagedLinesGetTheSameEventOrAreDeclined() throws {
        var random = SplitMix(seed: 0xD1FF)
        let alphabet = Array(#"0123456789abcdefABCDEF-:.TZz+"\{}[],: e-Ée"#.utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xFF]
        var accepted = 0
        var declined = 0
        for round in 0..<12_000 {
            let original = Self.corpus[Int(random.next() % UInt64(Self.corpus.count))]
            guard let payloadLength = original.withUnsafeBytes({ StoredLine.payloadLength(of: $0) }) else { continue }
            var payload = Array(original[..<payloadLength])
            for _ in 0..<(1 + Int(random.next() % 3)) {
                let position = Int(random.next() % UInt64(payload.count))
                switch random.next() % 5 {
                case 0: payload[position] = alphabet[Int(random.next() % UInt64(alphabet.count))]
                case 1: payload.remove(at: position)
                case 2: payload.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: position)
                case 3 where position + 1 < payload.count: payload.swapAt(position, position + 1)
                default: payload[position] = payload[position] ^ (1 << UInt8(random.next() % 7))
                }
                if payload.isEmpty { payload = [UInt8(ascii: "{")] }
            }
            if payload.contains(UInt8(ascii: "\n")) { continue }
            StoredLine.seal(&payload)
            let line = Array(payload.dropLast())
            let reference = Self.reference(line)
            if let fast = Self.scan(line) {
                #expect(reference == .success(fast), "round \(round): \(String(decoding: line, as: UTF8.self))")
                accepted += 1
            } else {
                declined += 1
            }
        }
        #expect(accepted > 1000 && declined > 1000)
    }

    @Test func batchesRebuildEveryEventExactly() throws {
        let events = try Self.corpus.map { try Self.reference($0).get() }
        let batch = EventBatch(events)
        #expect(batch.events == events)
        #expect(batch.count == events.count)
        #expect(batch.firstSeq == 1 && batch.lastSeq == events.count)
        #expect(batch.slice(3..<9).events == Array(events[3..<9]))
        // `otherIndices` names exactly a slice's own non-sample events in the shared `others`.
        for (start, end) in [(0, events.count), (3, 9), (0, 1), (events.count - 5, events.count), (7, 7)] {
            let slice = batch.slice(start..<end)
            let expected = events[start..<end].filter { $0.type != .sampleIngested }
            #expect(slice.otherIndices.map { slice.others[$0] } == expected)
            #expect(slice.otherEvents == expected)
        }
        // Most samples pack into 64-byte rows; the rest are kept whole.
        #expect(batch.samples.fullSamples.count * 10 < batch.samples.count)
    }

    @Test func historyFiltersPackedRowsLikeWholeEvents() throws {
        let events = try Self.corpus.map { try Self.reference($0).get() }
        let batch = EventBatch(events)
        var random = SplitMix(seed: 0x4157)
        let days = events.map(\.occurredAt.localDate).sorted()
        let sampleIDs = events.compactMap(\.sampleID)
        for _ in 0..<120 {
            var filter = HistoryFilter()
            if random.next() % 2 == 0 { filter.kinds = [SampleKind.allCases[Int(random.next() % 8)]] }
            if random.next() % 3 == 0 { filter.types = [EventType.allCases[Int(random.next() % 8)]] }
            if random.next() % 2 == 0 { filter.since = days[Int(random.next() % UInt64(days.count))] }
            if random.next() % 3 == 0 { filter.until = days[Int(random.next() % UInt64(days.count))] }
            if random.next() % 5 == 0 { filter.sampleID = sampleIDs[Int(random.next() % UInt64(sampleIDs.count))] }
            if random.next() % 7 == 0 { filter.taskID = "t-1" }
            if random.next() % 4 == 0 {
                let low = 1 + Int(random.next() % UInt64(events.count))
                filter.seqs = low...(low + Int(random.next() % 500))
            }
            for position in 0..<batch.count {
                #expect(filter.matches(batch, at: position) == filter.matches(events[position]))
                if filter.matches(events[position]) { #expect(filter.canMatch(events[position].type)) }
            }
        }
    }

    @Test func literalsMatchTheirText() {
        #expect(Literal.version == Literal(#"{"v":"#))
        #expect(Literal.seq == Literal(#","seq":"#))
        #expect(Literal.measure == Literal(#","measure":""#))
        #expect(Literal.id == Literal(#","id":""#))
        #expect(Literal.type == Literal(#","type":""#))
        #expect(Literal.sampleIngested == Literal(#"sample.ingested""#))
        #expect(Literal.recordedAt == Literal(#","recordedAt":""#))
        #expect(Literal.data == Literal(#","data":"#))
        #expect(Literal.end == Literal(#"{"end":""#))
        #expect(Literal.kind == Literal(#","kind":""#))
        #expect(Literal.source == Literal(#","source":""#))
        #expect(Literal.start == Literal(#","start":""#))
        #expect(Literal.unit == Literal(#","unit":""#))
        #expect(Literal.stringValue == Literal(#","value":""#))
        #expect(Literal.numberValue == Literal(#","value":"#))
        #expect(Literal.unitMember == Literal(#""unit":""#))
        #expect(Literal.valueMember == Literal(#""value":"#))
    }

    @Test func packedTimestampsAcceptExactlyTheCanonicalTexts() throws {
        var random = SplitMix(seed: 0x7135)
        let bases = ["2026-01-05T06:51:44+01:00", "2026-11-22T01:46:42.746Z", "2024-02-29T23:59:59.999-11:30", "1999-12-31T00:00:00Z"]
        let alphabet = Array("0123456789-:T.Z+zt /;".utf8) + [0x80]
        for _ in 0..<20_000 {
            var bytes = Array(bases[Int(random.next() % 4)].utf8)
            for _ in 0..<Int(random.next() % 3) {
                bytes[Int(random.next() % UInt64(bytes.count))] = alphabet[Int(random.next() % UInt64(alphabet.count))]
            }
            let text = String(decoding: bytes, as: UTF8.self)
            var expected: PackedTimestamp?
            if Array(text.utf8) == bytes, let parsed = try? Timestamp(parsing: text), parsed.offsetSeconds % 60 == 0,
               Timestamp.format(epochSeconds: parsed.epochSeconds, nanoseconds: parsed.nanoseconds, offsetSeconds: parsed.offsetSeconds) == text {
                expected = PackedTimestamp(epochSeconds: parsed.epochSeconds, nanoseconds: parsed.nanoseconds,
                                           offsetMinutes: Int16(parsed.offsetSeconds / 60))
            }
            let padded = bytes + Array(#"","x":1}"#.utf8)  // the scanner may read past the text
            let packed = ByteView.with(padded) { PackedTimestamp(canonical: $0.subview(0..<bytes.count)) }
            #expect(packed == expected, "\(text)")
            if let packed { #expect(packed.timestamp.text == text) }
        }
    }

    @Test func packedUUIDsAcceptExactlyCanonicalIDs() {
        var random = SplitMix(seed: 0x01D)
        let alphabet = Array("0123456789abcdefABCDEFgG-/:@`{ ".utf8)
        for _ in 0..<20_000 {
            var bytes = Array((random.next() % 2 == 0 ? "8264D208-F9AE-4BCC-AC75-D0A4FCC88740" : "019a2b3c-4d5e-7f60-8a1b-00000000beef").utf8)
            for _ in 0..<Int(random.next() % 3) {
                bytes[Int(random.next() % 36)] = alphabet[Int(random.next() % UInt64(alphabet.count))]
            }
            let isHex = { (byte: UInt8) in (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte) }
            let shaped = bytes.indices.allSatisfy { [8, 13, 18, 23].contains($0) ? bytes[$0] == UInt8(ascii: "-") : isHex(bytes[$0]) }
            let mixed = bytes.contains { (0x41...0x46).contains($0) } && bytes.contains { (0x61...0x66).contains($0) }
            let text = String(decoding: bytes, as: UTF8.self)
            let packed = PackedUUID(text)
            #expect((packed != nil) == (shaped && !mixed), "\(text)")
            if let packed { #expect(packed.text == text) }
        }
    }

    // MARK: - Whole logs

    /// Writes `lines` as a log in a new directory and runs `body` with its path.
    func withLog<T>(_ lines: [[UInt8]], trailing: [UInt8] = [], _ body: (String) throws -> T) throws -> T {
        try withLogTestDirectory { directory in
            let path = directory + "/events.jsonl"
            try logTestWrite(path, lines.flatMap { $0 + [UInt8(ascii: "\n")] } + trailing)
            return try body(path)
        }
    }

    struct Outcome: Equatable {
        var events: [RecordedEvent]
        var end: LogReader.End?
        var error: DuneEventsError?
    }

    func fast(_ path: String, _ range: LogReader.Range = LogReader.Range(), chunkSize: Int, parallelism: Int) -> Outcome {
        var outcome = Outcome(events: [], end: nil, error: nil)
        do {
            outcome.end = try LogReader(path: path).forEachEventBatch(range, parallelism: parallelism, chunkSize: chunkSize) { batch in
                outcome.events += batch.events
            }
        } catch {
            outcome.error = error as? DuneEventsError
        }
        return outcome
    }

    func reference(_ path: String, after: Int = 0, through: Int = .max) -> Outcome {
        var outcome = Outcome(events: [], end: nil, error: nil)
        do {
            let end = try ReferenceLogReader.forEachBatch(path: path, batchSize: 1, after: after, through: through) { batch in
                outcome.events += batch
            }
            outcome.end = LogReader.End(validBytes: end.validBytes, lastSeq: end.lastSeq, lines: end.lines, trailingBytes: end.trailingBytes)
        } catch {
            outcome.error = error as? DuneEventsError
        }
        return outcome
    }

    static let chunkings: [(chunkSize: Int, parallelism: Int)] = [(1, 1), (97, 2), (1000, 3), (4096, 2), (1 << 22, 1)]

    @Test func chunkedParallelReadEqualsTheReferenceForEveryChunkSize() throws {
        let lines = Array(Self.corpus.prefix(1500))
        try withLog(lines, trailing: Array(#"{"v":1,"seq":1501,"torn"#.utf8)) { path in
            let expected = reference(path)
            #expect(expected.end?.trailingBytes ?? 0 > 0)
            for chunking in Self.chunkings {
                #expect(fast(path, chunkSize: chunking.chunkSize, parallelism: chunking.parallelism) == expected, "\(chunking)")
            }
            let ranges: [(Int, Int)] = [(0, 700), (699, .max), (1200, 1201), (1499, 1500)]
            for (after, through) in ranges {
                let expectedRange = reference(path, after: after, through: through)
                for chunking in Self.chunkings {
                    #expect(fast(path, LogReader.Range(after: after, throughSeq: through), chunkSize: chunking.chunkSize,
                                 parallelism: chunking.parallelism) == expectedRange, "\(after)…\(through) \(chunking)")
                }
            }
        }
    }

    @Test(arguments: ["crc", "uppercase-crc", "gap", "undecodable"])
    func damageStopsTheReadWithTheReferenceError(kind: String) throws {
        var lines = Array(Self.corpus.prefix(900))
        let damaged = 613
        switch kind {
        case "crc":
            lines[damaged][40] ^= 0x01
        case "uppercase-crc":
            // The same checksum in uppercase digits: not the stored form, so damage (the chunk
            // decoder reads the digits as one word and must refuse it as `CRC32.parseHex` does).
            var line = lines[damaged]
            for index in (line.count - 10)..<(line.count - 2) where (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(line[index]) {
                line[index] -= 0x20
            }
            try #require(line != lines[damaged])
            lines[damaged] = line
        case "gap":
            var payload = Array(EventCodec.encodeLine(RecordedEvent(seq: 999, id: Self.eventID(999), recordedAt: Self.recordedAt(999),
                                                                      event: try Self.reference(lines[damaged]).get().event)).dropLast())
            payload = Array(payload)
            lines[damaged] = payload
        default:
            var payload = Array(#"{"v":1,"seq":614,"id":"x","type":"sample.ingested","recordedAt":"2026-01-01T00:00:00Z","data":{}"#.utf8)
            StoredLine.seal(&payload)
            lines[damaged] = Array(payload.dropLast())
        }
        try withLog(lines) { path in
            let expected = reference(path)
            #expect(expected.error?.code == .corruptLog)
            #expect(expected.error?.location.line == damaged + 1)
            for chunking in Self.chunkings {
                let outcome = fast(path, chunkSize: chunking.chunkSize, parallelism: chunking.parallelism)
                #expect(outcome.error == expected.error, "\(chunking)")
                // Every good event before the damage may have been delivered, nothing after it.
                #expect(outcome.events.count <= damaged)
                #expect(outcome.events == Array(expected.events.prefix(outcome.events.count)))
            }
            // Reading through the last good seq never reads the damaged line: both paths deliver
            // every event before it, without an error (the recovery `rebuild` suggests).
            let before = reference(path, through: damaged)
            #expect(before.error == nil)
            #expect(before.events.map(\.seq) == Array(1...damaged))
            for chunking in Self.chunkings {
                let outcome = fast(path, LogReader.Range(throughSeq: damaged), chunkSize: chunking.chunkSize, parallelism: chunking.parallelism)
                #expect(outcome == before, "\(chunking)")
            }
        }
    }

    @Test func asOfStopsBeforeTheFirstEventRecordedLater() throws {
        try withLog(Array(Self.corpus.prefix(500))) { path in
            let cut = Self.recordedAt(321)
            let expected = reference(path).events.prefix { $0.recordedAt.instant <= cut.instant }
            for chunking in Self.chunkings {
                let outcome = fast(path, LogReader.Range(asOf: cut), chunkSize: chunking.chunkSize, parallelism: chunking.parallelism)
                #expect(outcome.events == Array(expected))
                #expect(outcome.error == nil)
            }
        }
    }
}

/// A small deterministic generator (SplitMix64) for reproducible damage.
struct SplitMix {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
