import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DuneEvents
import DuneFixtures
import Testing

extension Reliability {
    /// `dune-replay sync --trace` on a generated trace (≥ 100 pages over 6 types, with
    /// re-deliveries, corrections, deletions, reconciles, rejected samples and failures):
    /// the read models equal those of ingesting the trace's net samples; `kill -9` at
    /// random moments followed by a final run appends exactly the sample events of an
    /// uninterrupted run; each type's last anchor is stored (issue 33's "Done when").
    @Suite struct SyncTraceKill {
        static let seed: UInt64 = 0x7379_6E63  // "sync"
        static let kills = 12

        /// The sample events of a log, in order: each `sample.ingested`'s data (its content)
        /// and each `sample.deleted`'s id — what two runs must append alike (`at`, seq, ids
        /// and recording times aside).
        static func sampleEvents(_ bytes: [UInt8]) throws -> [String] {
            var events: [String] = []
            for line in bytes.split(separator: UInt8(ascii: "\n")) {
                guard let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                      let type = object["type"] as? String, let data = object["data"] as? [String: Any]
                else { continue }
                switch type {
                case "sample.ingested":
                    let text = try JSONSerialization.data(withJSONObject: data, options: [.sortedKeys])
                    events.append(String(decoding: text, as: UTF8.self))
                case "sample.deleted":
                    events.append("deleted " + (data["id"] as? String ?? "?"))
                default: break
                }
            }
            return events
        }

        /// A read-model file without its `throughSeq` (the two logs hold different numbers of
        /// events: anchors, tasks, deletions of samples the net input never had).
        static func model(_ cli: CLI, _ path: String) throws -> String {
            let text = String(decoding: try cli.bytes(path), as: UTF8.self)
            return text.replacingOccurrences(of: #""throughSeq":[0-9]+"#, with: "", options: .regularExpression)
        }

        /// `sync-status.json`'s anchor per sample type.
        static func anchors(_ cli: CLI, out: String) throws -> [String: String] {
            let status = try JSONSerialization.jsonObject(with: Data(try cli.bytes(out + "/sync-status.json"))) as? [String: Any]
            let types = status?["sampleTypes"] as? [String: [String: Any]] ?? [:]
            return types.compactMapValues { $0["anchor"] as? String }
        }

        @Test func traceReplayEqualsIngestOfTheNetSamplesAndSurvivesKills() throws {
            try withCLI { cli in
                let generated = SyncTraceGenerator(pages: 140, seed: Self.seed)
                #expect(generated.pages >= 100 && generated.redeliveries > 0 && generated.corrections > 0 && generated.deletions > 0
                        && generated.reconciles > 0 && generated.missedDeletions > 0 && generated.failures > 0 && generated.rejected > 0)
                try cli.write("trace.jsonl", generated.traceLines.joined(separator: "\n") + "\n")
                try cli.write("net.jsonl", generated.netSampleLines.joined(separator: "\n") + "\n")

                // One uninterrupted run.
                let reference = try cli.run(["sync", "--trace", "trace.jsonl", "--log", "reference.jsonl", "--json"])
                try #require(reference.status == 0, "\(reference)")
                let summary = try JSONSerialization.jsonObject(with: Data(reference.stdout.utf8)) as? [String: Any]
                #expect(summary?["appliedLines"] as? Int == generated.traceLines.count)
                print("sync --trace (uninterrupted): \(reference.stdout)")

                // Read models equal those of ingesting the net samples.
                let ingested = try cli.run(["ingest", "--log", "net-log.jsonl", "net.jsonl"])
                try #require(ingested.status == 0, "\(ingested)")
                for (log, out) in [("reference.jsonl", "reference-out"), ("net-log.jsonl", "net-out")] {
                    let rebuilt = try cli.run(["rebuild", "--log", log, "--out", out])
                    try #require(rebuilt.status == 0, "\(rebuilt)")
                }
                for file in ["readiness.json", "trends.json", "weekly-stats.json"] {
                    #expect(try Self.model(cli, "reference-out/" + file) == Self.model(cli, "net-out/" + file), "\(file) differs")
                }
                let expectedAnchors = Dictionary(uniqueKeysWithValues: generated.lastAnchors.map { ($0.key.rawValue, $0.value) })
                #expect(try Self.anchors(cli, out: "reference-out") == expectedAnchors)
                let expectedEvents = try Self.sampleEvents(try cli.bytes("reference.jsonl"))

                // kill -9 at random moments, then a final run.
                let clock = ContinuousClock()
                var random = SeededRandom(seed: Self.seed)
                var killed = 0
                var trial = 0
                while killed < Self.kills, trial < Self.kills * 4 {
                    trial += 1
                    let running = try cli.start(["sync", "--trace", "trace.jsonl", "--log", "killed.jsonl"],
                                                environment: ["DUNE_SYNC_LINE_DELAY_MS": "20"])
                    let started = clock.now
                    // A moment within the first 0.3 s, while a run applies at most ~15 of the trace's lines
                    // (20 ms each): every run but the last few lands a kill, however fast or busy the machine.
                    usleep(UInt32(random.int(in: 0..<300_000)))
                    running.kill(SIGKILL)
                    let result = try running.finish(within: 300)
                    try #require(!result.timedOut, "trial \(trial): sync hung")
                    if result.signal == SIGKILL { killed += 1 } else { #expect(result.status == 0, "trial \(trial): \(result)") }
                    _ = started
                }
                #expect(killed >= 10)
                let final = try cli.run(["sync", "--trace", "trace.jsonl", "--log", "killed.jsonl", "--json"])
                try #require(final.status == 0, "\(final)")
                print("sync --trace (after \(killed) kills, final run): \(final.stdout)")
                let verify = try cli.run(["verify", "--log", "killed.jsonl"])
                #expect(verify.status == 0, "\(verify)")
                #expect(try Self.sampleEvents(try cli.bytes("killed.jsonl")) == expectedEvents)
                let rebuilt = try cli.run(["rebuild", "--log", "killed.jsonl", "--out", "killed-out"])
                try #require(rebuilt.status == 0, "\(rebuilt)")
                #expect(try Self.anchors(cli, out: "killed-out") == expectedAnchors)
                for file in ["readiness.json", "trends.json", "weekly-stats.json"] {
                    #expect(try Self.model(cli, "killed-out/" + file) == Self.model(cli, "net-out/" + file), "\(file) differs after kills")
                }
                print("sync trace: \(generated.pages) pages over \(SyncTraceGenerator.types.count) types, \(generated.redeliveries) re-deliveries, "
                      + "\(generated.corrections) corrections, \(generated.deletions) deletions, \(generated.reconciles) reconciles "
                      + "(\(generated.missedDeletions) purged deletions), \(generated.rejected) rejected samples, \(generated.failures) failures; "
                      + "\(killed) kills; \(expectedEvents.count) sample events in both logs")
            }
        }

        @Test func aTraceWithoutTheLogsAnchorIsRefusedAndARerunSkipsWhatIsStored() throws {
            try withCLI { cli in
                try cli.write("a.jsonl", SyncTraceGenerator(pages: 12, seed: 5).traceLines.joined(separator: "\n") + "\n")
                let first = try cli.run(["sync", "--trace", "a.jsonl", "--log", "events.jsonl"])
                try #require(first.status == 0, "\(first)")
                #expect(first.stdout.hasPrefix("sync: "), "\(first.stdout)")
                let stored = try cli.bytes("events.jsonl")
                // The same trace again: every line is skipped up to each type's stored anchor; only the
                // lines after the last page of a type (its reconciles) are applied again, deleting nothing.
                let again = try cli.run(["sync", "--trace", "a.jsonl", "--log", "events.jsonl", "--json"])
                #expect(again.status == 0, "\(again)")
                let after = try cli.bytes("events.jsonl")
                #expect(try Self.sampleEvents(after) == Self.sampleEvents(stored))
                // Anchors of another trace: refused, nothing appended.
                try cli.write("b.jsonl", #"{"page":{"sampleType":"hrv","after":null,"anchor":"other-1","added":[],"deleted":[]}}"# + "\n")
                let other = try cli.run(["sync", "--trace", "b.jsonl", "--log", "events.jsonl"])
                #expect(other.status == 65)
                #expect(other.stderr.contains("anchor \"hrv-"), "\(other.stderr)")
                #expect(try cli.bytes("events.jsonl") == after)
            }
        }

        @Test func aMalformedLineIsRefusedWithItsNumberBeforeAnythingIsAppended() throws {
            try withCLI { cli in
                let generated = SyncTraceGenerator(pages: 10, seed: 3)
                var lines = generated.traceLines
                lines.insert(#"{"page":{"sampleType":"hrv","anchor":"x","added":[],"deleted":[7]}}"#, at: 4)
                try cli.write("trace.jsonl", lines.joined(separator: "\n") + "\n")
                let result = try cli.run(["sync", "--trace", "trace.jsonl", "--log", "events.jsonl"])
                #expect(result.status == 65)
                #expect(result.stderr.contains("trace.jsonl:5: page.deleted[0] is not a string; nothing was appended"), "\(result.stderr)")
                let stored = cli.exists("events.jsonl") ? try cli.bytes("events.jsonl") : []
                #expect(stored.isEmpty)
            }
        }
    }
}
