import Foundation
import Testing

@Suite struct CommandLineTests {
    @Test func versionAndHelp() throws {
        try withCLI { cli in
            let version = try cli.run(["--version"])
            #expect(version.status == 0)
            #expect(version.stdout == "dune-replay 0.1.0\n")
            for command in ["ingest", "rebuild", "history", "show", "verify", "stats", "generate"] {
                let help = try cli.run([command, "--help"])
                #expect(help.status == 0, "\(command)")
                #expect(help.stdout.contains("USAGE: dune-replay \(command)"), "\(command)")
                #expect(help.stderr == "")
            }
        }
    }

    @Test func usageErrorsExit64WithUsageAndAHint() throws {
        try withCLI { cli in
            let result = try cli.run(["history", "--kind", "vo2max"])
            #expect(result.status == 64)
            #expect(result.stdout == "")
            #expect(result.stderr.hasPrefix("Error: unknown sample kind 'vo2max'"))
            #expect(result.stderr.contains("Usage: dune-replay history"))
            #expect(result.stderr.hasSuffix("See 'dune-replay history --help' for more information.\n"))
            let unknown = try cli.run(["frobnicate"])
            #expect(unknown.status == 64)
            let option = try cli.run(["verify", "--bogus"])
            #expect(option.status == 64)
            #expect(option.stderr.hasPrefix("Error: unknown option '--bogus'\nUsage: dune-replay verify"))
        }
    }

    @Test func missingInputOrLogExits66AndWritesNothing() throws {
        try withCLI { cli in
            let ingest = try cli.run(["ingest", "--log", "events.jsonl", "nope.jsonl"])
            #expect(ingest.status == 66)
            #expect(ingest.stderr == "Error: nope.jsonl: 'nope.jsonl' does not exist: No such file or directory (errno 2); check the path\n")
            #expect(!cli.exists("events.jsonl"))
            let history = try cli.run(["history", "--log", "missing.jsonl"])
            #expect(history.status == 66)
            #expect(history.stderr.hasPrefix("Error: no log at 'missing.jsonl'"))
            let env = try cli.run(["stats"], environment: ["DUNE_LOG": cli.directory + "/env.jsonl"])
            #expect(env.status == 66)
            #expect(env.stderr.contains("env.jsonl"))
        }
    }

    @Test func historyFiltersAndShowsEventsAsTableOrJSON() throws {
        try withCLI { cli in
            try cli.write("input.jsonl", CLIFixture.text)
            _ = try cli.run(["ingest", "--log", "events.jsonl", "input.jsonl"])
            let hrv = try cli.run(["history", "--log", "events.jsonl", "--kind", "hrv"])
            #expect(hrv.status == 0)
            let rows = hrv.stdout.split(separator: "\n")
            #expect(rows.count == 3)  // header, the hrv sample, the hrv observer refresh
            #expect(rows[1].hasPrefix("2      sample.ingested   2026-02-02T06:00:00+01:00 hrv 48.2 ms  [Apple Watch] id=H1"))
            #expect(rows[2].contains("healthKitObserver (hrv) → THROTTLED (coordinatorThrottle)"))
            let json = try cli.run(["history", "--log", "events.jsonl", "--seq", "3..4", "--json"])
            let stored = try cli.bytes("events.jsonl").split(separator: UInt8(ascii: "\n"))
            #expect(json.stdout == String(decoding: stored[2] + [10] + stored[3] + [10], as: UTF8.self))
            let task = try cli.run(["history", "--log", "events.jsonl", "--task", "t1", "--type", "task.completed"])
            #expect(task.stdout.split(separator: "\n").count == 2)
            let since = try cli.run(["history", "--log", "events.jsonl", "--since", "2026-02-02", "--limit", "2"])
            #expect(since.stdout.split(separator: "\n").count == 3)
            let show = try cli.run(["show", "--log", "events.jsonl", "4"])
            #expect(show.stdout.contains("counts for  2026-02-02 (the morning the night ends: local date of end + 6 h)"))
            let missing = try cli.run(["show", "--log", "events.jsonl", "99"])
            #expect(missing.status == 65)
        }
    }

    @Test func statsCountsByTypeKindAndSource() throws {
        try withCLI { cli in
            try cli.write("input.jsonl", CLIFixture.text)
            _ = try cli.run(["ingest", "--log", "events.jsonl", "input.jsonl"])
            let stats = try cli.run(["stats", "--log", "events.jsonl", "--json"])
            #expect(stats.status == 0)
            let size = try cli.bytes("events.jsonl").count
            #expect(stats.stdout == #"{"byKind":{"hrv":1,"restingHeartRate":1,"sleep":1},"bySource":{"Apple Watch":3},"byType":{"profile.updated":1,"refresh.requested":2,"sample.ingested":3,"task.completed":1,"task.started":1},"bytes":\#(size),"events":8,"firstDay":"2026-02-01","lastDay":"2026-02-02","redacted":0}"# + "\n")
        }
    }

    @Test func generateIsDeterministicAndIngestsWithoutRejections() throws {
        try withCLI { cli in
            let first = try cli.run(["generate", "--days", "30", "--seed", "7"])
            let second = try cli.run(["generate", "--days", "30", "--seed", "7"])
            #expect(first.status == 0)
            #expect(first.stdout == second.stdout)
            #expect(first.stdout != (try cli.run(["generate", "--days", "30", "--seed", "8"])).stdout)
            let ingest = try cli.run(["ingest", "--log", "events.jsonl", "-"], stdin: Array(first.stdout.utf8))
            #expect(ingest.status == 0, "\(ingest.stderr)")
            #expect(ingest.stdout.contains(" 0 rejected"))
        }
    }
}
