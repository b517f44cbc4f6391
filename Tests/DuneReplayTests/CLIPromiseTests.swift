import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DuneFixtures
import Testing

/// The CLI keeps its word (issue 25): each documented promise a new user tried,
/// as a black box — the recovery from damage, checked stdout writes, `report
/// --html` on what is already there, the lock options, one date per night, the
/// Apple Health counts, escaping of the data on a terminal, and the small ones.
@Suite struct CLIPromiseTests {
    /// `events.jsonl` holding CLIFixture's 8 events (seq 1–8).
    static func fixtureLog(_ cli: CLI) throws {
        try cli.write("input.jsonl", CLIFixture.text)
        let ingest = try cli.run(["ingest", "--log", "events.jsonl", "input.jsonl"])
        #expect(ingest.status == 0, "\(ingest)")
    }

    /// Flips one byte inside the JSON of line `line` (1-based) of `events.jsonl`, keeping its CRC.
    static func damage(_ cli: CLI, line: Int) throws {
        var bytes = try cli.bytes("events.jsonl")
        var start = 0
        for _ in 1..<line { start = try #require(bytes[start...].firstIndex(of: UInt8(ascii: "\n"))) + 1 }
        let offset = start + 20
        bytes[offset] = bytes[offset] == UInt8(ascii: "X") ? UInt8(ascii: "Y") : UInt8(ascii: "X")
        try cli.writeBytes("events.jsonl", bytes)
    }

    // MARK: - 1. The recovery from a damaged log

    @Test func rebuildSuggestsTheLastGoodSeqAndRebuildingThroughItWorks() throws {
        try withCLI { cli in
            try Self.fixtureLog(cli)
            try Self.damage(cli, line: 5)
            let refused = try cli.run(["rebuild", "--log", "events.jsonl"])
            #expect(refused.status == 65)
            #expect(refused.stdout == "")
            #expect(refused.stderr.hasSuffix("""
                To proceed: run 'dune-replay verify --log events.jsonl' to list the damage; restore the log from a backup,
                or rebuild the part before the damage (seq 1–4) with --until-seq 4.

                """), "\(refused)")
            let partial = try cli.run(["rebuild", "--log", "events.jsonl", "--until-seq", "4", "--json"])
            #expect(partial.status == 0, "\(partial)")
            #expect(partial.stdout.hasSuffix(#"{"rebuild":{"events":4,"skippedOutsideTimestampWindow":0,"throughSeq":4}}"# + "\n"))
            // The event just before the damage can be shown too.
            #expect(try cli.run(["show", "--log", "events.jsonl", "4"]).status == 0)
            #expect(try cli.run(["rebuild", "--log", "events.jsonl", "--until-seq", "5"]).status == 65)
        }
    }

    @Test func damageOnTheFirstLineSaysThereIsNothingBeforeIt() throws {
        try withCLI { cli in
            try Self.fixtureLog(cli)
            try Self.damage(cli, line: 1)
            let refused = try cli.run(["rebuild", "--log", "events.jsonl"])
            #expect(refused.status == 65)
            #expect(!refused.stderr.contains("--until-seq"), "\(refused)")
            #expect(refused.stderr.hasSuffix("""
                restore the log from a backup.
                The damage is on the first line: there is nothing before it to rebuild.

                """), "\(refused)")
        }
    }

    // MARK: - 2. Every stdout write is checked

    /// A launcher that runs the binary with stdout on /dev/full (every write fails with ENOSPC).
    static let toDevFull = ["/bin/sh", "-c", "exec \"$@\" > /dev/full", "sh"]

    @Test(.enabled(if: LinuxOnly.isLinux, "Linux only: /dev/full"))
    func everyCommandExits74WhenStdoutIsFull() throws {
        try withCLI { cli in
            try Self.fixtureLog(cli)
            let commands: [[String]] = [
                ["generate", "--days", "2"], ["rebuild", "--log", "events.jsonl", "--json"], ["rebuild", "--log", "events.jsonl"],
                ["history", "--log", "events.jsonl"], ["history", "--log", "events.jsonl", "--json"], ["verify", "--log", "events.jsonl"],
                ["stats", "--log", "events.jsonl"], ["show", "--log", "events.jsonl", "2"], ["tail", "--log", "events.jsonl"],
                ["report", "--log", "events.jsonl", "--no-snapshot"], ["report", "--log", "events.jsonl", "--no-snapshot", "--html", "-"],
                ["explain", "--log", "events.jsonl", "sync", "readiness"], ["--help"], ["--version"], ["ingest", "--help"],
                ["ingest", "--log", "events.jsonl", "input.jsonl"],
            ]
            for arguments in commands {
                let result = try cli.start(arguments, launcher: Self.toDevFull).finish()
                #expect(result.status == 74, "\(arguments): \(result)")
                #expect(result.stderr.hasSuffix("Error: the output is incomplete: disk full while writing 'standard output': No space left on device (errno 28); free some space and retry\n"),
                        "\(arguments): \(result)")
            }
        }
    }

    @Test(.enabled(if: LinuxOnly.isLinux, "Linux only: 'ulimit -f' and its EFBIG were checked on Linux only"))
    func generatePastAFileSizeLimitExits74InsteadOfLeavingACutFile() throws {
        try withCLI { cli in
            let launcher = ["/bin/sh", "-c", "ulimit -f 8; exec \"$@\" > generated.jsonl", "sh"]
            let result = try cli.start(["generate", "--days", "30"], launcher: launcher).finish()
            #expect(result.status == 74, "\(result)")
            #expect(result.stderr.hasPrefix("Error: the output is incomplete: file size limit exceeded while writing 'standard output'"), "\(result)")
            #expect(try cli.bytes("generated.jsonl").count <= 8 * 512)
        }
    }

    // MARK: - 3. report --html PATH on what is already there

    @Test func reportHTMLWritesThroughASymbolicLinkAndKeepsIt() throws {
        try withCLI { cli in
            try Self.fixtureLog(cli)
            try cli.write("target.html", "old")
            try FileManager.default.createSymbolicLink(atPath: cli.directory + "/link.html", withDestinationPath: "target.html")
            let page = try cli.run(["report", "--log", "events.jsonl", "--no-snapshot", "--html", "-"])
            #expect(page.status == 0)
            let result = try cli.run(["report", "--log", "events.jsonl", "--no-snapshot", "--html", "link.html"])
            #expect(result.status == 0, "\(result)")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: cli.directory + "/link.html") == "target.html")
            #expect(String(decoding: try cli.bytes("target.html"), as: UTF8.self) == page.stdout)
        }
    }

    @Test func reportHTMLWritesIntoAFIFOAndLeavesItAFIFO() throws {
        try withCLI { cli in
            try Self.fixtureLog(cli)
            #expect(mkfifo(cli.directory + "/pipe.html", 0o600) == 0)
            // A reader drains the FIFO into a file while the report writes it.
            let reader = Process()
            reader.executableURL = URL(fileURLWithPath: "/bin/sh")
            reader.arguments = ["-c", "cat pipe.html > copy.html"]
            reader.currentDirectoryURL = URL(fileURLWithPath: cli.directory)
            try reader.run()
            let result = try cli.run(["report", "--log", "events.jsonl", "--no-snapshot", "--html", "pipe.html"])
            reader.waitUntilExit()
            #expect(result.status == 0, "\(result)")
            let page = try cli.run(["report", "--log", "events.jsonl", "--no-snapshot", "--html", "-"])
            #expect(String(decoding: try cli.bytes("copy.html"), as: UTF8.self) == page.stdout)
            var status = stat()
            #expect(lstat(cli.directory + "/pipe.html", &status) == 0)
            #expect(status.st_mode & S_IFMT == S_IFIFO)
        }
    }

    @Test func reportHTMLReplacesARegularFileAtomically() throws {
        try withCLI { cli in
            try Self.fixtureLog(cli)
            try cli.write("report.html", "old")
            let before = try #require(try FileManager.default.attributesOfItem(atPath: cli.directory + "/report.html")[.systemFileNumber] as? Int)
            let result = try cli.run(["report", "--log", "events.jsonl", "--no-snapshot", "--html", "report.html"])
            #expect(result.status == 0, "\(result)")
            let after = try #require(try FileManager.default.attributesOfItem(atPath: cli.directory + "/report.html")[.systemFileNumber] as? Int)
            #expect(before != after)  // a new file renamed over the old one
            #expect(try cli.listing() == ["events.jsonl", "events.jsonl.synced", "input.jsonl", "report.html"])
        }
    }

    // MARK: - 4. The lock options each command has

    /// Holds the writer lock of `events.jsonl` (an exclusive `flock`) from this process while `body` runs.
    static func holdingLock(_ cli: CLI, _ body: () throws -> Void) throws {
        let fd = open(cli.directory + "/events.jsonl", O_RDWR)
        #expect(fd >= 0)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
        try body()
    }

    @Test func noWaitFailsAtOnceAndItsAdviceNamesOnlyTheCommandsOptions() throws {
        try withCLI { cli in
            try Self.fixtureLog(cli)
            try Self.holdingLock(cli) {
                let forget = try cli.run(["forget", "--log", "events.jsonl", "--kind", "hrv", "--no-wait"])
                #expect(forget.status == 75)
                #expect(forget.stderr == "Error: the log 'events.jsonl' is in use by another writer; try again when it has finished, or leave out --no-wait to wait up to 5 s for it (--wait: until it has finished)\n")
                let ingest = try cli.run(["ingest", "--log", "events.jsonl", "--no-wait", "input.jsonl"])
                #expect(ingest.status == 75)
                #expect(ingest.stderr == forget.stderr)
            }
            // Both options are real: forget takes --wait (the lock is free now).
            let waited = try cli.run(["forget", "--log", "events.jsonl", "--kind", "hrv", "--wait"])
            #expect(waited.status == 0, "\(waited)")
            let both = try cli.run(["ingest", "--log", "events.jsonl", "--wait", "--no-wait", "input.jsonl"])
            #expect(both.status == 64)
            #expect(both.stderr.hasPrefix("Error: '--wait' and '--no-wait' do not go together; give one of them\nUsage: dune-replay ingest"))
            // A command that does not write the log has neither.
            #expect(try cli.run(["report", "--log", "events.jsonl", "--wait"]).status == 64)
        }
    }

    @Test func aWritingCommandWaitsFiveSecondsByDefaultThenExits75() throws {
        try withCLI { cli in
            try Self.fixtureLog(cli)
            try Self.holdingLock(cli) {
                let result = try cli.start(["ingest", "--log", "events.jsonl", "input.jsonl"]).finish(within: 300)
                #expect(!result.timedOut)
                #expect(result.status == 75)
                #expect(result.stderr == "Error: the log 'events.jsonl' is in use by another writer (waited 5 s for it); try again when it has finished, or pass --wait to wait until it has\n")
            }
        }
    }

    @Test func everyLockAdviceInTheHelpAndMessagesNamesAnOptionTheCommandHas() throws {
        try withCLI { cli in
            for command in ["ingest", "rebuild", "history", "show", "verify", "stats", "generate", "explain", "tail", "report", "forget"] {
                let help = try cli.run([command, "--help"]).stdout
                let usage = try #require(help.split(separator: "\n").first { $0.hasPrefix("USAGE:") })
                for option in ["--wait", "--no-wait"] where help.contains(option) {
                    #expect(usage.contains(option), "\(command) --help names \(option) but has no such option")
                }
                let writes = ["ingest", "forget"].contains(command)
                #expect(usage.contains("[--wait|--no-wait]") == writes, "\(command)")
            }
        }
    }

    // MARK: - 5. One date per night

    @Test func historyStatsAndForgetDateASleepSampleByTheNightItCountsFor() throws {
        try withCLI { cli in
            let lines = [
                // Starts on 02-01, ends on the morning of 02-02: it counts for 02-02.
                #"{"type":"sample","kind":"sleep","id":"S1","start":"2026-02-01T23:00:00+01:00","end":"2026-02-02T06:30:00+01:00","value":"asleepCore","source":"Watch"}"#,
                #"{"type":"sample","kind":"hrv","id":"H1","start":"2026-02-02T06:00:00+01:00","end":"2026-02-02T06:01:00+01:00","value":48.2,"unit":"ms","source":"Watch"}"#,
            ]
            try cli.write("input.jsonl", lines.joined(separator: "\n") + "\n")
            #expect(try cli.run(["ingest", "--log", "events.jsonl", "input.jsonl"]).status == 0)
            let night = try cli.run(["history", "--log", "events.jsonl", "--kind", "sleep", "--since", "2026-02-02", "--until", "2026-02-02"])
            #expect(night.stdout.split(separator: "\n").count == 2, "\(night)")
            #expect(night.stdout.contains("asleepCore 450 min until 2026-02-02T06:30:00+01:00 (counts for 2026-02-02)  [Watch] id=S1"))
            let before = try cli.run(["history", "--log", "events.jsonl", "--kind", "sleep", "--until", "2026-02-01"])
            #expect(before.stdout.split(separator: "\n").count == 1, "\(before)")  // the header only
            let stats = try cli.run(["stats", "--log", "events.jsonl", "--json"])
            #expect(stats.stdout.contains(#""firstDay":"2026-02-02","lastDay":"2026-02-02""#), "\(stats)")
            let forget = try cli.run(["forget", "--log", "events.jsonl", "--kind", "sleep", "--from", "2026-02-02", "--to", "2026-02-02", "--dry-run"])
            #expect(forget.stdout == "Dry run: would forget 1 sample (1 event): S1\nNothing was changed.\n", "\(forget)")
            let readiness = try cli.run(["explain", "--log", "events.jsonl", "--no-snapshot", "readiness", "2026-02-02"])
            #expect(readiness.stdout.contains("450 min = union of 1 interval of 1 asleep sample"), "\(readiness)")
        }
    }

    // MARK: - 6. The Apple Health import's counts

    @Test func aRecordAfterTheExportDateIsOneRejectionEverywhereWithAReasonInWords() throws {
        try withCLI { cli in
            let writer = AppleHealthExportWriter(exportDate: "2024-03-01 09:00:00 +0100")
            let elements: [AppleHealthExportWriter.Element] = [
                .record(.init(type: "HKQuantityTypeIdentifierStepCount", sourceName: "iPhone", unit: "count", value: "300",
                              startDate: "2024-02-01 12:00:00 +0100", endDate: "2024-02-01 12:30:00 +0100")),
                .record(.init(type: "HKQuantityTypeIdentifierStepCount", sourceName: "iPhone", unit: "count", value: "300",
                              startDate: "2024-04-01 12:00:00 +0100", endDate: "2024-04-01 12:30:00 +0100")),
            ]
            try cli.write("export.xml", writer.document(elements))
            let text = try cli.run(["ingest", "--log", "events.jsonl", "--format", "apple-health", "export.xml"])
            #expect(text.status == 65)
            #expect(!text.stderr.contains("afterExportDate"), "\(text)")
            #expect(text.stderr.contains("HKQuantityTypeIdentifierStepCount: starts 2024-04-01T12:00:00+01:00, after the export date 2024-03-01T09:00:00+01:00"), "\(text)")
            let rows = text.stdout.split(separator: "\n")
            #expect(rows.contains { $0.hasPrefix("HKQuantityTypeIdentifierStepCount  2       1         0        0        1") }, "\(text)")
            #expect(rows.contains { $0.hasPrefix("total") && $0.hasSuffix(" 1") }, "\(text)")
            #expect(text.stdout.hasSuffix("appended 1 event, seq 1\n"), "\(text)")

            let json = try cli.run(["ingest", "--log", "again.jsonl", "--format", "apple-health", "--json", "export.xml"])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            #expect(object["rejected"] as? Int == 1)
            #expect(object["lines"] as? Int == 2)
            #expect(object["appended"] as? Int == 1)
            let types = try #require(object["recordTypes"] as? [String: [String: Int]])
            #expect(types["HKQuantityTypeIdentifierStepCount"]?["rejected"] == 1)
        }
    }

    // MARK: - 7. What git ignores

    @Test func gitIgnoresSnapshotsAndAnUnfinishedForgetsFiles() throws {
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        git.arguments = ["git", "-C", SampleLogTests.repository, "check-ignore", "--no-index",
                         "Logs/events.jsonl.snapshot", "Logs/events.jsonl.snapshot.tmp-4242",
                         "Logs/events.jsonl.forget-journal", "Logs/events.jsonl.forget-new", "Logs/events.jsonl.checkpoint"]
        let output = Pipe()
        git.standardOutput = output
        git.standardError = FileHandle.nullDevice
        try git.run()
        let listed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        git.waitUntilExit()
        #expect(git.terminationStatus == 0, "git check-ignore: \(listed)")
        #expect(listed.split(separator: "\n").count == 5, "\(listed)")
    }

    // MARK: - 8. The data never writes to the terminal

    /// Names with an escape sequence, a bell, a carriage return, a C1 control and a bidi override.
    static let hostile = [
        #"{"type":"sample","kind":"hrv","id":"E1","start":"2026-02-02T06:00:00+01:00","end":"2026-02-02T06:01:00+01:00","value":48.2,"unit":"ms","source":"<script>\u001b[31mred\u0007\r\u0085\u202Eevil"}"#,
        #"{"type":"sample","kind":"workout","id":"E2","start":"2026-02-02T17:00:00+01:00","end":"2026-02-02T18:00:00+01:00","activityType":"run\u001b]0;title\u0007","energy":500,"energyUnit":"kcal","source":"Watch\u0007"}"#,
        #"{"type":"task","task":"t\u001b[2J","feature":"readiness","phase":"started","at":"2026-02-02T07:00:01+01:00"}"#,
        #"{"type":"task","task":"t\u001b[2J","feature":"readiness","phase":"failed","error":"boom\u001b[1m\u2066","at":"2026-02-02T07:00:02+01:00"}"#,
    ]

    static func hasTerminalControls(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            (scalar.value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(scalar.value)
                || [0x202E, 0x2066].contains(scalar.value)
        }
    }

    @Test func humanOutputEscapesControlCharactersFromTheDataAndJSONKeepsJSONEscaping() throws {
        try withCLI { cli in
            try cli.write("hostile.jsonl", Self.hostile.joined(separator: "\n") + "\n")
            let ingest = try cli.run(["ingest", "--log", "events.jsonl", "hostile.jsonl"])
            #expect(ingest.status == 0, "\(ingest)")
            let runs: [[String]] = [
                ["history", "--log", "events.jsonl"], ["tail", "--log", "events.jsonl"], ["stats", "--log", "events.jsonl"],
                ["show", "--log", "events.jsonl", "1"], ["show", "--log", "events.jsonl", "2"],
                ["explain", "--log", "events.jsonl", "--no-snapshot", "readiness", "2026-02-02"],
                ["explain", "--log", "events.jsonl", "--no-snapshot", "weekly", "2026-02-02"],
                ["explain", "--log", "events.jsonl", "sync", "readiness"],
                ["report", "--log", "events.jsonl", "--no-snapshot"],
            ]
            for arguments in runs {
                let result = try cli.run(arguments)
                #expect(result.status == 0, "\(arguments): \(result)")
                #expect(!Self.hasTerminalControls(result.stdout), "\(arguments): \(result.stdout.debugDescription)")
            }
            let history = try cli.run(["history", "--log", "events.jsonl", "--seq", "1"])
            #expect(history.stdout.contains(#"[<script>\u{1B}[31mred\u{7}\u{D}\u{85}\u{202E}evil] id=E1"#), "\(history)")
            let sync = try cli.run(["explain", "--log", "events.jsonl", "sync", "readiness"])
            #expect(sync.stdout.contains(#"last error "boom\u{1B}[1m\u{2066}""#), "\(sync)")
            // The log keeps the data as given, and --json prints it the JSON way.
            let json = try cli.run(["history", "--log", "events.jsonl", "--seq", "1", "--json"])
            #expect(json.stdout.contains(#""source":"<script>\u001b[31mred\u0007\r"#), "\(json)")
        }
    }

    // MARK: - 10. Small surprises

    @Test func aLogInAMissingFolderIsRefusedAndTheFolderIsNotCreated() throws {
        try withCLI { cli in
            try cli.write("input.jsonl", CLIFixture.text)
            let result = try cli.run(["ingest", "--log", "missing/deeper/events.jsonl", "input.jsonl"])
            #expect(result.status == 66)
            #expect(result.stderr.hasPrefix("Error: the log's folder 'missing/deeper' does not exist"), "\(result)")
            #expect(!cli.exists("missing"))
            let tail = try cli.run(["tail", "--follow", "--log", "missing/events.jsonl"])
            #expect(tail.status == 66)
            #expect(!cli.exists("missing"))
        }
    }

    @Test func aByteOrderMarkAtTheStartOfAnInputIsSkipped() throws {
        try withCLI { cli in
            try cli.writeBytes("bom.jsonl", [0xEF, 0xBB, 0xBF] + Array(CLIFixture.text.utf8))
            let result = try cli.run(["ingest", "--log", "events.jsonl", "bom.jsonl"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "8 lines: 8 appended (8 events, seq 1–8), 0 already appended, 0 conflicts, 0 rejected\n")
            // Only at the very start: elsewhere it is still an unexpected byte.
            try cli.writeBytes("middle.jsonl", Array((CLIFixture.lines[0] + "\n").utf8) + [0xEF, 0xBB, 0xBF] + Array(CLIFixture.lines[1].utf8))
            let middle = try cli.run(["ingest", "--log", "other.jsonl", "middle.jsonl"])
            #expect(middle.status == 65)
            #expect(middle.stderr.hasPrefix("middle.jsonl:2: "), "\(middle)")
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs util-linux's script(1) to give the CLI a terminal"))
    func onlyANonEmptyNoColorTurnsColourOff() throws {
        try withCLI { cli in
            try Self.fixtureLog(cli)
            /// `history` on a pseudo-terminal with `NO_COLOR` set to `value`.
            func history(noColor value: String) throws -> String {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
                process.arguments = ["-qec", "NO_COLOR=\(value) '\(CLI.binary)' history --log events.jsonl", "/dev/null"]
                process.currentDirectoryURL = URL(fileURLWithPath: cli.directory)
                let output = Pipe()
                process.standardOutput = output
                process.standardInput = FileHandle.nullDevice
                try process.run()
                let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                return text
            }
            // The throttled refresh's row is coloured on a terminal (no-color.org: an empty value is as if unset).
            #expect(try history(noColor: "").contains("\u{1B}[33m"))
            #expect(try !history(noColor: "1").contains("\u{1B}["))
        }
    }

    @Test func optionsThatDoNotApplyTogetherAreRefused() throws {
        try withCLI { cli in
            try Self.fixtureLog(cli)
            let cases: [(arguments: [String], message: String)] = [
                (["generate", "--extreme", "centuries", "--days", "3"], "Error: '--days' does not apply with '--extreme'"),
                (["generate", "--extreme", "centuries", "--start", "2026-01-01"], "Error: '--start' does not apply with '--extreme'"),
                (["generate", "--days", "3", "--events", "100"], "Error: '--events' applies only with '--extreme CASE'"),
                (["tail", "--log", "events.jsonl", "-n", "2", "--lines", "3"], "Error: '-n' and '--lines' are the same option"),
                (["explain", "--log", "events.jsonl", "--no-snapshot", "sync", "readiness"], "Error: '--no-snapshot' does not apply to 'explain sync'"),
                (["forget", "--log", "events.jsonl", "--kind", "hrv", "--wait", "--no-wait"], "Error: '--wait' and '--no-wait' do not go together"),
            ]
            for (arguments, message) in cases {
                let result = try cli.run(arguments)
                #expect(result.status == 64, "\(arguments): \(result)")
                #expect(result.stdout == "", "\(arguments)")
                #expect(result.stderr.hasPrefix(message), "\(arguments): \(result)")
            }
        }
    }

    @Test func countsOfOneReadInTheSingular() throws {
        try withCLI { cli in
            try cli.write("one.jsonl", CLIFixture.lines[1] + "\n")
            let ingest = try cli.run(["ingest", "--log", "events.jsonl", "one.jsonl"])
            #expect(ingest.stdout == "1 line: 1 appended (1 event, seq 1), 0 already appended, 0 conflicts, 0 rejected\n")
            let verify = try cli.run(["verify", "--log", "events.jsonl"])
            #expect(verify.stdout.hasPrefix("ok: events.jsonl: 1 event, seq 1, "), "\(verify)")
            let stats = try cli.run(["stats", "--log", "events.jsonl"])
            #expect(stats.stdout.hasPrefix("events.jsonl: 1 event, "), "\(stats)")
            #expect(stats.stdout.contains("2026-02-02 – 2026-02-02 (1 day)"), "\(stats)")
            let rebuild = try cli.run(["rebuild", "--log", "events.jsonl"])
            #expect(rebuild.stdout.hasPrefix("Replayed 1 event (through seq 1).\n"), "\(rebuild)")
        }
    }

    @Test func verifyOnATornTailSaysWhatTheNextWriterWillDo() throws {
        try withCLI { cli in
            try Self.fixtureLog(cli)
            let whole = try cli.bytes("events.jsonl")
            try cli.writeBytes("events.jsonl", whole + Array(#"{"v":1,"seq":9,"id":"#.utf8))
            let verify = try cli.run(["verify", "--log", "events.jsonl"])
            #expect(verify.status == 65)
            #expect(verify.stdout == "torn tail: events.jsonl: 8 whole lines intact (seq 1–8); the next writer (ingest, forget, an app's store) moves the 20 bytes after the last newline to events.jsonl.torn-<UTC time> and cuts the log back to its last whole line, then appends after seq 8.\n")
            // And it does: the next ingest moves them aside and appends seq 9.
            try cli.write("more.jsonl", #"{"type":"refresh","source":"pullToRefresh","at":"2026-02-03T07:00:00+01:00"}"# + "\n")
            let ingest = try cli.run(["ingest", "--log", "events.jsonl", "more.jsonl"])
            #expect(ingest.stdout == "1 line: 1 appended (1 event, seq 9), 0 already appended, 0 conflicts, 0 rejected\n", "\(ingest)")
            #expect(try cli.listing().contains { $0.hasPrefix("events.jsonl.torn-") })
        }
    }

    @Test func explainRefreshSpeaksTheDomainsWordsAndNamesARequestOutOfOrder() throws {
        try withCLI { cli in
            let lines = [
                #"{"type":"refresh","source":"foreground","at":"2026-02-02T10:00:00+01:00"}"#,
                // 58 minutes earlier than the refresh performed before it.
                #"{"type":"refresh","source":"foreground","at":"2026-02-02T09:02:00+01:00"}"#,
            ]
            try cli.write("input.jsonl", lines.joined(separator: "\n") + "\n")
            #expect(try cli.run(["ingest", "--log", "events.jsonl", "input.jsonl"]).status == 0)
            let explain = try cli.run(["explain", "--log", "events.jsonl", "refresh", "2"])
            #expect(explain.status == 0, "\(explain)")
            #expect(explain.stdout.contains("foreground at 2026-02-02T09:02:00+01:00 → THROTTLED (coordinatorThrottle)"), "\(explain)")
            #expect(explain.stdout.contains("last performed refresh   seq 1 at 2026-02-02T10:00:00+01:00: this request is dated 3480 s earlier: it came out of order, so it is within the 60 s throttle (an earlier request is stale)"), "\(explain)")
            #expect(!explain.stdout.contains("-3480"), "\(explain)")
            #expect(!explain.stdout.contains("RefreshCoordinator"), "\(explain)")
            #expect(explain.stdout.contains("matches the log."), "\(explain)")
        }
    }

    @Test func reingestingAForgottenSampleSaysWhyNothingWasStored() throws {
        try withCLI { cli in
            try Self.fixtureLog(cli)
            #expect(try cli.run(["forget", "--log", "events.jsonl", "--sample", "H1"]).status == 0)
            try cli.write("again.jsonl", CLIFixture.lines[1] + "\n")
            let again = try cli.run(["ingest", "--log", "events.jsonl", "again.jsonl"])
            #expect(again.status == 0)
            #expect(again.stdout == "1 line: 0 appended, 1 already appended (1 forgotten: the sample was forgotten (erased by forget); it is never stored again), 0 conflicts, 0 rejected\n")
        }
    }

    @Test func theReferenceReadinessScriptReadsALogWithRedactedLines() throws {
        try withCLI { cli in
            try ReportCLITests.makeGeneratedLog(cli, days: 40)
            let forget = try cli.run(["forget", "--log", "events.jsonl", "--kind", "hrv", "--from", "2026-01-20", "--out", "out"])
            #expect(forget.status == 0, "\(forget)")
            let python = Process()
            python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            python.arguments = ["python3", SampleLogTests.repository + "/Scripts/reference_readiness.py",
                                cli.directory + "/events.jsonl", cli.directory + "/out/readiness.json"]
            let output = Pipe()
            python.standardOutput = output
            python.standardError = output
            try python.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            python.waitUntilExit()
            #expect(python.terminationStatus == 0, "\(text)")
            #expect(text.contains("mismatches 0"), "\(text)")
        }
    }

    @Test func theLogFormatsVerifyExampleCountsTheShippedLog() throws {
        try withCLI { cli in
            /// "26100 events, seq 1–26100" from a verify line.
            func counts(_ line: String) throws -> String {
                let start = try #require(line.range(of: "events.jsonl: ")).upperBound
                let parts = line[start...].split(separator: ",")
                return parts[0] + "," + parts[1]
            }
            let shipped = try cli.run(["verify", "--log", SampleLogTests.repository + "/Logs/events.jsonl"])
            let doc = try String(contentsOfFile: SampleLogTests.repository + "/docs/log-format.md", encoding: .utf8)
            let example = try #require(doc.split(separator: "\n").first { $0.hasPrefix("ok: Logs/events.jsonl: ") })
            #expect(try counts(shipped.stdout) == counts(String(example)), "\(shipped.stdout) vs \(example)")
        }
    }
}
