import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

extension Reliability {
    /// Random bytes flipped in copies of a valid log: `verify` names exactly the lines
    /// that hold a flipped byte (line number and byte offset), `rebuild` refuses and
    /// prints no numbers, and `ingest` never repairs damage silently. A copy has no
    /// synced-length record of its own, so every complete line counts as synced: a
    /// damaged complete last line is damage too, refused; only bytes after the last
    /// newline (a flip that removed it) are a torn tail, moved aside with a warning.
    @Suite struct Corruption {
        static let seed: UInt64 = 0x666C_6970  // "flip"
        /// Copies with flips anywhere, with one flip in the last line only, with flips anywhere
        /// plus one in the last line, and with one flip that makes or unmakes a newline
        /// (splitting or joining lines): 33×5 + 5×1 + 5×5 + 5×1 = 200 flipped bytes.
        static let anywhereCopies = 33
        static let lastLineCopies = 5
        static let mixedCopies = 5
        static let newlineCopies = 5
        static let flipsPerCopy = 5

        /// A segment of the damaged file between newlines, as a reader sees it.
        struct Segment: Hashable, CustomStringConvertible {
            /// 1-based line number in the damaged file.
            var line: Int
            var byteOffset: Int
            var description: String { "line \(line), byte \(byteOffset)" }
        }

        @Test func flippedBytesAreNamedExactlyAndNeverSilentlyRepaired() throws {
            try withCLI { cli in
                try cli.generate("input.jsonl", days: 4, seed: 5)
                let ingest = try cli.run(["ingest", "--log", "pristine.jsonl", "input.jsonl"])
                try #require(ingest.status == 0, "\(ingest)")
                let pristine = StoredLines(try cli.bytes("pristine.jsonl"))
                let lastLineStart = pristine.starts.last!

                var random = SeededRandom(seed: Self.seed)
                var flipped = 0, namedByVerify = 0, tornTailCopies = 0, refusedByIngest = 0
                let copies = Self.anywhereCopies + Self.lastLineCopies + Self.mixedCopies + Self.newlineCopies
                for copy in 0..<copies {
                    // Distinct offsets, each XORed with a nonzero mask.
                    var masks: [Int: UInt8] = [:]
                    let mixedEnd = Self.anywhereCopies + Self.lastLineCopies + Self.mixedCopies
                    if copy < mixedEnd {
                        let anywhere = copy < Self.anywhereCopies ? Self.flipsPerCopy
                            : copy < Self.anywhereCopies + Self.lastLineCopies ? 0 : Self.flipsPerCopy - 1
                        while masks.count < anywhere { masks[random.int(in: 0..<lastLineStart)] = UInt8(random.int(in: 1...255)) }
                        if copy >= Self.anywhereCopies { masks[random.int(in: lastLineStart..<pristine.bytes.count)] = UInt8(random.int(in: 1...255)) }
                    } else if copy % 2 == 0 {
                        // A byte inside a line becomes a newline: the line splits in two.
                        let line = random.int(in: 0..<(pristine.count - 1))
                        let offset = random.int(in: pristine.starts[line]..<(pristine.ends[line] - 1))
                        masks[offset] = pristine.bytes[offset] ^ 0x0A
                    } else {
                        // A newline becomes something else: two lines join.
                        let line = random.int(in: 0..<(pristine.count - 1))
                        masks[pristine.ends[line] - 1] = UInt8(random.int(in: 1...255))
                    }
                    let offsets = Set(masks.keys)
                    var bytes = pristine.bytes
                    for (offset, mask) in masks { bytes[offset] ^= mask }
                    flipped += offsets.count
                    try cli.writeBytes("copy.jsonl", bytes)
                    let context = "seed \(Self.seed), copy \(copy), flips at \(offsets.sorted())"

                    // Which lines of the damaged file hold a flipped byte (a flip may also add or remove a newline).
                    let damaged = StoredLines(bytes)
                    var touched: Set<Segment> = []
                    for index in 0..<damaged.count {
                        let start = damaged.starts[index], end = damaged.ends[index]
                        // The segment's bytes, its newline, or the newline before it (when a flip made that newline).
                        if offsets.contains(where: { $0 >= start && $0 < end }) || (start > 0 && offsets.contains(start - 1)) {
                            touched.insert(Segment(line: index + 1, byteOffset: start))
                        }
                    }
                    let tornTail = damaged.trailingBytes > 0  // a flip removed the final newline
                    let onlyTheEndIsDamaged = tornTail && touched.isEmpty

                    // verify: exit 65, names exactly the touched lines.
                    let verify = try cli.run(["verify", "--log", "copy.jsonl"])
                    #expect(verify.status == 65, "\(context): \(verify)")
                    var named: Set<Segment> = []
                    var namedTail = false
                    for line in verify.stderr.split(separator: "\n") {
                        let parts = line.split(separator: ":", maxSplits: 2).map { $0.trimmingCharacters(in: .whitespaces) }
                        guard parts.count == 3, parts[0] == "copy.jsonl" else { Issue.record("\(context): unexpected stderr line \(line)"); continue }
                        let place = parts[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                        if place.count == 2, place[0].hasPrefix("line "), place[1].hasPrefix("byte "),
                           let number = Int(place[0].dropFirst(5)), let offset = Int(place[1].dropFirst(5)) {
                            named.insert(Segment(line: number, byteOffset: offset))
                        } else if place.count == 1, place[0] == "byte \(damaged.ends.last ?? 0)", parts[2].contains("torn last line") {
                            namedTail = true
                        } else {
                            Issue.record("\(context): cannot read the place in \(line)")
                        }
                    }
                    #expect(named == touched, "\(context): verify named \(named.sorted { $0.line < $1.line }), the flips are in \(touched.sorted { $0.line < $1.line })\n\(verify)")
                    #expect(namedTail == tornTail, "\(context): \(verify)")
                    namedByVerify += named.count

                    // rebuild: refuses a damaged log and prints nothing on stdout; a torn tail alone is not read.
                    let rebuild = try cli.run(["rebuild", "--log", "copy.jsonl", "--out", "models"])
                    if touched.isEmpty {
                        #expect(rebuild.status == 0, "\(context): only a torn tail: \(rebuild)")
                        try? FileManager.default.removeItem(atPath: cli.path("models"))
                    } else {
                        #expect(rebuild.status == 65, "\(context): \(rebuild)")
                        #expect(rebuild.stdout == "", "\(context): printed numbers from a damaged log: \(rebuild)")
                        #expect(rebuild.stderr.contains("Nothing was rebuilt"), "\(context): \(rebuild)")
                        #expect(rebuild.stderr.contains("dune-replay verify --log copy.jsonl"), "\(context): \(rebuild)")
                        let first = touched.map(\.line).min()!
                        if first > 1 { #expect(rebuild.stderr.contains("--until-seq \(first - 1)"), "\(context): \(rebuild)") }
                        #expect(!cli.exists("models"), "\(context): rebuild wrote read models")
                    }

                    // ingest of nothing: bytes after the last newline alone are a torn tail (moved aside, with a
                    // warning); damage to any complete line, the last one included, is refused and left as it was.
                    let append = try cli.run(["ingest", "--log", "copy.jsonl", "-"], stdin: [])
                    let after = try cli.bytes("copy.jsonl")
                    let sideFiles = try cli.listing().filter { $0.hasPrefix("copy.jsonl.torn-") }
                    let cut = damaged.ends.last ?? 0
                    if onlyTheEndIsDamaged {
                        tornTailCopies += 1
                        #expect(append.status == 0, "\(context): \(append)")
                        #expect(append.stderr.hasPrefix("warning: copy.jsonl: torn last line: moved \(bytes.count - cut) bytes from byte \(cut)"), "\(context): \(append)")
                        #expect(try cli.run(["verify", "--log", "copy.jsonl"]).status == 0, "\(context)")
                    } else {
                        refusedByIngest += 1
                        #expect(append.status == 65, "\(context): \(append)")
                        #expect(append.stdout == "", "\(context): \(append)")
                        #expect(append.stderr.contains("Run 'dune-replay verify'"), "\(context): \(append)")
                    }
                    // Whatever ingest did, it only ever moved an unterminated end aside — never anything else.
                    if sideFiles.isEmpty {
                        #expect(after == bytes, "\(context): the damaged log was changed")
                    } else {
                        #expect(onlyTheEndIsDamaged && sideFiles.count == 1, "\(context): \(sideFiles)")
                        #expect(after == Array(bytes[..<cut]), "\(context): the log was cut somewhere else than after its last newline")
                        #expect(try cli.bytes(sideFiles[0]) == Array(bytes[cut...]), "\(context)")
                    }
                    for name in sideFiles { try FileManager.default.removeItem(atPath: cli.path(name)) }
                }
                print("Reliability.Corruption seed \(Self.seed): \(flipped) bytes flipped in \(copies) copies of a \(pristine.count)-line log; "
                      + "verify named \(namedByVerify) damaged lines, \(tornTailCopies) copies were only a torn tail, ingest refused \(refusedByIngest)")
            }
        }
    }
}
