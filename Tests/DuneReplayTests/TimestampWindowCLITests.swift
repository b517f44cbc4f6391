import DuneEvents
import DuneFixtures
import Foundation
import Testing

/// SPEC §2's timestamp window and 24 h limit through the CLI: `ingest`, the
/// Apple Health import, and logs an older version wrote outside the window.
@Suite struct TimestampWindowCLITests {
    static func hrv(_ id: String, _ start: String, _ end: String) -> String {
        #"{"type":"sample","kind":"hrv","id":"\#(id)","start":"\#(start)","end":"\#(end)","value":48,"unit":"ms","source":"Apple Watch"}"#
    }

    /// The issue's five lines: year 1, year 9999, ten years of HRV, then the two edges that are accepted.
    static let fiveLines = [
        hrv("h-0001", "0001-01-01T00:00:00+14:00", "0001-01-01T00:00:00+14:00"),
        hrv("h-9999", "9999-12-31T23:59:00-12:00", "9999-12-31T23:59:00-12:00"),
        hrv("h-decade", "2016-01-01T00:00:00Z", "2026-01-01T00:00:00Z"),
        hrv("h-1900", "1900-01-01T00:00:00Z", "1900-01-01T00:00:00Z"),
        hrv("h-2099", "2099-12-31T12:00:00Z", "2099-12-31T12:00:00Z"),
    ]

    static let window = "outside the accepted window [1900-01-01T00:00:00Z, 2100-01-01T00:00:00Z); check the device clock and send the sample's real date"

    @Test func theIssuesFiveLinesThreeRejectedTwoAccepted() throws {
        try withCLI { cli in
            try cli.write("input.jsonl", Self.fiveLines.joined(separator: "\n") + "\n")
            let result = try cli.run(["ingest", "--log", "events.jsonl", "input.jsonl"])
            #expect(result.status == 65, "\(result)")
            #expect(result.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("input.jsonl:") } == [
                "input.jsonl:1: field \"start\": timestamp \"0001-01-01T00:00:00+14:00\" is before 1900-01-01T00:00:00Z, " + Self.window,
                "input.jsonl:2: field \"start\": timestamp \"9999-12-31T23:59:00-12:00\" is at or after 2100-01-01T00:00:00Z, " + Self.window,
                "input.jsonl:3: hrv sample lasts 87672 h (start 2016-01-01T00:00:00Z, end 2026-01-01T00:00:00Z); a sample other than sleep or a workout is at most 24 h: check start and end, or send one sample per day",
            ], "\(result.stderr)")
            let log = try String(decoding: cli.bytes("events.jsonl"), as: UTF8.self)
            #expect(log.split(separator: "\n").count == 2 && log.contains("h-1900") && log.contains("h-2099"))

            // The two accepted samples span two centuries: every week between them is listed, and that is all.
            #expect(try cli.run(["rebuild", "--log", "events.jsonl", "--out", "models"]).status == 0)
            let readiness = try String(decoding: cli.bytes("models/readiness.json"), as: UTF8.self)
            #expect(readiness.components(separatedBy: #""date":"#).count - 1 == 2)
            let first = try #require(DayKey("1900-01-01")).isoWeek.monday
            let last = try #require(DayKey("2099-12-31")).isoWeek.monday
            let weeks = (last.ordinal - first.ordinal) / 7 + 1
            let weekly = try String(decoding: cli.bytes("models/weekly-stats.json"), as: UTF8.self)
            #expect(weekly.components(separatedBy: #""week":"#).count - 1 == weeks)
            #expect(weekly.contains(#""week":"1900-W01""#) && weekly.contains(#""week":"2099-W53""#))
            let sizes = try ["readiness.json", "trends.json", "weekly-stats.json", "sync-status.json"].map { try cli.bytes("models/" + $0).count }
            #expect(sizes.reduce(0, +) < 20 << 20, "\(sizes)")
        }
    }

    @Test func theAppleHealthImportRejectsTheSameRecords() throws {
        try withCLI { cli in
            // An export date after both accepted records (a real export's date would reject the 2099 record as after it).
            let writer = AppleHealthExportWriter(exportDate: "2099-12-31 23:00:00 +0000")
            func record(_ start: String, _ end: String) -> AppleHealthExportWriter.Element {
                .record(.init(type: "HKQuantityTypeIdentifierHeartRateVariabilitySDNN", sourceName: "Apple Watch", unit: "ms", value: "48",
                              startDate: start, endDate: end))
            }
            try cli.write("export.xml", writer.document([
                record("0001-01-01 00:00:00 +1400", "0001-01-01 00:00:00 +1400"),
                record("9999-12-31 23:59:00 -1200", "9999-12-31 23:59:00 -1200"),
                record("2016-01-01 00:00:00 +0000", "2026-01-01 00:00:00 +0000"),
                record("1900-01-01 00:00:00 +0000", "1900-01-01 00:00:00 +0000"),
                record("2099-12-31 12:00:00 +0000", "2099-12-31 12:00:00 +0000"),
            ]))
            let result = try cli.run(["ingest", "--log", "events.jsonl", "--format", "apple-health", "export.xml"])
            #expect(result.status == 65, "\(result)")
            let reasons = result.stderr.split(separator: "\n").filter { $0.hasPrefix("export.xml:") }
            #expect(reasons.count == 3, "\(result.stderr)")
            #expect(reasons.contains { $0.hasSuffix("HKQuantityTypeIdentifierHeartRateVariabilitySDNN: field \"start\": timestamp \"0001-01-01T00:00:00+14:00\" is before 1900-01-01T00:00:00Z, " + Self.window) }, "\(reasons)")
            #expect(reasons.contains { $0.hasSuffix("HKQuantityTypeIdentifierHeartRateVariabilitySDNN: field \"start\": timestamp \"9999-12-31T23:59:00-12:00\" is at or after 2100-01-01T00:00:00Z, " + Self.window) }, "\(reasons)")
            #expect(reasons.contains { $0.contains("hrv sample lasts 87672 h (start 2016-01-01T00:00:00+00:00, end 2026-01-01T00:00:00+00:00)") }, "\(reasons)")
            let log = try String(decoding: cli.bytes("events.jsonl"), as: UTF8.self)
            #expect(log.split(separator: "\n").count == 2)
            #expect(log.contains(#""start":"1900-01-01T00:00:00+00:00""#) && log.contains(#""start":"2099-12-31T12:00:00+00:00""#))
        }
    }

    /// A log as a version before the window would have written it: valid lines and CRCs, some timestamps outside.
    static func olderVersionLog() throws -> [UInt8] {
        func at(_ text: String) throws -> Timestamp { try Timestamp(parsing: text) }
        func sample(_ id: String, _ start: String, _ end: String, _ value: Double) throws -> Event {
            Event(.sampleIngested(Sample(id: id, kind: .hrv, start: try at(start), end: try at(end), source: "Apple Watch",
                                         reading: .quantity(Quantity(value: value, inputValue: value, inputUnit: "ms")))))
        }
        let events: [Event] = [
            try sample("h-1", "2026-01-05T06:00:00+01:00", "2026-01-05T06:01:00+01:00", 40),
            try sample("h-old", "0001-01-01T00:00:00+14:00", "0001-01-01T00:00:00+14:00", 60),
            try sample("h-2", "2026-01-06T06:00:00+01:00", "2026-01-06T06:01:00+01:00", 50),
            // A correction of h-2 into year 9999, and a deletion of h-1 dated 2150: both skipped, so h-1 and h-2 stay as they were.
            try sample("h-2", "9999-12-31T23:59:00-12:00", "9999-12-31T23:59:00-12:00", 70),
            Event(.sampleDeleted(SampleDeletion(sampleID: "h-1", at: try at("2150-01-01T00:00:00Z")))),
            Event(.refreshRequested(RefreshRecord(source: .pullToRefresh, kind: nil, at: try at("1800-01-01T00:00:00Z"),
                                                  outcome: .performed, reason: nil, refreshSignal: 1))),
            Event(.task(TaskRecord(task: "t-1", feature: "readiness", phase: .started, at: try at("2026-01-06T07:00:00Z")))),
        ]
        var bytes: [UInt8] = []
        for (index, event) in events.enumerated() {
            let recorded = RecordedEvent(seq: index + 1, id: "019a2b3c-4d5e-7f60-8a1b-00000000000\(index + 1)",
                                         recordedAt: try at("2026-01-07T08:00:0\(index)Z"), event: event)
            bytes += EventCodec.encodeLine(recorded)
        }
        return bytes
    }

    @Test func eventsAnOlderVersionStoredOutsideTheWindowAreSkippedCountedAndWarnedAbout() throws {
        try withCLI { cli in
            try cli.writeBytes("events.jsonl", Self.olderVersionLog())
            let rebuild = try cli.run(["rebuild", "--log", "events.jsonl", "--out", "models"])
            #expect(rebuild.status == 0, "\(rebuild)")
            #expect(rebuild.stdout.contains("Replayed 7 events (through seq 7).\nSkipped 4 events with a timestamp outside [1900-01-01T00:00:00Z, 2100-01-01T00:00:00Z)"), "\(rebuild.stdout)")
            #expect(rebuild.stderr.contains("warning: skipped 4 events"), "\(rebuild.stderr)")
            let readiness = try String(decoding: cli.bytes("models/readiness.json"), as: UTF8.self)
            #expect(readiness.contains(#"{"date":"2026-01-05","hrv":40,"#) && readiness.contains(#"{"date":"2026-01-06","hrv":50,"#), "\(readiness)")
            #expect(readiness.components(separatedBy: #""date":"#).count - 1 == 2)
            let weekly = try String(decoding: cli.bytes("models/weekly-stats.json"), as: UTF8.self)
            #expect(weekly.components(separatedBy: #""week":"#).count - 1 == 1)
            let sync = try String(decoding: cli.bytes("models/sync-status.json"), as: UTF8.self)
            #expect(sync.contains(#""refreshSignal":0"#) && sync.contains(#""lastRefreshAt":null"#) && sync.contains(#""phase":"loading""#), "\(sync)")

            let json = try cli.run(["rebuild", "--log", "events.jsonl", "--json"])
            #expect(json.stdout.hasSuffix(#"{"rebuild":{"events":7,"skippedOutsideTimestampWindow":4,"throughSeq":7}}"# + "\n"), "\(json.stdout)")

            let verify = try cli.run(["verify", "--log", "events.jsonl"])
            #expect(verify.status == 0, "\(verify)")
            #expect(verify.stdout.contains("warning: 4 events with a timestamp outside"), "\(verify.stdout)")
            #expect(verify.stderr.contains("events.jsonl: warning: line 2, byte "), "\(verify.stderr)")
            #expect(verify.stderr.contains("seq 2 (sample.ingested): start 0001-01-01T00:00:00+14:00 and end 0001-01-01T00:00:00+14:00 outside"), "\(verify.stderr)")
            #expect(verify.stderr.contains("seq 5 (sample.deleted): at 2150-01-01T00:00:00Z outside"), "\(verify.stderr)")
            let verifyJSON = try cli.run(["verify", "--log", "events.jsonl", "--json"])
            #expect(verifyJSON.status == 0 && verifyJSON.stdout.contains(#""ok":true"#) && verifyJSON.stdout.contains(#""warningCount":4"#), "\(verifyJSON)")

            // Inspection commands read these events without failing.
            for arguments in [["explain", "readiness", "2026-01-06"], ["explain", "sync", "readiness"], ["report"], ["history"],
                              ["history", "--since", "2026-01-01"], ["show", "2"], ["stats"], ["tail"]] {
                let run = try cli.run(arguments + ["--log", "events.jsonl"])
                #expect(run.status == 0, "\(arguments): \(run)")
            }
        }
    }
}
