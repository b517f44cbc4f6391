import Testing
@testable import DuneEvents
@testable import DuneTools

/// SPEC §2: every timestamp in [1900-01-01T00:00:00Z, 2100-01-01T00:00:00Z),
/// every sample other than sleep and workouts at most 24 h.
@Suite struct TimestampWindowTests {
    static func hrv(id: String = "8264d208-f9ae-4bcc-ac75-d0a4fcc88799", _ start: String, _ end: String) -> String {
        #"{"type":"sample","kind":"hrv","id":"\#(id)","start":"\#(start)","end":"\#(end)","value":48,"unit":"ms","source":"Apple Watch"}"#
    }

    static let window = "outside the accepted window [1900-01-01T00:00:00Z, 2100-01-01T00:00:00Z); check the device clock and send the sample's real date"

    /// Lines at and around the edges, accepted and rejected; the fast paths must agree with the reference on each.
    static let edgeLines: [String] = [
        hrv("1900-01-01T00:00:00Z", "1900-01-01T00:00:00Z"),
        hrv("2099-12-31T12:00:00Z", "2099-12-31T12:00:00Z"),
        hrv("2099-12-31T23:59:59.999Z", "2099-12-31T23:59:59.999Z"),
        hrv("1899-12-31T23:59:59.999Z", "1900-01-01T00:00:00Z"),
        hrv("2099-12-31T23:00:00Z", "2100-01-01T00:00:00Z"),
        hrv("1900-01-01T00:00:00+01:00", "1900-01-01T00:30:00+01:00"),
        hrv("2100-01-01T00:30:00-01:00", "2100-01-01T00:30:00-01:00"),
        hrv("0001-01-01T00:00:00+14:00", "0001-01-01T00:00:00+14:00"),
        hrv("9999-12-31T23:59:00-12:00", "9999-12-31T23:59:00-12:00"),
        hrv("2016-01-01T00:00:00Z", "2026-01-01T00:00:00Z"),
        hrv("2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"),
        hrv("2026-01-01T00:00:00Z", "2026-01-02T00:00:00.001Z"),
        #"{"type":"sample","kind":"stepCount","id":"s-edge","start":"2026-01-01T00:00:00Z","end":"2026-01-02T00:00:01Z","value":10,"unit":"count","source":"iPhone"}"#,
        #"{"type":"sample","kind":"sleep","id":"z-edge","start":"2099-12-31T20:00:00Z","end":"2100-01-01T04:00:00Z","value":"asleepCore","source":"W"}"#,
    ]

    @Test(arguments: [
        (hrv("0001-01-01T00:00:00+14:00", "0001-01-01T00:05:00+14:00"),
         "field \"start\": timestamp \"0001-01-01T00:00:00+14:00\" is before 1900-01-01T00:00:00Z, " + window),
        (hrv("9999-12-31T23:59:00-12:00", "9999-12-31T23:59:00-12:00"),
         "field \"start\": timestamp \"9999-12-31T23:59:00-12:00\" is at or after 2100-01-01T00:00:00Z, " + window),
        (hrv("2016-01-01T00:00:00Z", "2026-01-01T00:00:00Z"),
         "hrv sample lasts 87672 h (start 2016-01-01T00:00:00Z, end 2026-01-01T00:00:00Z); a sample other than sleep or a workout is at most 24 h: check start and end, or send one sample per day"),
        (hrv("2026-01-01T00:00:00Z", "2026-01-02T00:00:00.001Z"),
         "hrv sample lasts more than 24 h (start 2026-01-01T00:00:00Z, end 2026-01-02T00:00:00.001Z); a sample other than sleep or a workout is at most 24 h: check start and end, or send one sample per day"),
        (hrv("1899-12-31T23:59:59.999Z", "1900-01-01T00:00:00Z"),
         "field \"start\": timestamp \"1899-12-31T23:59:59.999Z\" is before 1900-01-01T00:00:00Z, " + window),
        (hrv("1900-01-01T00:00:00+01:00", "1900-01-01T00:30:00+01:00"),
         "field \"start\": timestamp \"1900-01-01T00:00:00+01:00\" is before 1900-01-01T00:00:00Z, " + window),
        (hrv("2099-12-31T23:00:00Z", "2100-01-01T00:00:00Z"),
         "field \"end\": timestamp \"2100-01-01T00:00:00Z\" is at or after 2100-01-01T00:00:00Z, " + window),
        (#"{"type":"sample","kind":"sleep","id":"z","start":"2099-12-31T20:00:00Z","end":"2100-01-01T04:00:00Z","value":"asleepCore","source":"W"}"#,
         "field \"end\": timestamp \"2100-01-01T04:00:00Z\" is at or after 2100-01-01T00:00:00Z, " + window),
        (#"{"type":"sample","kind":"workout","id":"w","start":"1899-06-01T10:00:00Z","end":"1899-06-01T11:00:00Z","activityType":"running","source":"W"}"#,
         "field \"start\": timestamp \"1899-06-01T10:00:00Z\" is before 1900-01-01T00:00:00Z, " + window),
        (#"{"type":"sample","kind":"stepCount","id":"s","start":"2026-01-01T00:00:00Z","end":"2026-01-02T00:00:01Z","value":10,"unit":"count","source":"W"}"#,
         "stepCount sample lasts more than 24 h (start 2026-01-01T00:00:00Z, end 2026-01-02T00:00:01Z); a sample other than sleep or a workout is at most 24 h: check start and end, or send one sample per day"),
        (#"{"type":"sampleDeleted","id":"S1","at":"2150-01-01T00:00:00Z"}"#,
         "field \"at\": timestamp \"2150-01-01T00:00:00Z\" is at or after 2100-01-01T00:00:00Z, " + window),
        (#"{"type":"refresh","source":"foreground","at":"1970-01-01T00:00:00+00:00","x":1}"#, nil),
        (#"{"type":"refresh","source":"foreground","at":"1800-01-01T00:00:00Z"}"#,
         "field \"at\": timestamp \"1800-01-01T00:00:00Z\" is before 1900-01-01T00:00:00Z, " + window),
        (#"{"type":"task","task":"t","feature":"readiness","phase":"started","at":"3000-01-01T00:00:00Z"}"#,
         "field \"at\": timestamp \"3000-01-01T00:00:00Z\" is at or after 2100-01-01T00:00:00Z, " + window),
        (#"{"type":"profile","sleepTargetMinutes":450,"at":"0001-01-01T00:00:00Z"}"#,
         "field \"at\": timestamp \"0001-01-01T00:00:00Z\" is before 1900-01-01T00:00:00Z, " + window),
    ] as [(String, String?)])
    func outOfWindowAndOverlongLinesAreRejectedWithTheirReason(line: String, reason: String?) {
        if let reason {
            #expect(InputValidationTests.rejection(of: line)?.message == reason)
        } else {
            #expect(throws: Never.self) { try InputParser.parse(line) }
        }
    }

    @Test(arguments: [
        hrv("1900-01-01T00:00:00Z", "1900-01-01T00:00:00Z"),
        hrv("2099-12-31T12:00:00Z", "2099-12-31T12:00:00Z"),
        hrv("2099-12-31T23:59:59.999Z", "2099-12-31T23:59:59.999Z"),
        hrv("1900-01-01T01:00:00+01:00", "1900-01-01T01:00:00+01:00"),
        hrv("2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"),
    ])
    func theEdgesInsideAreAccepted(line: String) throws {
        let command = try InputParser.parse(line)
        guard case .sample(let sample) = command.intent else {
            Issue.record("expected a sample")
            return
        }
        #expect(TimestampWindow.contains(sample.start) && TimestampWindow.contains(sample.end))
        // The fast path and the prepared path take these lines too, with the same result.
        let bytes = Array(line.utf8)
        #expect(ByteView.with(bytes) { InputParser.parseSample($0) } == command)
        var data: [UInt8] = []
        var scratch: [UInt8] = []
        #expect(bytes.withUnsafeBytes { InputParser.prepareSample($0, data: &data, scratch: &scratch) } != nil)
    }

    @Test func windowConstantsAreTheSpecInstants() throws {
        #expect(try Timestamp(parsing: "1900-01-01T00:00:00Z").epochSeconds == TimestampWindow.lowerEpochSeconds)
        #expect(try Timestamp(parsing: "2100-01-01T00:00:00Z").epochSeconds == TimestampWindow.upperEpochSeconds)
        #expect(TimestampWindow.contains(try Timestamp(parsing: "2099-12-31T23:59:59.999999999Z")))
        #expect(!TimestampWindow.contains(try Timestamp(parsing: "1899-12-31T23:59:59.999999999Z")))
    }

    @Test func storedEventsOutsideTheWindowAreRecognised() throws {
        func sample(_ start: String, _ end: String) throws -> Event {
            Event(.sampleIngested(Sample(id: "s", kind: .hrv, start: try Timestamp(parsing: start), end: try Timestamp(parsing: end),
                                         source: "W", reading: .quantity(Quantity(value: 40, inputValue: 40, inputUnit: "ms")))))
        }
        #expect(try !sample("2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z").isOutsideTimestampWindow)
        #expect(try sample("0001-01-01T00:00:00+14:00", "2026-01-01T00:00:00Z").isOutsideTimestampWindow)
        #expect(try sample("2026-01-01T00:00:00Z", "9999-12-31T23:59:00-12:00").isOutsideTimestampWindow)
        let deletion = Event(.sampleDeleted(SampleDeletion(sampleID: "s", at: try Timestamp(parsing: "2100-01-01T00:00:00Z"))))
        #expect(deletion.isOutsideTimestampWindow)
        let profile = Event(.profileUpdated(ProfileUpdate(sleepTargetMinutes: 400, at: try Timestamp(parsing: "1900-01-01T00:00:00Z"))))
        #expect(!profile.isOutsideTimestampWindow)
    }
}
