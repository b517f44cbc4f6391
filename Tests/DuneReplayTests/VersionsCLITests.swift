import DuneEvents
import Foundation
import Testing

/// SPEC §11 from the command line: a line a later version wrote (`"v":99`)
/// is named by the inspection commands and refused, with exit 65 and no
/// partial result, by every command that interprets the log; the golden v1
/// log's input, re-ingested (with or without an explicit measure equal to
/// the source rule's), appends nothing.
@Suite struct VersionsCLITests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// `events.jsonl` in the harness folder: the fixture lines ingested, then a
    /// sealed `sample.ingested` line of version 99 (a later build's), seq
    /// `fixture + 1`. Returns that seq.
    @discardableResult
    static func logWithNewerLine(_ cli: CLI, trailing: [String] = []) throws -> Int {
        try (CLIFixture.lines.joined(separator: "\n") + "\n").write(toFile: cli.directory + "/in.jsonl", atomically: true, encoding: .utf8)
        let ingest = try cli.run(["ingest", "--log", "events.jsonl", "in.jsonl"])
        #expect(ingest.status == 0, "\(ingest)")
        let seq = CLIFixture.lines.count + 1
        var log = try Data(contentsOf: URL(fileURLWithPath: cli.directory + "/events.jsonl"))
        for (offset, text) in ([newerLine(seq: seq)] + trailing).enumerated() {
            var line = Array(text.replacingOccurrences(of: "SEQ", with: "\(seq + offset)").utf8)
            StoredLine.seal(&line)
            log.append(contentsOf: line)
        }
        try log.write(to: URL(fileURLWithPath: cli.directory + "/events.jsonl"))
        return seq
    }

    static func newerLine(seq: Int) -> String {
        #"{"v":99,"seq":SEQ,"id":"019a2b3c-4d5e-7f60-8a1b-00000000ff01","type":"sample.ingested","recordedAt":"2031-05-01T07:00:00.250Z","data":{"end":"2026-02-05T06:01:00+01:00","id":"N1","kind":"hrv","measure":{"name":"rmssd","window":"5min"},"source":"Ring 9","start":"2026-02-05T06:00:00+01:00","unit":"ms","value":61}"#
    }

    /// The message of every refusal: type, version, seq and the newest version this build reads.
    static func namesTheNewerLine(_ text: String, seq: Int) -> Bool {
        text.contains("seq \(seq) is a sample.ingested event of version 99")
            && text.contains("sample.ingested up to version 2")
    }

    @Test func commandsThatInterpretTheLogRefuseANewerVersionWithNoResultAndNoAppend() throws {
        try withCLI { cli in
            let seq = try Self.logWithNewerLine(cli)
            let before = try Data(contentsOf: URL(fileURLWithPath: cli.directory + "/events.jsonl"))
            let commands: [[String]] = [
                ["rebuild", "--log", "events.jsonl", "--out", "models"],
                ["report", "--log", "events.jsonl"],
                ["report", "--log", "events.jsonl", "--html", "report.html"],
                ["explain", "--log", "events.jsonl", "readiness", "2026-02-03"],
                ["ingest", "--log", "events.jsonl", "in.jsonl"],
                ["forget", "--log", "events.jsonl", "--sample", "H1"],
            ]
            for command in commands {
                let result = try cli.run(command)
                #expect(result.status == 65, "\(command): \(result)")
                #expect(Self.namesTheNewerLine(result.stderr, seq: seq), "\(command): \(result)")
                #expect(result.stdout.isEmpty, "\(command): no partial result: \(result)")
            }
            #expect(!FileManager.default.fileExists(atPath: cli.directory + "/models"), "rebuild wrote nothing")
            #expect(!FileManager.default.fileExists(atPath: cli.directory + "/report.html"), "report wrote nothing")
            #expect(try Data(contentsOf: URL(fileURLWithPath: cli.directory + "/events.jsonl")) == before, "nothing appended or rewritten")
        }
    }

    @Test func inspectionCommandsNameTheNewerLine() throws {
        try withCLI { cli in
            let trailing = [#"{"v":1,"seq":SEQ,"id":"019a2b3c-4d5e-7f60-8a1b-00000000ff02","type":"profile.updated","recordedAt":"2031-05-01T07:00:01Z","data":{"at":"2031-05-01T07:00:01Z","sleepTargetMinutes":480}"#]
            let seq = try Self.logWithNewerLine(cli, trailing: trailing)
            let verify = try cli.run(["verify", "--log", "events.jsonl"])
            #expect(verify.status == 0, "\(verify)")
            #expect(verify.stdout.contains("ok: events.jsonl: \(seq + 1) events"), "\(verify)")
            #expect(verify.stdout.contains("1 line of a newer version than this build reads"), "\(verify)")
            #expect(Self.namesTheNewerLine(verify.stderr, seq: seq) && verify.stderr.contains("line \(seq), byte "), "\(verify)")

            let history = try cli.run(["history", "--log", "events.jsonl"])
            #expect(history.status == 0, "\(history)")
            #expect(history.stdout.contains("newer version: seq \(seq): sample.ingested version 99, newer than this build reads (up to version 2)"), "\(history)")
            #expect(history.stdout.contains("profile.updated"), "the lines after it are listed: \(history)")
            let historyJSON = try cli.run(["history", "--log", "events.jsonl", "--json", "--seq", "\(seq)"])
            #expect(historyJSON.stdout.hasPrefix(#"{"v":99,"seq":\#(seq),"#), "\(historyJSON)")

            let show = try cli.run(["show", "--log", "events.jsonl", "\(seq)"])
            #expect(show.status == 0, "\(show)")
            #expect(show.stdout.contains("version     99 (newer than this build reads: sample.ingested up to version 2)"), "\(show)")
            let showJSON = try cli.run(["show", "--log", "events.jsonl", "--json", "\(seq)"])
            var stored = Array(Self.newerLine(seq: seq).replacingOccurrences(of: "SEQ", with: "\(seq)").utf8)
            StoredLine.seal(&stored)
            #expect(Array(showJSON.stdout.utf8) == stored, "show --json prints the stored line: \(showJSON)")

            let tail = try cli.run(["tail", "--log", "events.jsonl", "-n", "2"])
            #expect(tail.status == 0, "\(tail)")
            #expect(tail.stdout.contains("newer version: seq \(seq): sample.ingested version 99"), "\(tail)")

            let stats = try cli.run(["stats", "--log", "events.jsonl"])
            #expect(stats.status == 0, "\(stats)")
            #expect(stats.stdout.contains("\(seq) events"), "\(stats)")
            #expect(stats.stdout.contains("newer version: seq \(seq): sample.ingested version 99"), "\(stats)")
        }
    }

    /// The golden v1 log's own input, and the same input with every hrv line
    /// naming the measure its source implies, are already in the log.
    @Test func reingestingTheGoldenInputWithOrWithoutTheRulesMeasureAppendsNothing() throws {
        try withCLI { cli in
            let golden = Self.repository + "/Tests/Golden/v1"
            try FileManager.default.copyItem(atPath: golden + "/events.jsonl", toPath: cli.directory + "/events.jsonl")
            let plain = try cli.run(["ingest", "--log", "events.jsonl", golden + "/input.jsonl"])
            #expect(plain.stdout.hasPrefix("1495 lines: 0 appended, 1495 already appended (1 forgotten"), "\(plain)")

            var named = 0
            let input = try String(contentsOfFile: golden + "/input.jsonl", encoding: .utf8)
            let withMeasures = input.split(separator: "\n").map { line -> String in
                guard line.contains(#""kind":"hrv""#), line.contains(#""type":"sample""#) else { return String(line) }
                named += 1
                let lowered = line.lowercased()
                let measure = lowered.contains(#""source":"oura"#) || lowered.contains(#""source":"whoop"#) ? "rmssd" : "sdnn"
                return String(line.dropLast()) + #","measure":"\#(measure)"}"#
            }
            #expect(named == 71)
            try (withMeasures.joined(separator: "\n") + "\n").write(toFile: cli.directory + "/measured.jsonl", atomically: true, encoding: .utf8)
            let before = try Data(contentsOf: URL(fileURLWithPath: cli.directory + "/events.jsonl"))
            let measured = try cli.run(["ingest", "--log", "events.jsonl", "measured.jsonl"])
            #expect(measured.stdout.hasPrefix("1495 lines: 0 appended, 1495 already appended (1 forgotten"), "\(measured)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: cli.directory + "/events.jsonl")) == before)

            // A measure other than the rule's is other content: a correction, stored as v2 with its measure.
            let other = #"{"type":"sample","kind":"hrv","id":"0A6E2B1C-7D3F-4E51-9A20-0C1D2E3F4A01","start":"2026-01-22T06:10:00+01:00","end":"2026-01-22T06:10:00+01:00","value":72.4,"unit":"ms","source":"Oura Ring","measure":"sdnn"}"#
            try (other + "\n").write(toFile: cli.directory + "/other.jsonl", atomically: true, encoding: .utf8)
            let corrected = try cli.run(["ingest", "--log", "events.jsonl", "other.jsonl"])
            #expect(corrected.stdout.hasPrefix("1 line: 1 appended"), "\(corrected)")
            let show = try cli.run(["show", "--log", "events.jsonl", "--json", "1510"])
            #expect(show.stdout.hasPrefix(#"{"v":2,"seq":1510,"#) && show.stdout.contains(#""kind":"hrv","measure":"sdnn","source":"Oura Ring""#),
                    "\(show)")
        }
    }

    @Test func aMeasureThatIsUnknownOrNotOnHRVIsRejectedNamingTheField() throws {
        try withCLI { cli in
            let lines = [
                #"{"type":"sample","kind":"hrv","id":"A","start":"2026-02-03T06:00:00+01:00","end":"2026-02-03T06:01:00+01:00","value":51.5,"unit":"ms","source":"Apple Watch","measure":"pnn50"}"#,
                #"{"type":"sample","kind":"restingHeartRate","id":"B","start":"2026-02-03T06:00:00+01:00","end":"2026-02-03T06:01:00+01:00","value":51,"unit":"count/min","source":"Oura","measure":"rmssd"}"#,
                #"{"type":"sample","kind":"hrv","id":"C","start":"2026-02-03T06:00:00+01:00","end":"2026-02-03T06:01:00+01:00","value":51.5,"unit":"ms","source":"Apple Watch","measure":"rmssd"}"#,
            ]
            try (lines.joined(separator: "\n") + "\n").write(toFile: cli.directory + "/in.jsonl", atomically: true, encoding: .utf8)
            let result = try cli.run(["ingest", "--log", "events.jsonl", "in.jsonl"])
            #expect(result.status == 65, "\(result)")
            #expect(result.stderr.contains(#"in.jsonl:1: field "measure" "pnn50" is not an HRV measure; expected one of sdnn, rmssd"#), "\(result)")
            #expect(result.stderr.contains(#"in.jsonl:2: field "measure" is given on a restingHeartRate sample; only hrv samples have a measure"#), "\(result)")
            #expect(result.stdout.hasPrefix("3 lines: 1 appended"), "\(result)")
        }
    }

    /// forget selects over upcast samples, keeps each line it does not redact
    /// byte for byte, and a redacted line keeps the `v` it had.
    @Test func forgetOnTheGoldenV1LogKeepsVersionsAndBytes() throws {
        try withCLI { cli in
            let golden = Self.repository + "/Tests/Golden/v1/events.jsonl"
            try FileManager.default.copyItem(atPath: golden, toPath: cli.directory + "/events.jsonl")
            let forget = try cli.run(["forget", "--log", "events.jsonl", "--source", "Oura Ring"])
            #expect(forget.status == 0, "\(forget)")
            #expect(forget.stdout.hasPrefix("Forgot 3 samples: redacted 4 events"), "\(forget)")
            let before = try String(contentsOfFile: golden, encoding: .utf8).split(separator: "\n")
            let after = try String(contentsOfFile: cli.directory + "/events.jsonl", encoding: .utf8).split(separator: "\n")
            #expect(after.count == before.count + 1)
            let changed = zip(before, after).filter { $0.0 != $0.1 }.map(\.1)
            #expect(changed.count == 4)
            #expect(changed.allSatisfy { $0.hasPrefix(#"{"v":1,"#) && $0.contains(#""redacted":true"#) }, "\(changed)")
            #expect(after.last?.hasPrefix(#"{"v":1,"seq":1510,"#) == true && after.last?.contains("data.forgotten") == true)
        }
    }
}
