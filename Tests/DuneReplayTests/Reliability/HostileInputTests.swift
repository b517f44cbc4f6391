import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

extension Reliability {
    /// ~100k mutated and deliberately invalid input lines: `ingest` never crashes or
    /// hangs, its memory stays bounded, every line is accounted for (accepted, or
    /// rejected with its line number and a reason), and the log stays valid.
    @Suite struct HostileInput {
        static let seed: UInt64 = 0x686F_7374_696C  // "hostil"
        static let lineCount = 100_000
        /// Lines of 10 MiB (10× the input line limit).
        static let hugeLines = 3
        /// Long but allowed lines (1 KiB–200 KiB of unknown field).
        static let longLines = 50
        /// The input line limit (`InputParser.maximumLineBytes`).
        static let lineLimit = 1 << 20
        static let peakMemoryLimitKiB = 200 * 1024

        /// Builds the hostile input: what each line is, and which lines must be rejected.
        struct HostileFile {
            var bytes: [UInt8] = []
            /// Lines a reader counts (not blank), 1-based numbers of those that must be rejected,
            /// and of valid sample lines that must not be (no `eventID`, so they cannot conflict).
            var nonBlankLines = 0
            var mustReject: Set<Int> = []
            var mustAccept: Set<Int> = []
            /// What each line is ("valid", "truncated", …), by 1-based line number.
            var kindOfLine: [Int: String] = [:]
            var lineNumber = 0
            var kinds: [String: Int] = [:]

            mutating func add(_ line: [UInt8], kind: String, reject: Bool, blank: Bool = false, ending: [UInt8] = [0x0A]) {
                lineNumber += 1
                bytes += line
                bytes += ending
                if !blank { nonBlankLines += 1 }
                if reject { mustReject.insert(lineNumber) }
                kinds[kind, default: 0] += 1
                kindOfLine[lineNumber] = kind
            }

            /// Adds a line that is valid as it stands.
            mutating func addValid(_ line: [UInt8], kind: String, ending: [UInt8] = [0x0A]) {
                add(line, kind: kind, reject: false, ending: ending)
                let text = String(decoding: line, as: UTF8.self)
                if text.contains(#""type":"sample""#) && !text.contains("eventID") { mustAccept.insert(lineNumber) }
            }

            /// `line` with an unknown `padding` field that makes it exactly `length` bytes long.
            static func padded(_ line: [UInt8], to length: Int) -> [UInt8] {
                let head = Array(#"{"padding":""#.utf8), tail = Array(#"","#.utf8)
                let fill = length - line.count - head.count - tail.count + 1  // the line's own "{" is dropped
                return head + Array(repeating: UInt8(ascii: "p"), count: max(0, fill)) + tail + line.dropFirst()
            }
        }

        static let hostileNumbers = ["NaN", "-NaN", "Infinity", "-Infinity", "inf", "1e400", "-1e400", "1e99999999999999999999",
                                     "123456789012345678901234567890e300", "0x10", "01", "-", "1.e5", ".5", "+1", "1e", "--1", "1_000"]
        static let wrongTypes = [#""value":"48""#, #""value":null"#, #""value":true"#, #""value":[48]"#, #""value":{"v":48}"#]
        static let hostileBytes: [[UInt8]] = [[0x00], [0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80],
                                              [0xE2, 0x82], [0x22], [0x5C], [0x7B], [0x7D], [0x5B], [0x2C], [0x3A], [0x0D], [0x09], [0x1B]]

        static func makeInput(base: [[UInt8]], random: inout SeededRandom) -> HostileFile {
            var file = HostileFile()
            let numeric = base.filter { line in
                let text = String(decoding: line, as: UTF8.self)
                return text.hasPrefix(#"{"type":"sample","kind":"stepCount""#) && text.contains(#""value":"#)
            }
            let hugeAt = Set((0..<hugeLines).map { _ in random.int(in: 0..<lineCount) })
            let longAt = Set((0..<longLines).map { _ in random.int(in: 0..<lineCount) })
            let limitAt = random.int(in: 0..<lineCount), overLimitAt = random.int(in: 0..<lineCount)
            for index in 0..<lineCount {
                let line = random.pick(base)
                if hugeAt.contains(index) {
                    let huge = Array(#"{"type":"sample","kind":"hrv","id":""#.utf8) + Array(repeating: UInt8(ascii: "A"), count: 10 << 20) + Array(#""}"#.utf8)
                    file.add(huge, kind: "10 MiB line", reject: true)
                    continue
                }
                if longAt.contains(index) {
                    file.addValid(HostileFile.padded(line, to: random.int(in: 1_000...200_000)), kind: "long line")
                    continue
                }
                if index == limitAt {
                    file.addValid(HostileFile.padded(line, to: lineLimit), kind: "line of exactly the limit")
                    continue
                }
                if index == overLimitAt {
                    file.add(HostileFile.padded(line, to: lineLimit + 1), kind: "line one byte over the limit", reject: true)
                    continue
                }
                let text = String(decoding: line, as: UTF8.self)
                switch random.int(in: 0..<100) {
                case 0..<28, 98..<100:
                    file.addValid(line, kind: "valid")
                case 28..<52:  // 1–3 random bytes replaced by hostile or random bytes
                    var mutated = line
                    for _ in 0..<random.int(in: 1...3) {
                        let at = random.int(in: 0..<mutated.count)
                        let replacement = random.chance(0.5) ? random.pick(hostileBytes) : [UInt8(random.int(in: 0...255))]
                        mutated.replaceSubrange(at...at, with: replacement.filter { $0 != 0x0A })
                    }
                    file.add(mutated, kind: "mutated bytes", reject: false)
                case 52..<62:  // truncated JSON: the closing brace is always lost
                    file.add(Array(line[0..<random.int(in: 1..<line.count)]), kind: "truncated", reject: true)
                case 62..<68:  // a hostile number in place of the value
                    let target = random.pick(numeric)
                    let replaced = String(decoding: target, as: UTF8.self)
                        .replacingOccurrences(of: #""value":"#, with: #""value":\#(random.pick(hostileNumbers)),"ignored":"#)
                    file.add(Array(replaced.utf8), kind: "hostile number", reject: true)
                case 68..<72:  // wrong types
                    let target = String(decoding: random.pick(numeric), as: UTF8.self)
                    let wrong = target.replacingOccurrences(of: #""value":"#, with: random.pick(wrongTypes) + #","ignored":"#)
                    file.add(Array(wrong.utf8), kind: "wrong type", reject: true)
                case 72..<76:  // timestamps without a UTC offset, or a required field removed
                    var changed = text.replacingOccurrences(of: "+01:00\"", with: "\"").replacingOccurrences(of: "Z\"", with: "\"")
                    if changed == text || random.chance(0.3) {
                        changed = text.replacingOccurrences(of: random.pick([#""type":"#, #""at":"#, #""start":"#, #""id":"#]), with: #""x":"#)
                    }
                    file.add(Array(changed.utf8), kind: "missing offset or field", reject: changed != text)
                case 76..<79:  // unknown types
                    let changed = random.chance(0.5)
                        ? text.replacingOccurrences(of: #""type":""#, with: #""type":"x"#)
                        : #"{"type":"\#(random.pick(["", "Sample", "sample ", "sampleDeleted2", "\u{0}"]))","at":"2026-02-01T00:00:00Z"}"#
                    file.add(Array(changed.utf8), kind: "unknown type", reject: true)
                case 79..<83:  // deep nesting, too deep for the parser's limit (now and then very deep)
                    let depth = random.chance(0.01) ? random.int(in: 2_000...100_000) : random.int(in: 33...300)
                    let open = random.chance(0.5) ? "[" : #"{"a":"#
                    let close = open == "[" ? "]" : "}"
                    let nested = #"{"type":"sample","x":"# + String(repeating: open, count: depth) + "1" + String(repeating: close, count: depth) + "}"
                    file.add(Array(nested.utf8), kind: "deep nesting", reject: true)
                case 83..<87:  // NUL bytes and invalid UTF-8 inside strings
                    guard let quote = line.lastIndex(of: 0x22) else { continue }
                    var broken = line
                    broken.insert(contentsOf: random.pick([[0x00], [0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82]]), at: quote)
                    file.add(broken, kind: "NUL or invalid UTF-8", reject: true)
                case 87..<90:  // not an object
                    file.add(Array(random.pick(["[]", "42", #""sample""#, "null", "{}", "[{}]", "true", "{", "}", "\u{FEFF}{}"]).utf8), kind: "not an object", reject: true)
                case 90..<93:  // blank and whitespace-only lines (not counted)
                    let blank = random.pick(["", " ", "\t", "  \t "])
                    file.add(Array(blank.utf8), kind: "blank", reject: false, blank: true)
                case 93..<96:  // CRLF endings are accepted like LF
                    file.addValid(line, kind: "CRLF", ending: [0x0D, 0x0A])
                default:  // a duplicate key
                    let duplicated = text.replacingOccurrences(of: #""type":"#, with: #""type":"sample","type":"#)
                    file.add(Array(duplicated.utf8), kind: "duplicate key", reject: true)
                }
            }
            // The last line has no newline.
            file.add(Array("{\"type\":\"sample\",\"kind\":\"hrv\",\"id\":\"last".utf8), kind: "truncated last line", reject: true, ending: [])
            return file
        }

        /// Input values quoted in a rejection (an unknown type, kind or unit, a bad timestamp)
        /// may hold a newline, a terminal escape or a megabyte: the reason is still one
        /// printable, bounded line, so every rejection is exactly one `INPUT:LINE: reason`.
        @Test func aRejectionIsOnePrintableBoundedLineWhateverTheValueHolds() throws {
            try withCLI { cli in
                let hostileValues = [#"x\nhostile.jsonl:99: forged"#, #"\u001b[31mred\u001b[0m"#, #"tab\there\r"#, #"nul\u0000"#,
                                     #"\u2028line\u2029separator"#, String(repeating: "long", count: 50_000)]
                var lines: [String] = []
                for value in hostileValues {
                    lines.append(#"{"type":"\#(value)","at":"2026-02-01T00:00:00Z"}"#)
                    lines.append(#"{"type":"sample","kind":"\#(value)","id":"k","start":"2026-02-01T00:00:00Z","end":"2026-02-01T00:01:00Z","value":1,"source":"s"}"#)
                    lines.append(#"{"type":"sample","kind":"hrv","id":"u","start":"2026-02-01T00:00:00Z","end":"2026-02-01T00:01:00Z","value":40,"unit":"\#(value)","source":"s"}"#)
                    lines.append(#"{"type":"sampleDeleted","id":"d","at":"\#(value)"}"#)
                }
                try cli.write("hostile.jsonl", lines.joined(separator: "\n") + "\n")
                // --json prints every rejection (without it, repeated kinds are counted, not repeated: issue 35).
                let result = try cli.run(["ingest", "--log", "events.jsonl", "--json", "hostile.jsonl"])
                #expect(result.status == 65, "\(result)")
                let reported = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                #expect(reported.map { Int($0.split(separator: ":")[1]) } == Array(1...lines.count), "\(result)")
                for line in reported {
                    #expect(line.utf8.count < 1_000, "\(line.prefix(200))…")
                    #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) || $0.value == 0x2028 || $0.value == 0x2029 },
                            "a control character in \(line.debugDescription)")
                }
                #expect(try cli.bytes("events.jsonl").isEmpty)
            }
        }

        /// The first few of `lines` with their kind and bytes, for a failure message.
        static func describe(_ lines: Set<Int>, in input: HostileFile) -> String {
            let text = StoredLines(input.bytes)
            return "\(lines.count) lines: " + lines.sorted().prefix(8).map { number in
                let bytes = number <= text.count ? text.line(number - 1).prefix(300) : []
                return "\(number) (\(input.kindOfLine[number] ?? "?")): \(String(decoding: bytes, as: UTF8.self).debugDescription)"
            }.joined(separator: "; ")
        }

        @Test(.enabled(if: LinuxOnly.isLinux, "Linux only: peak memory is measured with GNU time or /proc/PID/status"))
        func hostileLinesAreAllAccountedForWithBoundedMemoryAndTheLogStaysValid() throws {
            try withCLI { cli in
                let base = try cli.generate("base.jsonl", days: 8, seed: 21).map { Array($0.utf8) }
                var random = SeededRandom(seed: Self.seed)
                let input = Self.makeInput(base: base, random: &random)
                try cli.writeBytes("hostile.jsonl", input.bytes)
                let context = "seed \(Self.seed)"

                let memory = try PeakMemory.run(cli, ["ingest", "--log", "events.jsonl", "--json", "hostile.jsonl"], within: 300)
                let result = memory.result
                try #require(!result.timedOut, "\(context): ingest hung")
                #expect(!memory.diedOfSignal, "\(context): ingest crashed: \(result)")
                #expect(result.status == 65, "\(context): \(result)")
                let peak = try #require(memory.kibibytes, "\(context): no peak RSS measured")
                #expect(peak < Self.peakMemoryLimitKiB, "\(context): peak RSS \(peak) KiB")

                // Every non-blank line is accounted for, and every rejection names its line and a reason.
                let summary = try #require(IngestSummary(json: result.stdout), "\(context): \(result)")
                #expect(summary.lines == input.nonBlankLines, "\(context): \(summary)")
                #expect(summary.appended + summary.alreadyAppended + summary.conflict + summary.rejected == summary.lines, "\(context): \(summary)")
                var rejectedLines: Set<Int> = []
                var malformed: [Substring] = []
                for line in result.stderr.split(separator: "\n") {
                    let parts = line.split(separator: ":", maxSplits: 2)
                    guard parts.count == 3, parts[0] == "hostile.jsonl", let number = Int(parts[1]),
                          parts[2].hasPrefix(" "), parts[2].count > 3, line.utf8.count < 1_000 else {
                        malformed.append(line.prefix(200))
                        continue
                    }
                    #expect(rejectedLines.insert(number).inserted, "\(context): line \(number) reported twice")
                }
                #expect(malformed.isEmpty, "\(context): stderr lines that are not 'hostile.jsonl:LINE: reason': \(malformed.prefix(5))")
                #expect(rejectedLines.count == summary.rejected + summary.conflict, "\(context): \(summary)")
                let missed = input.mustReject.subtracting(rejectedLines)
                #expect(missed.isEmpty, "\(context): invalid lines not rejected: \(Self.describe(missed, in: input))")
                let wronglyRejected = input.mustAccept.intersection(rejectedLines)
                #expect(wronglyRejected.isEmpty, "\(context): valid lines rejected: \(Self.describe(wronglyRejected, in: input))")
                #expect(summary.appended > 0, "\(context): \(summary)")

                // The log is valid, and what was accepted can be read back and replayed.
                let verify = try cli.run(["verify", "--log", "events.jsonl"])
                #expect(verify.status == 0, "\(context): \(verify)")
                let stored = StoredLines(try cli.bytes("events.jsonl"))
                #expect(stored.trailingBytes == 0 && stored.firstSeqGap() == nil, "\(context)")
                let rebuild = try cli.start(["rebuild", "--log", "events.jsonl", "--json"]).finish(within: 300)
                #expect(rebuild.status == 0 && rebuild.signal == nil && !rebuild.timedOut, "\(context): \(rebuild)")
                print("Reliability.HostileInput seed \(Self.seed): \(input.lineNumber) lines (\(input.bytes.count) bytes), "
                      + "\(summary.rejected) rejected + \(summary.conflict) conflicts, \(summary.appended) appended, "
                      + "\(summary.alreadyAppended) already there, peak RSS \(peak) KiB; "
                      + "kinds: \(input.kinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
            }
        }
    }
}
