import Foundation
import Testing

/// `dune-replay explain`, black box: its numbers are the rebuilt files' numbers,
/// and it names every event behind a value.
@Suite struct ExplainCLITests {
    /// The day with hand-made corrections and a deletion.
    static let day = "2026-04-20"

    /// A generated log (120 days, seed 1) plus, on ``day``, an HRV sample that is
    /// corrected and another that is deleted; readiness files rebuilt into `out/`.
    func makeLog(_ cli: CLI) throws {
        let generated = try cli.run(["generate", "--days", "120", "--seed", "1"])
        let extra = [
            #"{"type":"sample","kind":"hrv","id":"EXPLAIN-H1","start":"2026-04-20T05:00:00+02:00","end":"2026-04-20T05:01:00+02:00","value":41,"unit":"ms","source":"Test Strap"}"#,
            #"{"type":"sample","kind":"hrv","id":"EXPLAIN-H2","start":"2026-04-20T05:30:00+02:00","end":"2026-04-20T05:31:00+02:00","value":80,"unit":"ms","source":"Test Strap"}"#,
            #"{"type":"sample","kind":"hrv","id":"EXPLAIN-H1","start":"2026-04-20T05:00:00+02:00","end":"2026-04-20T05:01:00+02:00","value":43,"unit":"ms","source":"Test Strap"}"#,
            #"{"type":"sampleDeleted","id":"EXPLAIN-H2","at":"2026-04-20T09:00:00+02:00"}"#,
        ]
        try cli.write("input.jsonl", generated.stdout + extra.joined(separator: "\n") + "\n")
        let ingest = try cli.run(["ingest", "--log", "events.jsonl", "input.jsonl"])
        #expect(ingest.status == 0, "\(ingest)")
        let rebuild = try cli.run(["rebuild", "--log", "events.jsonl", "--out", "out"])
        #expect(rebuild.status == 0, "\(rebuild)")
    }

    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    func file(_ cli: CLI, _ name: String) throws -> [String: Any] {
        try object(String(decoding: try cli.bytes("out/" + name), as: UTF8.self))
    }

    func explain(_ cli: CLI, _ arguments: [String]) throws -> [String: Any] {
        let result = try cli.run(["explain", "--log", "events.jsonl", "--json"] + arguments)
        #expect(result.status == 0, "\(result)")
        return try object(result.stdout)
    }

    /// Both values as canonical JSON (sorted keys), for whole-value comparison.
    func same(_ a: Any, _ b: Any) throws -> Bool {
        try JSONSerialization.data(withJSONObject: a, options: [.sortedKeys])
            == JSONSerialization.data(withJSONObject: b, options: [.sortedKeys])
    }

    func rounded(_ value: Any?, _ scale: Double) -> Double? {
        (value as? NSNumber).map { ($0.doubleValue * scale).rounded(.toNearestOrAwayFromZero) / scale }
    }

    @Test func readinessMatchesTheRebuiltFileAndNamesEveryEventOfTheDaysSamples() throws {
        try withCLI { cli in
            try makeLog(cli)
            let days = try #require(try file(cli, "readiness.json")["days"] as? [[String: Any]])
            // Every sample id's events, from one `history` run (the same filter as `history --sample ID`).
            let history = try cli.run(["history", "--log", "events.jsonl", "--type", "sample.ingested", "--type", "sample.deleted", "--json"])
            var historySeqs: [String: [Int]] = [:]
            for line in history.stdout.split(separator: "\n") {
                let event = try object(String(line))
                let id = try #require((event["data"] as? [String: Any])?["id"] as? String)
                historySeqs[id, default: []].append(try #require(event["seq"] as? Int))
            }
            let lastDay = try #require(days.last?["date"] as? String)
            for date in [Self.day, lastDay] {
                let explanation = try explain(cli, ["readiness", date])
                let entry = try #require(days.first { $0["date"] as? String == date })
                let value = try #require(explanation["value"] as? [String: Any])
                #expect(try same(value, entry), "\(date): \(value) vs \(entry)")
                // The unrounded formula rounds to the file's numbers.
                let formula = try #require(explanation["formula"] as? [String: Any])
                let hrv = try #require(formula["hrv"] as? [String: Any])
                let baseline = try #require(entry["hrvBaseline"] as? [String: Any])
                #expect(rounded(hrv["mean"], 1000) == (baseline["mean"] as? NSNumber)?.doubleValue)
                #expect(rounded(hrv["sd"], 1000) == (baseline["sd"] as? NSNumber)?.doubleValue)
                #expect((hrv["n"] as? NSNumber)?.intValue == (baseline["n"] as? NSNumber)?.intValue)
                #expect(rounded(hrv["score"], 10) == (entry["hrvScore"] as? NSNumber)?.doubleValue)
                #expect(rounded(formula["score"], 10) == (entry["score"] as? NSNumber)?.doubleValue)
                let sleep = try #require(formula["sleep"] as? [String: Any])
                #expect(rounded(sleep["minutes"], 1000) == (entry["sleepMinutes"] as? NSNumber)?.doubleValue)
                let intervals = try #require(sleep["intervals"] as? [[String: Any]])
                let unionMinutes = intervals.compactMap { ($0["minutes"] as? NSNumber)?.doubleValue }.reduce(0, +)
                #expect(rounded(unionMinutes as NSNumber, 1000) == (entry["sleepMinutes"] as? NSNumber)?.doubleValue)

                // Every sample listed carries its whole history, exactly as `history --sample` shows it.
                let samples = try #require(explanation["samples"] as? [[String: Any]])
                var counted: Set<Int> = []
                for sample in samples {
                    let id = try #require(sample["id"] as? String)
                    let versions = try #require(sample["versions"] as? [[String: Any]])
                    let seqs = versions.compactMap { ($0["seq"] as? NSNumber)?.intValue }
                    #expect(seqs == historySeqs[id], "\(id)")
                    for version in versions where version["fate"] as? String == "counted" {
                        counted.insert(try #require((version["seq"] as? NSNumber)?.intValue))
                    }
                }
                // The counted versions are exactly the samples the formula used.
                var used: Set<Int> = []
                for name in ["hrv", "rhr", "sleep"] {
                    let references = try #require((formula[name] as? [String: Any])?["samples"] as? [[String: Any]])
                    used.formUnion(references.compactMap { ($0["seq"] as? NSNumber)?.intValue })
                }
                #expect(counted == used && !used.isEmpty, "\(date)")
                // Every hrv and resting-HR sample ingested for the day is among them.
                let dayHistory = try cli.run(["history", "--log", "events.jsonl", "--since", date, "--until", date,
                                              "--kind", "hrv", "--kind", "restingHeartRate", "--type", "sample.ingested", "--json"])
                let ids = Set(samples.compactMap { $0["id"] as? String })
                for line in dayHistory.stdout.split(separator: "\n") {
                    let data = try #require(try object(String(line))["data"] as? [String: Any])
                    #expect(ids.contains(try #require(data["id"] as? String)))
                }
            }
            // The hand-made correction and deletion, with why.
            let explanation = try explain(cli, ["readiness", Self.day])
            let samples = try #require(explanation["samples"] as? [[String: Any]])
            func fates(_ id: String) -> [String] {
                ((samples.first { $0["id"] as? String == id }?["versions"] as? [[String: Any]]) ?? []).compactMap { $0["fate"] as? String }
            }
            #expect(fates("EXPLAIN-H1") == ["superseded", "counted"])
            let one = try cli.run(["history", "--log", "events.jsonl", "--sample", "EXPLAIN-H1", "--json"])
            let oneSeqs = try one.stdout.split(separator: "\n").map { try #require(try object(String($0))["seq"] as? Int) }
            let listed = (samples.first { $0["id"] as? String == "EXPLAIN-H1" }?["versions"] as? [[String: Any]])?.compactMap { $0["seq"] as? Int }
            #expect(listed == oneSeqs && oneSeqs.count == 2)
            #expect(fates("EXPLAIN-H2") == ["deleted", "deletion"])
            let text = try cli.run(["explain", "--log", "events.jsonl", "readiness", Self.day])
            #expect(text.status == 0)
            #expect(text.stdout.contains("superseded by seq"))
            #expect(text.stdout.contains("deleted by seq"))
            #expect(text.stdout.contains("z = ("))
            #expect(text.stdout.contains("union of"))
        }
    }

    @Test func weeklyTrendsSyncAndRefreshMatchTheirFiles() throws {
        try withCLI { cli in
            try makeLog(cli)
            let weeks = try #require(try file(cli, "weekly-stats.json")["weeks"] as? [[String: Any]])
            for week in ["2026-W16", try #require(weeks.last?["week"] as? String)] {
                let value = try #require(try explain(cli, ["weekly", week])["value"] as? [String: Any])
                let entry = try #require(weeks.first { $0["week"] as? String == week })
                #expect(try same(value, entry), "\(week)")
            }
            let trends = try file(cli, "trends.json")
            let hrvDaily = try #require(((trends["metrics"] as? [String: Any])?["hrv"] as? [String: Any])?["daily"] as? [[String: Any]])
            let hrv = try explain(cli, ["trends", "hrv", Self.day])
            let point = try #require(hrv["value"] as? [String: Any])
            #expect(try same(point, try #require(hrvDaily.first { $0["date"] as? String == Self.day })))

            let features = try #require(try file(cli, "sync-status.json")["features"] as? [String: Any])
            for (feature, entry) in features {
                let value = try #require(try explain(cli, ["sync", feature])["value"] as? [String: Any])
                #expect(try same(value, entry), "\(feature)")
            }
            // Refresh decisions recomputed from the coordinator's state match the log, for a few of each outcome.
            let refreshes = try cli.run(["history", "--log", "events.jsonl", "--type", "refresh.requested", "--json", "--limit", "40"])
            var checked = Set<String>()
            for line in refreshes.stdout.split(separator: "\n") {
                let event = try object(String(line))
                let data = try #require(event["data"] as? [String: Any])
                let key = "\(data["outcome"] ?? "")-\(data["reason"] ?? "")"
                guard checked.insert(key).inserted, let seq = event["seq"] as? Int else { continue }
                let explanation = try explain(cli, ["refresh", String(seq)])
                #expect(explanation["matches"] as? Bool == true, "seq \(seq)")
                #expect((explanation["recorded"] as? [String: Any])?["outcome"] as? String == data["outcome"] as? String)
            }
            #expect(checked.count >= 3)
        }
    }

    @Test func aSecondExplainStartsFromTheSnapshotAndPrintsTheSameAsNoSnapshot() throws {
        try withCLI { cli in
            try makeLog(cli)
            let seq = try #require(try file(cli, "readiness.json")["throughSeq"] as? Int)
            let cases = [["readiness", Self.day], ["weekly", Self.day], ["trends", "hrv", Self.day], ["trends", "steps"]]
            for (index, arguments) in cases.enumerated() {
                let first = try cli.run(["explain", "--log", "events.jsonl"] + arguments)
                #expect(first.status == 0, "\(first)")
                if index == 0 {
                    #expect(first.stderr == "explain: wrote events.jsonl.snapshot at seq \(seq) for the next run\n")
                }
                let second = try cli.run(["explain", "--log", "events.jsonl"] + arguments)
                #expect(second.status == 0)
                #expect(second.stderr == "explain: started from events.jsonl.snapshot at seq \(seq), then replayed 0 later events\n")
                let full = try cli.run(["explain", "--log", "events.jsonl", "--no-snapshot"] + arguments)
                #expect(full.status == 0 && full.stderr == "")
                #expect(second.stdout == full.stdout && first.stdout == full.stdout, "\(arguments)")
                let json = try cli.run(["explain", "--log", "events.jsonl", "--json"] + arguments)
                let fullJSON = try cli.run(["explain", "--log", "events.jsonl", "--json", "--no-snapshot"] + arguments)
                #expect(json.stdout == fullJSON.stdout && !json.stdout.isEmpty, "\(arguments)")
            }
        }
    }

    @Test func usageAndMissingKeys() throws {
        try withCLI { cli in
            try cli.write("input.jsonl", CLIFixture.text)
            _ = try cli.run(["ingest", "--log", "events.jsonl", "input.jsonl"])
            let model = try cli.run(["explain", "--log", "events.jsonl", "vo2max", "2026-02-02"])
            #expect(model.status == 64)
            #expect(model.stderr.hasPrefix("Error: unknown model 'vo2max'"))
            #expect(model.stderr.hasSuffix("See 'dune-replay explain --help' for more information.\n"))
            #expect(try cli.run(["explain", "--log", "events.jsonl", "readiness", "yesterday"]).status == 64)
            let missing = try cli.run(["explain", "--log", "events.jsonl", "--no-snapshot", "readiness", "2025-01-01"])
            #expect(missing.status == 65)
            #expect(missing.stderr == "Error: readiness has no entry for 2025-01-01: no sample counts for that day (days with samples: 2026-02-02 – 2026-02-02)\n")
            let notRefresh = try cli.run(["explain", "--log", "events.jsonl", "refresh", "2"])
            #expect(notRefresh.status == 65)
            #expect(notRefresh.stderr.contains("sample.ingested, not a refresh.requested"))
            #expect(try cli.run(["explain", "--log", "nope.jsonl", "sync", "readiness"]).status == 66)
            let throttled = try cli.run(["explain", "--log", "events.jsonl", "refresh", "6"])
            #expect(throttled.status == 0)
            #expect(throttled.stdout.contains("last performed refresh   seq 5 at 2026-02-02T07:00:00+01:00: 20 s before (< 60 s)"))
            #expect(throttled.stdout.contains("matches the log"))
            let help = try cli.run(["explain", "--help"])
            #expect(help.status == 0 && help.stdout.contains("USAGE: dune-replay explain"))
        }
    }
}
