import DuneEvents
import Foundation
import Testing

/// `dune-replay forget`: nothing of a forgotten sample remains in the log's
/// folder or in a read-model folder, and every refusal changes nothing.
@Suite struct ForgetCLITests {
    /// Strings that appear only in the sentinel samples' input.
    static let sentinels = ["ZqSentinelSource", "zqsentinelsport", "987.654321", "87.654321", "88.171717", "42.424242"]

    static let plainLines = CLIFixture.lines + [
        #"{"type":"sample","kind":"hrv","id":"H2","start":"2026-02-03T06:00:00+01:00","end":"2026-02-03T06:01:00+01:00","value":51.5,"unit":"ms","source":"Apple Watch"}"#,
        #"{"type":"sample","kind":"workout","id":"W1","start":"2026-02-03T18:00:00+01:00","end":"2026-02-03T18:40:00+01:00","activityType":"running","energy":400,"energyUnit":"kcal","source":"Apple Watch"}"#,
        #"{"type":"sample","kind":"bodyMass","id":"M1","start":"2026-02-03T07:00:00+01:00","end":"2026-02-03T07:00:00+01:00","value":80,"unit":"kg","source":"Scale"}"#,
    ]

    static let sentinelLines = [
        #"{"type":"sample","kind":"workout","id":"SW1","start":"2026-02-02T18:00:00+01:00","end":"2026-02-02T18:50:00+01:00","activityType":"zqsentinelsport","energy":987.654321,"energyUnit":"kcal","source":"ZqSentinelSource"}"#,
        #"{"type":"sample","kind":"bodyMass","id":"SM1","start":"2026-02-02T07:00:00+01:00","end":"2026-02-02T07:00:00+01:00","value":87.654321,"unit":"kg","source":"ZqSentinelSource"}"#,
        #"{"type":"sample","kind":"bodyMass","id":"SM1","start":"2026-02-02T07:00:00+01:00","end":"2026-02-02T07:00:00+01:00","value":88.171717,"unit":"kg","source":"ZqSentinelSource"}"#,
        #"{"type":"sample","kind":"hrv","id":"SH1","start":"2026-02-03T06:30:00+01:00","end":"2026-02-03T06:31:00+01:00","value":42.424242,"unit":"ms","source":"ZqSentinelSource"}"#,
        #"{"type":"sampleDeleted","id":"SH1","at":"2026-02-03T09:00:00+01:00"}"#,
    ]

    /// Plain and sentinel lines interleaved, as one input file.
    static var mixedInput: String {
        var lines: [String] = []
        for index in 0..<max(plainLines.count, sentinelLines.count) {
            if index < plainLines.count { lines.append(plainLines[index]) }
            if index < sentinelLines.count { lines.append(sentinelLines[index]) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Every regular file under `directory` (relative to the harness), with its bytes.
    func files(under directory: String, _ cli: CLI) throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        let root = cli.directory + "/" + directory
        for name in try FileManager.default.subpathsOfDirectory(atPath: root) {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            result[directory + "/" + name] = try cli.bytes(directory + "/" + name)
        }
        return result
    }

    /// A read model's bytes without `"throughSeq":N`.
    func withoutThroughSeq(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: #""throughSeq":[0-9]+"#, with: "", options: .regularExpression)
    }

    func ingest(_ cli: CLI, _ input: String, log: String) throws {
        // A log is created only in an existing folder.
        if let slash = log.lastIndex(of: "/") {
            try FileManager.default.createDirectory(atPath: cli.directory + "/" + log[..<slash], withIntermediateDirectories: true)
        }
        try cli.write("input-\(log.replacingOccurrences(of: "/", with: "-"))", input)
        let result = try cli.run(["ingest", "--log", log, "input-\(log.replacingOccurrences(of: "/", with: "-"))"])
        #expect(result.status == 0, "\(result)")
    }

    @Test func theSentinelIsGoneFromTheLogsFolderAndTheOutFolder() throws {
        try withCLI { cli in
            try ingest(cli, Self.mixedInput, log: "data/events.jsonl")
            #expect(try cli.run(["rebuild", "--log", "data/events.jsonl", "--out", "out"]).status == 0)
            #expect(try cli.run(["report", "--log", "data/events.jsonl", "--html", "out/report.html"]).status == 0)
            try cli.write("out/notes.txt", "my own notes\n")
            // A torn tail holding sentinel bytes (and a snapshot the report wrote) sit beside the log.
            let torn = Array(#"{"v":1,"seq":99,"data":{"source":"ZqSentinelSource","value":987.654321"#.utf8)
            try cli.writeBytes("data/events.jsonl", try cli.bytes("data/events.jsonl") + torn)
            let before = try files(under: "data", cli).merging(try files(under: "out", cli)) { $1 }
            #expect(Self.sentinels.contains { sentinel in before.values.contains { String(decoding: $0, as: UTF8.self).contains(sentinel) } })

            let forget = try cli.run(["forget", "--log", "data/events.jsonl", "--source", "ZqSentinelSource", "--out", "out"])
            #expect(forget.status == 0, "\(forget)")
            #expect(forget.stdout.contains("Forgot 3 samples: redacted 5 events"), "\(forget)")
            #expect(forget.stdout.contains("re-rendered report.html"), "\(forget)")
            #expect(forget.stdout.contains("left untouched (not written by dune-replay; check it yourself): notes.txt"), "\(forget)")

            let after = try files(under: "data", cli).merging(try files(under: "out", cli)) { $1 }
            #expect(after.keys.sorted() == ["data/events.jsonl", "data/events.jsonl.synced", "out/notes.txt", "out/readiness.json", "out/report.html",
                                            "out/sync-status.json", "out/trends.json", "out/weekly-stats.json"])
            for (name, bytes) in after {
                let text = String(decoding: bytes, as: UTF8.self)
                for sentinel in Self.sentinels {
                    #expect(!text.contains(sentinel), "\(name) still holds \(sentinel)")
                }
            }
            let verify = try cli.run(["verify", "--log", "data/events.jsonl"])
            #expect(verify.status == 0, "\(verify)")

            // The read models equal those of a log that never held the sentinel samples.
            try ingest(cli, Self.plainLines.joined(separator: "\n") + "\n", log: "clean/events.jsonl")
            #expect(try cli.run(["rebuild", "--log", "clean/events.jsonl", "--out", "clean-out"]).status == 0)
            for name in ["readiness.json", "trends.json", "weekly-stats.json", "sync-status.json"] {
                #expect(withoutThroughSeq(try cli.bytes("out/" + name)) == withoutThroughSeq(try cli.bytes("clean-out/" + name)), "\(name)")
            }

            // Every other line is byte-identical; the forgotten ones keep seq, id, type and recordedAt.
            let oldLines = before["data/events.jsonl"].map { String(decoding: $0, as: UTF8.self).split(separator: "\n").dropLast() } ?? []
            let newLines = String(decoding: after["data/events.jsonl"] ?? [], as: UTF8.self).split(separator: "\n")
            #expect(newLines.count == oldLines.count + 1)
            for (old, new) in zip(oldLines, newLines) {
                if Self.sentinels.contains(where: { old.contains($0) }) || old.contains(#""id":"SH1""#) {
                    #expect(new.contains(#""redacted":true"#))
                    #expect(old.prefix(upTo: old.range(of: #","data":"#)!.lowerBound) == new.prefix(upTo: new.range(of: #","data":"#)!.lowerBound))
                } else {
                    #expect(old == new)
                }
            }
            #expect(newLines.last?.contains(#""type":"data.forgotten""#) == true)
            #expect(newLines.last?.contains(#""data":{"events":5,"samples":3,"selectors":["source"]}"#) == true)

            // Re-ingesting the original input appends nothing; the forgotten lines are counted as such.
            let again = try cli.run(["ingest", "--log", "data/events.jsonl", "--json", "input-data-events.jsonl"])
            #expect(again.status == 0, "\(again)")
            #expect(again.stdout.contains(#""appended":0"#), "\(again)")
            #expect(again.stdout.contains(#""forgotten":5"#), "\(again)")

            // Readers cope: history marks redacted lines, stats counts them.
            let history = try cli.run(["history", "--log", "data/events.jsonl", "--sample", "SM1"])
            #expect(history.status == 0 && history.stdout.contains("REDACTED (forgotten) sample id=SM1"), "\(history)")
            let dated = try cli.run(["history", "--log", "data/events.jsonl", "--since", "2026-02-01"])
            #expect(dated.status == 0 && !dated.stdout.contains("REDACTED"), "\(dated)")
            let stats = try cli.run(["stats", "--log", "data/events.jsonl"])
            #expect(stats.stdout.contains("5 redacted (of forgotten samples)"), "\(stats)")
        }
    }

    /// An `ingest --wait` that queues behind a running `forget` appends to the
    /// new log, never to the file forget replaced (the lock follows the file).
    @Test func aWriterQueuedBehindForgetAppendsToTheNewLog() throws {
        try withCLI { cli in
            // A log long enough that forget holds the lock for a while.
            let generated = try cli.run(["generate", "--days", "120", "--seed", "3"])
            try cli.write("input.jsonl", generated.stdout + Self.sentinelLines.joined(separator: "\n") + "\n")
            #expect(try cli.run(["ingest", "--log", "events.jsonl", "input.jsonl"]).status == 0)
            try cli.write("late.jsonl", #"{"type":"sample","kind":"hrv","id":"LATE-1","start":"2026-05-06T06:00:00+01:00","end":"2026-05-06T06:01:00+01:00","value":61,"unit":"ms","source":"Apple Watch"}"# + "\n")

            let forget = try cli.start(["forget", "--log", "events.jsonl", "--source", "ZqSentinelSource"])
            // Wait until forget holds the lock and is writing the new log, then queue a writer behind it.
            let newLog = cli.directory + "/events.jsonl.forget-new"
            let deadline = Date().addingTimeInterval(20)
            while !FileManager.default.fileExists(atPath: newLog) && forget.isRunning && Date() < deadline { usleep(1_000) }
            let queued = try cli.start(["ingest", "--wait", "--log", "events.jsonl", "late.jsonl"])
            let forgot = try forget.finish(within: 300)
            let ingested = try queued.finish(within: 300)
            #expect(forgot.status == 0, "\(forgot)")
            #expect(ingested.status == 0, "\(ingested)")
            // The late event is in the log the path names now, after the data.forgotten record, and it verifies.
            let log = String(decoding: try cli.bytes("events.jsonl"), as: UTF8.self)
            let lines = log.split(separator: "\n")
            #expect(lines.last?.contains("LATE-1") == true)
            #expect(lines.dropLast().last?.contains(#""type":"data.forgotten""#) == true)
            #expect(!log.contains("ZqSentinelSource"))
            #expect(try cli.run(["verify", "--log", "events.jsonl"]).status == 0)
        }
    }

    @Test func aDryRunAndASelectorThatMatchesNothingChangeNoByte() throws {
        try withCLI { cli in
            try ingest(cli, Self.mixedInput, log: "data/events.jsonl")
            let before = try files(under: "data", cli)
            let dry = try cli.run(["forget", "--log", "data/events.jsonl", "--source", "ZqSentinelSource", "--dry-run"])
            #expect(dry.status == 0, "\(dry)")
            #expect(dry.stdout == "Dry run: would forget 3 samples (5 events): SH1, SM1, SW1\nNothing was changed.\n")
            #expect(try files(under: "data", cli) == before)
            let nothing = try cli.run(["forget", "--log", "data/events.jsonl", "--source", "Nobody", "--kind", "hrv"])
            #expect(nothing.status == 0, "\(nothing)")
            #expect(nothing.stdout == "Nothing matched: no sample was selected; the log is unchanged.\n")
            #expect(try files(under: "data", cli) == before)
        }
    }

    @Test func selectorsAreANDedAcrossKindsAndORedWithin() throws {
        try withCLI { cli in
            try ingest(cli, Self.mixedInput, log: "events.jsonl")
            func selected(_ arguments: [String]) throws -> String {
                let result = try cli.run(["forget", "--log", "events.jsonl", "--dry-run", "--json"] + arguments)
                #expect(result.status == 0, "\(result)")
                return result.stdout
            }
            #expect(try selected(["--kind", "bodyMass"]).contains(#""sampleIDs":["M1","SM1"]"#))
            #expect(try selected(["--kind", "bodyMass", "--source", "Scale"]).contains(#""sampleIDs":["M1"]"#))
            #expect(try selected(["--sample", "H1", "--sample", "W1"]).contains(#""sampleIDs":["H1","W1"]"#))
            #expect(try selected(["--deleted"]).contains(#""sampleIDs":["SH1"]"#))
            #expect(try selected(["--from", "2026-02-03", "--kind", "hrv"]).contains(#""sampleIDs":["H2","SH1"]"#))
            #expect(try selected(["--to", "2026-02-02", "--kind", "workout"]).contains(#""sampleIDs":["SW1"]"#))
        }
    }

    @Test func refusalsChangeNothing() throws {
        try withCLI { cli in
            try ingest(cli, Self.mixedInput, log: "data/events.jsonl")
            let before = try files(under: "data", cli)
            let none = try cli.run(["forget", "--log", "data/events.jsonl"])
            #expect(none.status == 64, "\(none)")

            // Another writer holds the lock.
            let holder = try LogFile.openForAppend(path: cli.directory + "/data/events.jsonl", create: false)
            let locked = try cli.run(["forget", "--log", "data/events.jsonl", "--source", "ZqSentinelSource", "--no-wait"])
            #expect(locked.status == 75, "\(locked)")
            try holder.close()
            #expect(try files(under: "data", cli) == before)

            // A damaged line in the middle.
            var bytes = try cli.bytes("data/events.jsonl")
            let target = Array(#""value":48.2"#.utf8)
            let at = (0...(bytes.count - target.count)).first { bytes[$0..<($0 + target.count)].elementsEqual(target) }!
            bytes[at + 9] = UInt8(ascii: "9")
            try cli.writeBytes("data/events.jsonl", bytes)
            let damaged = try files(under: "data", cli)
            let refused = try cli.run(["forget", "--log", "data/events.jsonl", "--source", "ZqSentinelSource"])
            #expect(refused.status == 65, "\(refused)")
            #expect(try files(under: "data", cli) == damaged)
        }
    }

    /// Too little free space for the new log is refused before anything is written. A full
    /// disk cannot be arranged here: `DUNE_FORGET_AVAILABLE_BYTES` (a test hook of the
    /// command) makes forget's own free-space check see that many free bytes.
    @Test func tooLittleFreeSpaceIsRefusedAndChangesNothing() throws {
        try withCLI { cli in
            try ingest(cli, Self.mixedInput, log: "data/events.jsonl")
            let before = try files(under: "data", cli)
            let logBytes = try #require(before["data/events.jsonl"]).count
            // The new log needs at most the old log's bytes and one more record (4096).
            let needed = logBytes + 4096
            let forget = ["forget", "--log", "data/events.jsonl", "--source", "ZqSentinelSource"]

            let refused = try cli.run(forget, environment: ["DUNE_FORGET_AVAILABLE_BYTES": "\(needed - 1)"])
            #expect(refused.status == 74, "\(refused)")
            #expect(refused.stdout.isEmpty, "\(refused)")
            let message = refused.stderr
            #expect(message.contains("data/events.jsonl: not enough free space to forget:"), "\(message)")
            #expect(message.contains("needs up to \(needed) bytes"), "\(message)")
            #expect(message.contains("has \(needed - 1) bytes free"), "\(message)")
            #expect(try files(under: "data", cli) == before)
            let names = try FileManager.default.contentsOfDirectory(atPath: cli.directory + "/data")
            #expect(names.sorted() == ["events.jsonl", "events.jsonl.synced"], "no .forget-new, no journal: \(names)")

            // One byte more is enough: the same check lets the forget through.
            let enough = try cli.run(forget, environment: ["DUNE_FORGET_AVAILABLE_BYTES": "\(needed)"])
            #expect(enough.status == 0, "\(enough)")
            #expect(try files(under: "data", cli)["data/events.jsonl"] != before["data/events.jsonl"])
        }
    }

    /// A write that fails part-way (here the file-size limit, the same path as a full disk)
    /// leaves the old log and nothing beside it.
    @Test func aFailedWriteOfTheNewLogLeavesTheOldLog() throws {
        try withCLI { cli in
            try ingest(cli, Self.mixedInput, log: "data/events.jsonl")
            let before = try files(under: "data", cli)
            #expect((before["data/events.jsonl"]?.count ?? 0) > 2048)
            let limited = try cli.start(["forget", "--log", "data/events.jsonl", "--source", "ZqSentinelSource"],
                                        launcher: ["/bin/sh", "-c", "ulimit -f 4; exec \"$@\"", "sh"]).finish()
            #expect(limited.status == 74, "\(limited)")
            #expect(try files(under: "data", cli) == before)
        }
    }
}
