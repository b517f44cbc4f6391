import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

/// `dune-replay tail [--follow]` and the markers `history` and `tail` put on events that need attention.
@Suite struct TailCLITests {
    /// Sends `signal` to a started run that is still running.
    func send(_ signal: Int32, to running: CLI.Running) {
        if running.process.isRunning { _ = kill(running.process.processIdentifier, signal) }
    }

    func storedLines(_ cli: CLI, _ name: String = "events.jsonl") throws -> [String] {
        String(decoding: try cli.bytes(name), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func tailPrintsTheLastEvents() throws {
        try withCLI { cli in
            try cli.write("input.jsonl", CLIFixture.text)
            _ = try cli.run(["ingest", "--log", "events.jsonl", "input.jsonl"])
            let stored = try storedLines(cli)
            let json = try cli.run(["tail", "--log", "events.jsonl", "-n", "3", "--json"])
            #expect(json.status == 0)
            #expect(json.stdout == stored.suffix(3).joined(separator: "\n") + "\n")
            let table = try cli.run(["tail", "--log", "events.jsonl", "-n", "2"])
            let rows = table.stdout.split(separator: "\n")
            #expect(rows.count == 3)
            #expect(rows[0].hasPrefix("SEQ    TYPE"))
            #expect(rows[1].hasPrefix("7      task.started"))
            #expect(rows[2].hasPrefix("8      task.completed"))
            let all = try cli.run(["tail", "--log", "events.jsonl", "-n", "100", "--json"])
            #expect(all.stdout == stored.joined(separator: "\n") + "\n")
            // A torn last line (a writer mid-append) is not printed.
            try cli.writeBytes("torn.jsonl", try cli.bytes("events.jsonl") + Array(#"{"v":1,"seq":9,"#.utf8))
            #expect(try cli.run(["tail", "--log", "torn.jsonl", "-n", "1", "--json"]).stdout == stored[7] + "\n")
            let missing = try cli.run(["tail", "--log", "missing.jsonl"])
            #expect(missing.status == 66)
            #expect(try cli.run(["tail", "--log", "events.jsonl", "-n", "x"]).status == 64)
        }
    }

    @Test(.timeLimit(.minutes(5)))  // only ends a test that would hang; the waits below are for the output itself
    func followShowsEventsAppendedByAConcurrentIngest() async throws {
        try await withCLI { cli in
            let lines = CLIFixture.lines
            try cli.write("first.jsonl", lines.prefix(4).joined(separator: "\n") + "\n")
            try cli.write("second.jsonl", lines.dropFirst(4).joined(separator: "\n") + "\n")
            #expect(try cli.run(["ingest", "--log", "events.jsonl", "first.jsonl"]).status == 0)
            let tail = try cli.start(["tail", "--log", "events.jsonl", "--follow", "-n", "1", "--json"], pipesOutput: true)
            defer { send(SIGKILL, to: tail) }
            let stored = try storedLines(cli)
            // The last existing event shows first: tail is following now.
            #expect(await tail.stdout?.waitFor(stored[3]).contains(stored[3]) == true)
            let ingest = try cli.run(["ingest", "--log", "events.jsonl", "second.jsonl"])
            #expect(ingest.status == 0, "\(ingest)")
            let all = try storedLines(cli)
            #expect(all.count == 8)
            // Until the last appended event shows (tail polls the file every 100 ms).
            let shown = await tail.stdout?.waitFor(all[7])
            #expect(shown == all.suffix(5).joined(separator: "\n") + "\n")
            #expect(tail.process.isRunning)
            send(SIGTERM, to: tail)
            _ = await tail.finished()
        }
    }

    @Test(.timeLimit(.minutes(5)))  // only ends a test that would hang; the waits below are for the output itself
    func followWaitsForALogThatDoesNotExistYet() async throws {
        try await withCLI { cli in
            let tail = try cli.start(["tail", "--log", "later.jsonl", "--follow"], pipesOutput: true)
            defer { send(SIGKILL, to: tail) }
            #expect(await tail.stderr?.waitFor("waiting for 'later.jsonl'").contains("waiting") == true)
            try cli.write("input.jsonl", CLIFixture.text)
            #expect(try cli.run(["ingest", "--log", "later.jsonl", "input.jsonl"]).status == 0)
            let shown = await tail.stdout?.waitFor("readiness task t1 completed") ?? ""
            let rows = shown.split(separator: "\n")
            #expect(rows.count == 9, "\(shown)")  // header and all 8 events
            #expect(rows.last?.hasPrefix("8      task.completed") == true)
            send(SIGTERM, to: tail)
            _ = await tail.finished()
        }
    }

    @Test func historyMarksThrottledRefreshesAndTasksThatNeverEnded() throws {
        try withCLI { cli in
            let lines = CLIFixture.lines + [
                #"{"type":"task","task":"t2","feature":"trends","phase":"started","at":"2026-02-02T07:05:00+01:00"}"#,
            ]
            try cli.write("input.jsonl", lines.joined(separator: "\n") + "\n")
            _ = try cli.run(["ingest", "--log", "events.jsonl", "input.jsonl"])
            let history = try cli.run(["history", "--log", "events.jsonl"])
            let rows = history.stdout.split(separator: "\n").map(String.init)
            #expect(rows.count == 10)
            #expect(rows[5] == "5      refresh.requested 2026-02-02T07:00:00+01:00 foreground → performed, refresh signal 1")
            #expect(rows[6] == "6    ! refresh.requested 2026-02-02T07:00:20+01:00 healthKitObserver (hrv) → THROTTLED (coordinatorThrottle)")
            #expect(rows[7] == "7      task.started      2026-02-02T07:00:01+01:00 readiness task t1 started")
            #expect(rows[9] == "9    ! task.started      2026-02-02T07:05:00+01:00 trends task t2 started  ← started, never ended")
            #expect(!history.stdout.contains("\u{1B}["))  // not a terminal: no colour
            let tail = try cli.run(["tail", "--log", "events.jsonl", "-n", "4"])
            #expect(tail.stdout.contains("6    ! refresh.requested"))
            let sync = try cli.run(["explain", "--log", "events.jsonl", "sync", "trends"])
            #expect(sync.stdout.contains("! t2 started at seq 9"))
        }
    }
}
