import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

extension Reliability {
    /// `kill -9` a `report` while it writes `<log>.snapshot`: the snapshot is
    /// then either absent or whole — a half-written one is never left in its
    /// place, never used, and the next report prints the same.
    @Suite struct SnapshotKill {
        static let killPoints = 12

        @Test func aReportKilledWhileWritingItsSnapshotLeavesNoneOrAWholeOne() throws {
            try withCLI { cli in
                let generated = try cli.run(["generate", "--days", "240", "--seed", "5"])
                try cli.write("input.jsonl", generated.stdout)
                try #require(try cli.run(["ingest", "--log", "events.jsonl", "input.jsonl"]).status == 0)
                let expected = try cli.run(["report", "--log", "events.jsonl", "--no-snapshot"])
                try #require(expected.status == 0)
                let original = try cli.bytes("events.jsonl")

                // How long a report that replays the log and writes a snapshot takes (a measurement, not an assertion).
                let clock = ContinuousClock()
                try cli.writeBytes("timing.jsonl", original)
                let started = clock.now
                let timing = try cli.run(["report", "--log", "timing.jsonl"])
                let duration = clock.now - started
                try #require(timing.status == 0 && timing.stderr.contains("report: wrote timing.jsonl.snapshot"), "\(timing)")
                let microseconds = Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12

                var whole = 0, none = 0
                for point in 0..<Self.killPoints {
                    let log = "kill-\(point).jsonl"
                    try cli.writeBytes(log, original)
                    let running = try cli.start(["report", "--log", log])
                    // Kill moments spread from 40 % to 110 % of a whole run: the snapshot is written at its end.
                    usleep(UInt32(microseconds * (0.4 + 0.7 * Double(point) / Double(Self.killPoints - 1))))
                    running.kill(SIGKILL)
                    _ = try running.finish()

                    let next = try cli.run(["report", "--log", log])
                    #expect(next.status == 0, "kill point \(point): \(next)")
                    #expect(next.stdout == expected.stdout, "kill point \(point)")
                    #expect(!next.stderr.contains("not used ("), "kill point \(point): a damaged snapshot was left: \(next.stderr)")
                    if next.stderr.contains("report: started from") { whole += 1 } else { none += 1 }
                    // A store opening the log (it holds the lock) removes what a killed writer left behind.
                    let leftovers = try FileManager.default.contentsOfDirectory(atPath: cli.directory)
                        .filter { $0.hasPrefix(log + ".snapshot.tmp-") }
                    if next.stderr.contains("report: wrote") {
                        #expect(leftovers.isEmpty, "kill point \(point): \(leftovers)")
                    }
                }
                #expect(whole + none == Self.killPoints)
            }
        }
    }
}
