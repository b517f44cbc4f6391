import Testing
@testable import DuneEvents
import DuneTools

@Suite struct CodecTests {
    static let at = Timestamp(epochSeconds: 1_772_230_320, offsetSeconds: 9 * 3600)
    static let recordedAt = Timestamp(epochSeconds: 1_772_230_323, nanoseconds: 120_000_000, offsetSeconds: 0)

    static let events: [Event] = [
        Event(.sampleIngested(Sample(id: "S1", kind: .hrv, start: at, end: at.adding(seconds: 60), source: "Apple Watch",
                                     reading: .quantity(Quantity(value: 48.2, inputValue: 48.2, inputUnit: "ms"))))),
        Event(.sampleIngested(Sample(id: "S2", kind: .bodyMass, start: at, end: at, source: "Withings \"Body+\"",
                                     reading: .quantity(Quantity(value: 81.6466266, inputValue: 180, inputUnit: "lb")))), eventID: "e-2"),
        Event(.sampleIngested(Sample(id: "S3", kind: .sleep, start: at, end: at.adding(seconds: 3600), source: "AutoSleep",
                                     reading: .sleep(.asleepREM)))),
        Event(.sampleIngested(Sample(id: "S4", kind: .workout, start: at, end: at.adding(seconds: 2700), source: "Apple Watch",
                                     reading: .workout(WorkoutSummary(activityType: "running", energyKcal: 500, distanceMeters: 8046.72, volumeKg: nil,
                                                                      inputEnergy: .init(value: 2092, unit: "kJ"), inputDistance: .init(value: 5, unit: "mi")))))),
        Event(.sampleDeleted(SampleDeletion(sampleID: "S1", at: at))),
        Event(.refreshRequested(RefreshRecord(source: .healthKitObserver, kind: .hrv, at: at, outcome: .throttled, reason: .typeThrottle, refreshSignal: 3))),
        Event(.task(TaskRecord(task: "t1", feature: "readiness", phase: .cancelled, requestedPhase: .failed, at: at, error: "Cancelled", reason: .cancelledError))),
        Event(.task(TaskRecord(task: "t0", feature: "readiness", phase: .cancelled, at: at, reason: .superseded, supersededBy: "t1"))),
        Event(.profileUpdated(ProfileUpdate(sleepTargetMinutes: 450, at: at)),
              extra: JSONObject([JSONMember("note", .string("line\nbreak ✓")), JSONMember("nested", .array([.null, .bool(true), .number(-0.5)]))])),
    ]

    @Test(arguments: Array(events.enumerated()))
    func storedLinesRoundTrip(index: Int, event: Event) throws {
        let recorded = RecordedEvent(seq: index + 1, id: "0190f5c2-0000-7000-8000-00000000000\(index)", recordedAt: Self.recordedAt, event: event)
        let line = EventCodec.encodeLine(recorded)
        #expect(line.last == UInt8(ascii: "\n"))
        #expect(!line.dropLast().contains(UInt8(ascii: "\n")))
        let body = Array(line.dropLast())
        #expect(StoredLine.isIntact(body))
        let decoded = try body.withUnsafeBytes { try EventCodec.decode($0) }
        #expect(decoded == recorded)
        // Encoding the decoded event gives the same bytes.
        #expect(EventCodec.encodeLine(decoded) == line)
    }

    @Test func envelopeHasTheSpecifiedMemberOrder() {
        let recorded = RecordedEvent(seq: 12, id: "id-12", recordedAt: Self.recordedAt,
                                     event: Event(.profileUpdated(ProfileUpdate(sleepTargetMinutes: 450, at: Self.at))))
        let text = String(decoding: EventCodec.encodeLine(recorded), as: UTF8.self)
        let crc = CRC32.hex(CRC32.checksum(Array(#"{"v":1,"seq":12,"id":"id-12","type":"profile.updated","recordedAt":"2026-02-27T22:12:03.120Z","data":{"at":"2026-02-28T07:12:00+09:00","sleepTargetMinutes":450}"#.utf8)))
        #expect(text == #"{"v":1,"seq":12,"id":"id-12","type":"profile.updated","recordedAt":"2026-02-27T22:12:03.120Z","data":{"at":"2026-02-28T07:12:00+09:00","sleepTargetMinutes":450},"crc":"\#(crc)"}"# + "\n")
    }

    @Test func inputContentOfAStoredEventEqualsTheLineItCameFrom() throws {
        let lines = [
            #"{"type":"sample","kind":"bodyMass","id":"S2","start":"2026-02-28T07:12:00+09:00","end":"2026-02-28T07:12:00+09:00","value":180,"unit":"lb","source":"Scale","eventID":"x","extra":1}"#,
            #"{"type":"sample","kind":"workout","id":"W","start":"2026-02-28T07:12:00+09:00","end":"2026-02-28T08:12:00+09:00","activityType":"cycling","energy":300,"energyUnit":"Cal","source":"Watch"}"#,
            #"{"type":"task","task":"t1","feature":"trends","phase":"failed","error":"cancelled","at":"2026-02-28T07:12:00Z"}"#,
            #"{"type":"refresh","source":"healthKitObserver","kind":"sleep","at":"2026-02-28T07:12:00Z"}"#,
            #"{"type":"profile","sleepTargetMinutes":420,"at":"2026-02-28T07:12:00Z","device":{"os":"iOS 26"}}"#,
        ]
        for line in lines {
            let command = try InputParser.parse(line)
            let state = IngestState()
            let decision = state.decide(command)
            let event = try #require(decision.events.last)
            let reEncoded = try EventCodec.encodeLine(RecordedEvent(seq: 1, id: "x", recordedAt: Self.recordedAt, event: event)).dropLast()
                .withUnsafeBytes { try EventCodec.decode($0) }
            #expect(reEncoded.event.inputContent == command.content, "\(line)")
        }
    }

    @Test func writerIsCanonical() throws {
        let value = try JSONParser.parse(#"{"b":[1.0,2.5e2,-0.0,1e-7],"a":"\u00e9\"\\\/\t","c":{"z":null,"y":true}}"#)
        #expect(JSONWriter.string(value) == #"{"a":"é\"\\/\t","b":[1,250,0,1e-07],"c":{"y":true,"z":null}}"#)
    }
}

@Suite struct JSONNumberWriterTests {
    @Test func integerFastPathWritesWhatFormatNumberWrites() {
        var values: [Double] = [0, -0.0, 1, -1, 9, 10, 99, 100, 12_345_678, 123_456_789, -987_654_321_012,
                                9_007_199_254_740_991, -9_007_199_254_740_991, 9_007_199_254_740_992, 1e300, 0.5, -2.25, .infinity, .nan]
        var random = SplitMix(seed: 0x5EED)
        for _ in 0..<2000 {
            let magnitude = Double(random.next() % 1_000_000_000_000_000) / (random.next() % 3 == 0 ? 1000.0 : 1.0)
            values.append(random.next() % 2 == 0 ? magnitude : -magnitude)
        }
        for value in values {
            var bytes: [UInt8] = []
            JSONWriter.writeNumber(value, into: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == JSONWriter.formatNumber(value), "\(value)")
        }
    }
}
