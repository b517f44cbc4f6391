import Foundation
import Testing

@Suite struct RebuildCLITests {
    /// A generated log of `days` days in `cli.directory/events.jsonl`.
    func makeLog(_ cli: CLI, days: Int = 90) throws {
        let input = try cli.run(["generate", "--days", String(days), "--seed", "3"])
        try cli.write("input.jsonl", input.stdout)
        let ingest = try cli.run(["ingest", "--log", "events.jsonl", "input.jsonl"])
        #expect(ingest.status == 0, "\(ingest)")
    }

    func files(_ cli: CLI, _ directory: String) throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        for name in ["readiness.json", "trends.json", "weekly-stats.json", "sync-status.json"] {
            result[name] = try cli.bytes(directory + "/" + name)
        }
        return result
    }

    @Test func rebuildsInSeparateProcessesAreByteIdentical() throws {
        try withCLI { cli in
            try makeLog(cli)
            // Each process has its own hash seed, so any Dictionary-order leak would show here.
            for run in 1...3 {
                let result = try cli.run(["rebuild", "--log", "events.jsonl", "--out", "run\(run)"])
                #expect(result.status == 0, "\(result)")
            }
            let first = try files(cli, "run1")
            #expect(first.values.allSatisfy { $0.count > 100 })
            #expect(try files(cli, "run2") == first)
            #expect(try files(cli, "run3") == first)
            let json = try cli.run(["rebuild", "--log", "events.jsonl", "--json"])
            let expected = ["readiness.json", "trends.json", "weekly-stats.json", "sync-status.json"].flatMap { first[$0]! }
            let lines = json.stdout.split(separator: "\n")
            #expect(lines.count == 5)
            #expect(Array(json.stdout.utf8.prefix(expected.count)) == expected)
            #expect(lines.last?.hasPrefix(#"{"rebuild":{"events":"#) == true && lines.last?.contains(#""skippedOutsideTimestampWindow":0,"#) == true,
                    "\(lines.last ?? "")")
        }
    }

    @Test func untilSeqEqualsRebuildingALogTruncatedThere() throws {
        try withCLI { cli in
            try makeLog(cli, days: 60)
            let lines = try cli.bytes("events.jsonl").split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            for seq in [1, 777, 5000] {
                try cli.writeBytes("truncated.jsonl", lines.prefix(seq).flatMap { Array($0) + [10] })
                #expect(try cli.run(["rebuild", "--log", "events.jsonl", "--until-seq", String(seq), "--out", "until-\(seq)"]).status == 0)
                #expect(try cli.run(["rebuild", "--log", "truncated.jsonl", "--out", "truncated-\(seq)"]).status == 0)
                #expect(try files(cli, "until-\(seq)") == files(cli, "truncated-\(seq)"), "seq \(seq)")
            }
        }
    }

    @Test func asOfEqualsTheLogAsItWasThen() throws {
        try withCLI { cli in
            let input = try cli.run(["generate", "--days", "40", "--seed", "5"]).stdout.split(separator: "\n")
            try cli.write("part1.jsonl", input.prefix(2000).joined(separator: "\n") + "\n")
            try cli.write("part2.jsonl", input.dropFirst(2000).joined(separator: "\n") + "\n")
            #expect(try cli.run(["ingest", "--log", "events.jsonl", "part1.jsonl"]).status == 0)
            let snapshot = try cli.bytes("events.jsonl")
            // recordedAt has millisecond resolution: make sure the second batch is recorded later.
            usleep(20_000)
            let stored = snapshot.split(separator: UInt8(ascii: "\n"))
            let lastLine = try #require(stored.last)
            let recordedAt = try #require((try JSONSerialization.jsonObject(with: Data(lastLine)) as? [String: Any])?["recordedAt"] as? String)
            #expect(try cli.run(["ingest", "--log", "events.jsonl", "part2.jsonl"]).status == 0)
            try cli.writeBytes("snapshot.jsonl", snapshot)
            #expect(try cli.run(["rebuild", "--log", "events.jsonl", "--as-of", recordedAt, "--out", "as-of"]).status == 0)
            #expect(try cli.run(["rebuild", "--log", "snapshot.jsonl", "--out", "snapshot"]).status == 0)
            #expect(try files(cli, "as-of") == files(cli, "snapshot"))
            // And the full log differs: --as-of really cut something off.
            #expect(try cli.run(["rebuild", "--log", "events.jsonl", "--out", "full"]).status == 0)
            #expect(try files(cli, "full") != files(cli, "snapshot"))
        }
    }

    @Test func projectionSelectionWritesOnlyThoseFiles() throws {
        try withCLI { cli in
            try cli.write("input.jsonl", CLIFixture.text)
            _ = try cli.run(["ingest", "--log", "events.jsonl", "input.jsonl"])
            let result = try cli.run(["rebuild", "--log", "events.jsonl", "--projection", "sync", "--out", "models"])
            #expect(result.status == 0)
            #expect(try FileManager.default.contentsOfDirectory(atPath: cli.directory + "/models") == ["sync-status.json"])
            let unknown = try cli.run(["rebuild", "--log", "events.jsonl", "--projection", "vo2"])
            #expect(unknown.status == 64)
        }
    }
}
