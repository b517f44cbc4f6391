import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

extension Reliability {
    /// `kill -9` a `forget` at many moments: the log is always wholly the old
    /// one or wholly the new one, it verifies, and the next writer finishes or
    /// discards the interrupted job.
    @Suite struct ForgetKillNine {
        /// Kills at moments spread over one uninterrupted run (fractions of its duration).
        static let timedKills = 16
        /// The steps of `LogEraser.rewrite` where `DUNE_FORGET_PAUSE_AT` holds the process
        /// so a kill lands exactly there (pure timing rarely hits the rename-to-cleanup window).
        static let pausedSteps = ["selected", "written", "synced", "journaled", "renamed", "cleanedUp"]

        @Test func sigkillLeavesTheOldOrTheNewLogAndTheNextWriterFinishesTheJob() throws {
            try withCLI { cli in
                let generated = try cli.run(["generate", "--days", "40", "--seed", "3"])
                try #require(generated.status == 0)
                try cli.write("input.jsonl", generated.stdout + ForgetCLITests.sentinelLines.joined(separator: "\n") + "\n")
                let ingested = try cli.run(["ingest", "--log", "original.jsonl", "input.jsonl"])
                try #require(ingested.status == 0, "\(ingested)")
                let original = try cli.bytes("original.jsonl")
                let forgetArguments = ["--source", "ZqSentinelSource"]

                // The reference: one uninterrupted forget on a copy, timed.
                try cli.writeBytes("reference.jsonl", original)
                let clock = ContinuousClock()
                let started = clock.now
                let reference = try cli.run(["forget", "--log", "reference.jsonl"] + forgetArguments)
                let runMicroseconds = KillNine.microseconds(clock.now - started)
                try #require(reference.status == 0, "\(reference)")
                let old = StoredLines(original)
                let new = StoredLines(try cli.bytes("reference.jsonl"))
                try #require(new.count == old.count + 1)
                let newContent = (0..<new.count).map(new.stableContent)

                /// Whether the log is the old one (`false`) or the new one (`true`); records an issue when it is neither.
                func isNew(_ log: String, _ context: String) throws -> Bool? {
                    let bytes = try cli.bytes(log)
                    if bytes == original { return false }
                    let lines = StoredLines(bytes)
                    guard lines.count == new.count, lines.trailingBytes == 0 else {
                        Issue.record("\(context): \(lines.count) lines, neither the old log (\(old.count)) nor the new one (\(new.count))")
                        return nil
                    }
                    // Every line but the data.forgotten record is byte-identical to the uninterrupted result;
                    // that record differs at most in its id, recordedAt and CRC.
                    let differing = (0..<(new.count - 1)).filter { !lines.line($0).elementsEqual(new.line($0)) }
                    #expect(differing.isEmpty, "\(context): lines \(differing.prefix(5).map { $0 + 1 }) differ from the uninterrupted forget")
                    #expect(lines.stableContent(new.count - 1) == newContent[new.count - 1], "\(context): the data.forgotten record differs")
                    return true
                }

                var moments: [(label: String, pause: String?, delay: Int)] = Self.pausedSteps.map { ("paused at \($0)", $0, 0) }
                for index in 0..<Self.timedKills {
                    // From the very start to 1.2 × the run (the process may finish first; that is counted).
                    moments.append(("at \(index * 120 / (Self.timedKills - 1)) % of a run", nil, runMicroseconds * index * 12 / (10 * (Self.timedKills - 1))))
                }
                var outcomes = (old: 0, new: 0, finished: 0)
                for (trial, moment) in moments.enumerated() {
                    let log = "trial-\(trial).jsonl"
                    let context = "trial \(trial) (\(moment.label))"
                    try cli.writeBytes(log, original)
                    let running = try cli.start(["forget", "--log", log] + forgetArguments,
                                                environment: moment.pause.map { ["DUNE_FORGET_PAUSE_AT": $0] } ?? [:])
                    if let step = moment.pause {
                        let marker = Array("forget: paused at \(step)\n".utf8)
                        let deadline = Date().addingTimeInterval(300)
                        while running.isRunning && Date() < deadline && !running.stderrSoFar().ends(with: marker) { usleep(500) }
                        #expect(running.isRunning, "\(context): forget ended before the pause")
                    } else {
                        usleep(UInt32(moment.delay))
                    }
                    running.kill(SIGKILL)
                    let result = try running.finish(within: 300)
                    try #require(!result.timedOut, "\(context): forget hung: \(result)")
                    if result.signal != SIGKILL {
                        outcomes.finished += 1
                        #expect(result.status == 0, "\(context): \(result)")
                    }

                    // The log verifies and is wholly the old one or wholly the new one.
                    let verify = try cli.run(["verify", "--log", log])
                    #expect(verify.status == 0, "\(context): \(verify)")
                    let wasNew = try isNew(log, context)
                    if wasNew == true { outcomes.new += 1 } else if wasNew == false { outcomes.old += 1 }
                    if moment.pause == "renamed" || moment.pause == "cleanedUp" { #expect(wasNew == true, "\(context)") }
                    if ["selected", "written", "synced", "journaled"].contains(moment.pause ?? "") { #expect(wasNew == false, "\(context)") }

                    // The next writer (forget again, or an ingest, alternately) finishes or discards the job.
                    let next = trial % 2 == 0
                        ? try cli.run(["forget", "--log", log] + forgetArguments)
                        : try cli.run(["ingest", "--log", log, "-"], stdin: [])
                    #expect(next.status == 0, "\(context): \(next)")
                    let leftovers = try cli.listing().filter { $0.hasPrefix(log + ".forget-") }
                    #expect(leftovers.isEmpty, "\(context): \(leftovers) left after the next writer")
                    let again = try cli.run(["verify", "--log", log])
                    #expect(again.status == 0, "\(context): after the next writer: \(again)")
                    // A forget run again always ends with the new log; an ingest keeps the one it found.
                    let after = try isNew(log, context + ", after the next writer")
                    #expect(after == (trial % 2 == 0 ? true : wasNew), "\(context): after the next writer")
                    try FileManager.default.removeItem(atPath: cli.path(log))
                }
                #expect(outcomes.old > 0 && outcomes.new > 0, "\(outcomes)")
                print("Reliability.ForgetKillNine: \(moments.count) kill points over a \(runMicroseconds) µs forget: "
                      + "\(outcomes.old) left the old log, \(outcomes.new) the new one, \(outcomes.finished) finished before the kill")
            }
        }
    }
}

private extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix) }
}
