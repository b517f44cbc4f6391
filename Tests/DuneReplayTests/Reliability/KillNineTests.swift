import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

extension Reliability {
    /// `kill -9` an `ingest` at pseudo-random moments: nothing it acknowledged is lost,
    /// the log stays valid (a torn tail at most, which the next writer quarantines),
    /// what was stored never changes, and re-ingesting the input finishes the job.
    @Suite struct KillNine {
        static let seed: UInt64 = 0x6B69_6C6C_2D39  // "kill-9"
        /// Each round starts from an empty log, kills `killsPerRound` ingests, then lets one
        /// run to the end. The first kill of a round waits for the log to grow and kills at
        /// once, in the middle of the first batch's 2.7 MB write (a torn tail) or just after
        /// it (an unacknowledged batch on disk); the others kill at random, increasing moments.
        static let rounds = 4
        static let killsPerRound = 6

        @Test func sigkillNeverLosesAcknowledgedEventsAndReingestFinishesTheJob() throws {
            try withCLI { cli in
                // Two batches: 8192 lines, then the rest.
                let input = try cli.generate("input.jsonl", days: 12, seed: 11, density: 8)
                let sampleIDs: [String?] = input.map { line in
                    line.hasPrefix(#"{"type":"sample","#) ? StoredLines.values(of: "id", in: ArraySlice(line.utf8)).first : nil
                }

                // The reference: one uninterrupted ingest of the same input.
                let clock = ContinuousClock()
                let referenceStart = clock.now
                let reference = try cli.run(["ingest", "--log", "reference.jsonl", "--durability", "batch", "--progress-json", "input.jsonl"])
                let referenceDuration = clock.now - referenceStart
                try #require(reference.status == 0, "reference ingest: \(reference)")
                let batches = DurableProgress.all(in: Array(reference.stderr.utf8)).count
                try #require(batches >= 2, "the input should take several batches: \(reference)")
                let expected = StoredLines(try cli.bytes("reference.jsonl"))
                let expectedContent = (0..<expected.count).map(expected.stableContent)
                let expectedModels = try cli.run(["rebuild", "--log", "reference.jsonl", "--json"])
                try #require(expectedModels.status == 0, "\(expectedModels)")
                // Kill moments are drawn over the last uninterrupted run's duration (a measurement, not an assertion).
                var runMicroseconds = Self.microseconds(referenceDuration)

                var random = SeededRandom(seed: Self.seed)
                var kills = 0, finishedBeforeKill = 0, tornTails = 0, unacknowledgedKept = 0, acknowledgedChecked = 0
                for round in 0..<Self.rounds {
                    let log = "round-\(round).jsonl"
                    // Kill moments as fractions of a whole run, increasing, so the log grows from trial to trial.
                    let moments = (0..<(Self.killsPerRound - 1)).map { _ in Double(random.int(in: 0..<800)) / 1000 }.sorted()
                    var stable: [UInt8] = []        // the log as last verified; must stay its prefix
                    var stableCount = 0             // its lines
                    var present: Set<String> = []   // every "id" value in `stable`
                    for trial in 0...Self.killsPerRound {
                        let context = "seed \(Self.seed), round \(round), trial \(trial)"
                        let started = clock.now
                        let sizeBefore = stable.count
                        let running = try cli.start(["ingest", "--log", log, "--durability", "batch", "--progress-json", "input.jsonl"])
                        if trial == 0 {
                            // Kill as soon as the log grows: during (or right after) a batch's write.
                            let path = cli.path(log)
                            var status = stat()
                            var polls = 0
                            while !(stat(path, &status) == 0 && Int(status.st_size) > sizeBefore) {
                                polls += 1
                                if polls % 256 == 0 && !running.isRunning { break }
                                usleep(200)
                            }
                            running.kill(SIGKILL)
                        } else if trial < Self.killsPerRound {
                            usleep(UInt32(Double(runMicroseconds) * moments[trial - 1]))
                            running.kill(SIGKILL)
                        }
                        let result = try running.finish(within: 300)
                        if trial == Self.killsPerRound { runMicroseconds = Self.microseconds(clock.now - started) }
                        try #require(!result.timedOut, "\(context): ingest hung: \(result)")
                        if trial < Self.killsPerRound {
                            if result.signal == SIGKILL { kills += 1 } else { finishedBeforeKill += 1 }
                        }
                        #expect(result.signal == SIGKILL || result.status == 0, "\(context): \(result)")
                        let acknowledged = DurableProgress.all(in: Array(result.stderr.utf8)).last
                            ?? DurableProgress(acknowledgedLines: 0, durableSeq: 0)

                        // The log verifies, or has only a torn tail that the next writer moves aside.
                        var lines = StoredLines(try cli.bytes(log))
                        let verify = try cli.run(["verify", "--log", log])
                        if lines.trailingBytes > 0 {
                            tornTails += 1
                            #expect(verify.status == 65, "\(context): \(verify)")
                            #expect(verify.stdout.hasPrefix("torn tail: \(log): \(lines.count) whole \(lines.count == 1 ? "line" : "lines") intact"), "\(context): \(verify)")
                            #expect(verify.stdout.contains("moves the \(lines.trailingBytes) \(lines.trailingBytes == 1 ? "byte" : "bytes") after the last newline"), "\(context): \(verify)")
                            let tail = Array(lines.bytes[(lines.bytes.count - lines.trailingBytes)...])
                            let repair = try cli.run(["ingest", "--log", log, "-"], stdin: [])
                            #expect(repair.status == 0, "\(context): \(repair)")
                            #expect(repair.stderr.contains("torn last line: moved \(tail.count) bytes"), "\(context): \(repair)")
                            let sideFiles = try cli.listing().filter { $0.hasPrefix(log + ".torn-") }
                            #expect(sideFiles.count == 1, "\(context): \(sideFiles)")
                            for name in sideFiles {
                                #expect(try cli.bytes(name) == tail, "\(context): \(name) holds the torn tail")
                                try FileManager.default.removeItem(atPath: cli.path(name))
                            }
                            lines = StoredLines(try cli.bytes(log))
                            let again = try cli.run(["verify", "--log", log])
                            #expect(again.status == 0, "\(context): after quarantine: \(again)")
                        } else {
                            #expect(verify.status == 0, "\(context): \(verify)")
                        }
                        #expect(lines.trailingBytes == 0, "\(context)")
                        #expect(lines.firstSeqGap() == nil, "\(context): seq gap at line \((lines.firstSeqGap() ?? -1) + 1)")

                        // Everything acknowledged is there, and nothing stored before changed.
                        #expect(lines.count >= acknowledged.durableSeq, "\(context): \(lines.count) events stored, \(acknowledged)")
                        if result.signal == SIGKILL && lines.count > max(acknowledged.durableSeq, stableCount) { unacknowledgedKept += 1 }
                        #expect(hasBytePrefix(lines.bytes, stable), "\(context): bytes stored before the kill changed")
                        present.formUnion(lines.quotedIDs(in: min(stableCount, lines.count)..<lines.count))
                        let lost = (0..<min(acknowledged.acknowledgedLines, sampleIDs.count)).filter { index in
                            sampleIDs[index].map { !present.contains($0) } ?? false
                        }
                        #expect(lost.isEmpty, "\(context): acknowledged input lines missing from the log: \(lost.prefix(10).map { $0 + 1 })")
                        acknowledgedChecked += acknowledged.durableSeq
                        stable = lines.bytes
                        stableCount = lines.count

                        if trial == Self.killsPerRound {
                            // The final, uninterrupted run finished the job: the same events, in the same
                            // order, as one ingest that was never killed, and the same read models.
                            #expect(result.status == 0, "\(context): \(result)")
                            #expect(lines.count == expected.count, "\(context): \(lines.count) events, \(expected.count) expected")
                            let content = (0..<lines.count).map(lines.stableContent)
                            let firstDifference = zip(content, expectedContent).enumerated().first { $0.element.0 != $0.element.1 }
                            #expect(firstDifference == nil, "\(context): line \((firstDifference?.offset ?? -1) + 1) differs from the uninterrupted ingest")
                            if round == Self.rounds - 1 {
                                let models = try cli.run(["rebuild", "--log", log, "--json"])
                                #expect(models.status == 0 && models.stdout == expectedModels.stdout, "\(context): read models differ")
                            }
                        }
                    }
                    try FileManager.default.removeItem(atPath: cli.path(log))
                }
                #expect(kills >= Self.rounds * Self.killsPerRound / 2, "seed \(Self.seed): only \(kills) ingests were still running when killed")
                print("Reliability.KillNine seed \(Self.seed): \(kills) kills survived (\(finishedBeforeKill) finished first), "
                      + "\(tornTails) torn tails quarantined, \(unacknowledgedKept) kills left whole unacknowledged lines, "
                      + "\(acknowledgedChecked) acknowledged events checked, "
                      + "\(input.count) input lines, \(batches) batches, \(expected.count) events per round")
            }
        }

        static func microseconds(_ duration: Duration) -> Int {
            Int(duration.components.seconds) * 1_000_000 + Int(duration.components.attoseconds / 1_000_000_000_000)
        }
    }
}
