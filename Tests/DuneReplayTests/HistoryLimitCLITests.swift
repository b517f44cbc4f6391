import Foundation
import Testing

/// Issue 35, item 8: `history --limit N` reads until its N-th row, not the
/// whole log — shown here by damage at the log's end that it never reaches —
/// and reads the rest only for the '!' mark of a task.started among the rows.
@Suite struct HistoryLimitCLITests {
    @Test func aLimitStopsReadingAtItsLastRow() throws {
        try withCLI { cli in
            let generated = try cli.run(["generate", "--days", "200", "--seed", "11"])
            try cli.write("input.jsonl", generated.stdout)
            #expect(try cli.run(["ingest", "--log", "events.jsonl", "input.jsonl"]).status == 0)
            let lines = try cli.bytes("events.jsonl").filter { $0 == UInt8(ascii: "\n") }.count
            #expect(lines > 20_000)
            try CLIPromiseTests.damage(cli, line: lines)

            let first = try cli.run(["history", "--log", "events.jsonl", "--limit", "2"])
            #expect(first.status == 0, "\(first)")
            #expect(first.stdout.split(separator: "\n").count == 3, "\(first)")  // the header and two rows
            let json = try cli.run(["history", "--log", "events.jsonl", "--limit", "2", "--json"])
            #expect(json.status == 0 && json.stdout.split(separator: "\n").count == 2, "\(json)")
            // A task.started among the rows needs the log's end for its mark: the damage is found.
            let task = try cli.run(["history", "--log", "events.jsonl", "--type", "task.started", "--limit", "1"])
            #expect(task.status == 65, "\(task)")
            // Without a limit, the whole log is read, as before.
            #expect(try cli.run(["history", "--log", "events.jsonl"]).status == 65)
        }
    }
}
