import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

extension Reliability {
    /// `ingest` under a file-size limit (`ulimit -f`, the CLI ignores SIGXFSZ so the write
    /// fails with EFBIG — the same path as a full disk): exit 74 with a clear message,
    /// the failed batch rolled back, the log valid and holding exactly what was
    /// acknowledged, and a later ingest without the limit appends the rest.
    ///
    /// A real ENOSPC needs a small mounted file system, which CI cannot count on; EFBIG
    /// goes through the same write-fails-then-roll-back code.
    @Suite struct FullDisk {
        static let seed: UInt64 = 0x6675_6C6C  // "full"
        /// Two batches: 8192 lines, then 1808; one event each.
        static let inputLines = 10_000
        static let batchLines = 8_192

        /// One limited run: its durability and where the limit falls.
        struct Stage: CustomStringConvertible {
            var durability: String
            /// The limit in 512-byte blocks (POSIX `ulimit -f` units, as dash and bash-as-sh use).
            var blocks: Int
            /// Batches the run should manage to acknowledge before hitting the limit.
            var acknowledgedBatches: Int
            var description: String { "--durability \(durability), ulimit -f \(blocks) (\(blocks * 512) bytes)" }
        }

        /// The four limited runs, in order; `size` is the log's size before each.
        static func stage(_ number: Int, size: Int, bytesPerLine: Double, random: inout SeededRandom) -> Stage {
            let secondBatchBytes = Double(inputLines - batchLines) * bytesPerLine
            let firstBatchBytes = Double(batchLines) * bytesPerLine
            switch number {
            case 0:  // Not even the first batch fits (the issue's `ulimit -f 64`).
                return Stage(durability: "batch", blocks: 64, acknowledgedBatches: 0)
            case 1:  // The first batch fits, the second is cut part-way and rolled back.
                let limit = firstBatchBytes + secondBatchBytes * Double(random.int(in: 200...800)) / 1000
                return Stage(durability: "batch", blocks: Int(limit) / 512, acknowledgedBatches: 1)
            case 2:  // One write + fsync per event: the limit is hit mid-batch; the whole batch goes.
                let limit = Double(size) + secondBatchBytes * Double(random.int(in: 100...400)) / 1000
                return Stage(durability: "fsync", blocks: Int(limit) / 512, acknowledgedBatches: 0)
            default:  // No fsync: the same rollback.
                let limit = Double(size) + secondBatchBytes * Double(random.int(in: 100...900)) / 1000
                return Stage(durability: "none", blocks: Int(limit) / 512, acknowledgedBatches: 0)
            }
        }

        @Test(.enabled(if: LinuxOnly.isLinux, "Linux only: the file size limit ('ulimit -f') and its EFBIG were checked on Linux only"))
        func aFileSizeLimitExits74RollsBackTheBatchAndALaterIngestAppendsTheRest() throws {
            try withCLI { cli in
                var random = SeededRandom(seed: Self.seed)
                let input = UniqueSamples.lines(prefix: "disk", count: Self.inputLines, random: &random)
                try cli.write("input.jsonl", input.joined(separator: "\n") + "\n")

                // How many bytes a stored line takes, measured on a scratch log of the first 200 lines.
                try cli.write("sample.jsonl", input.prefix(200).joined(separator: "\n") + "\n")
                _ = try cli.run(["ingest", "--log", "scratch.jsonl", "sample.jsonl"])
                let bytesPerLine = Double(try cli.bytes("scratch.jsonl").count) / 200

                var before: [UInt8] = []
                var stages: [Stage] = []
                for number in 0..<4 {
                    let stage = Self.stage(number, size: before.count, bytesPerLine: bytesPerLine, random: &random)
                    stages.append(stage)
                    let context = "seed \(Self.seed), stage \(number): \(stage)"
                    let result = try cli.start(
                        ["ingest", "--log", "events.jsonl", "--progress-json", "--durability", stage.durability, "input.jsonl"],
                        launcher: ["/bin/sh", "-c", "ulimit -f \(stage.blocks) && exec \"$@\"", "sh"]).finish(within: 300)
                    #expect(result.signal == nil && !result.timedOut, "\(context): \(result)")
                    #expect(result.status == 74, "\(context): \(result)")
                    #expect(result.stdout == "", "\(context)")
                    let errors = result.stderr.split(separator: "\n").filter { !$0.hasPrefix(#"{"acknowledgedLines""#) }
                    #expect(errors.count == 1, "\(context): \(result)")
                    let message = errors.first.map(String.init) ?? ""
                    #expect(message.hasPrefix("Error: events.jsonl"), "\(context): \(message)")
                    #expect(message.contains("file size limit exceeded"), "\(context): \(message)")
                    #expect(message.contains("raise the limit ('ulimit -f')"), "\(context): \(message)")
                    #expect(message.contains("Nothing of this batch was kept"), "\(context): \(message)")

                    let progress = DurableProgress.all(in: Array(result.stderr.utf8))
                    let lines = StoredLines(try cli.bytes("events.jsonl"))
                    let previousEvents = StoredLines(before).count
                    let expectedEvents = previousEvents + stage.acknowledgedBatches * Self.batchLines
                    #expect(progress.count == stage.acknowledgedBatches + previousEvents / Self.batchLines, "\(context): \(progress)")
                    #expect(progress.last.map(\.durableSeq) ?? 0 == (progress.isEmpty ? 0 : expectedEvents), "\(context): \(progress)")
                    #expect(lines.count == expectedEvents, "\(context): \(lines.count) events stored")
                    #expect(lines.trailingBytes == 0, "\(context): a partial line was left")
                    #expect(lines.bytes.count <= stage.blocks * 512, "\(context): \(lines.bytes.count) bytes")
                    #expect(hasBytePrefix(lines.bytes, before), "\(context): stored bytes changed")
                    #expect(lines.firstSeqGap() == nil, "\(context)")
                    let verify = try cli.run(["verify", "--log", "events.jsonl"])
                    #expect(verify.status == 0, "\(context): \(verify)")
                    #expect(try cli.listing().filter { $0.contains(".torn-") }.isEmpty, "\(context)")
                    before = lines.bytes
                }

                // Without the limit the same command appends the rest, in input order.
                let rest = try cli.run(["ingest", "--log", "events.jsonl", "--json", "input.jsonl"])
                #expect(rest.status == 0, "\(rest)")
                let present = StoredLines(before).count
                #expect(IngestSummary(json: rest.stdout) == IngestSummary(lines: Self.inputLines, appended: Self.inputLines - present,
                                                                        alreadyAppended: present, eventsAppended: Self.inputLines - present), "\(rest)")
                let final = StoredLines(try cli.bytes("events.jsonl"))
                #expect(final.count == Self.inputLines && final.firstSeqGap() == nil)
                let storedIDs = (0..<final.count).map { StoredLines.values(of: "id", in: final.line($0)).last ?? "" }
                let inputIDs = input.map { StoredLines.values(of: "id", in: ArraySlice($0.utf8)).first ?? "?" }
                let firstDifference = zip(storedIDs, inputIDs).enumerated().first { $0.element.0 != $0.element.1 }
                #expect(storedIDs.count == inputIDs.count && firstDifference == nil,
                        "seed \(Self.seed): stored samples differ from the input's at line \((firstDifference?.offset ?? -1) + 1)")
                #expect(try cli.run(["verify", "--log", "events.jsonl"]).status == 0)
                print("Reliability.FullDisk seed \(Self.seed): \(stages.count) limited runs exited 74 and rolled back, "
                      + "\(present) events kept, \(Self.inputLines - present) appended afterwards")
            }
        }
    }
}
