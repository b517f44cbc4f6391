import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

/// Issue 6, "prove it loses nothing": crash, concurrency, full-disk, corruption,
/// hostile-input and bad-path tests that drive the built `dune-replay` binary.
///
/// `swift test --filter Reliability` runs them all. Every random choice comes from
/// ``SeededRandom`` with a fixed seed that failure messages print, so a failure
/// reproduces exactly; trial counts and sizes are bounded so the suite stays within
/// a few minutes on a 2-core CI machine running the debug build.
@Suite enum Reliability {}

// MARK: - Deterministic randomness

/// SplitMix64: a tiny, fast, deterministic generator. The tests never use
/// `SystemRandomNumberGenerator`, so the same seed gives the same trials.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in `range`.
    mutating func int(in range: Range<Int>) -> Int { Int.random(in: range, using: &self) }
    mutating func int(in range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    /// True with probability `probability`.
    mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &self) < probability }
    mutating func pick<T>(_ values: [T]) -> T { values[int(in: 0..<values.count)] }
    /// `count` lowercase hex digits.
    mutating func hex(_ count: Int) -> String {
        String((0..<count).map { _ in "0123456789abcdef".randomElement(using: &self)! })
    }
}

// MARK: - Stored lines, read without trusting them

/// A log file's bytes split on `\n`, with nothing parsed or trusted.
struct StoredLines {
    let bytes: [UInt8]
    /// Start offset of every complete (`\n`-terminated) line.
    let starts: [Int]
    /// Offset just past each complete line's `\n`.
    let ends: [Int]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts: [Int] = []
        var ends: [Int] = []
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count, let hit = memchr(base + offset, 0x0A, raw.count - offset) {
                let newline = base.distance(to: UnsafeRawPointer(hit))
                starts.append(offset)
                ends.append(newline + 1)
                offset = newline + 1
            }
        }
        self.starts = starts
        self.ends = ends
    }

    /// Complete lines.
    var count: Int { starts.count }
    /// Bytes after the last `\n` (a torn tail).
    var trailingBytes: Int { bytes.count - (ends.last ?? 0) }

    /// The bytes of complete line `index` (0-based), without its `\n`.
    func line(_ index: Int) -> ArraySlice<UInt8> { bytes[starts[index]..<(ends[index] - 1)] }

    /// The `seq` of line `index` read from its `{"v":V,"seq":N,` prefix (V one digit: any type's version), or nil.
    func seq(_ index: Int) -> Int? {
        let line = line(index)
        let version: UInt8 = line.dropFirst(5).first ?? 0
        let prefix: [UInt8] = Array(#"{"v":"#.utf8) + [version] + Array(#","seq":"#.utf8)
        guard version >= 0x31, version <= 0x39, line.count > prefix.count, line.prefix(prefix.count).elementsEqual(prefix)
        else { return nil }
        var value = 0
        var sawDigit = false
        for byte in line.dropFirst(prefix.count) {
            guard byte >= 0x30 && byte <= 0x39 else { break }
            value = value * 10 + Int(byte - 0x30)
            sawDigit = true
        }
        return sawDigit ? value : nil
    }

    /// The first 0-based line whose seq is not its 1-based line number, or nil when gapless.
    func firstSeqGap() -> Int? {
        (0..<count).first { seq($0) != $0 + 1 }
    }

    /// Every `"id":"…"` value in complete lines `range` (event ids and sample ids alike).
    func quotedIDs(in range: Range<Int>) -> Set<String> {
        var ids: Set<String> = []
        for index in range { ids.formUnion(Self.values(of: "id", in: line(index))) }
        return ids
    }

    /// The string values of `"key":"…"` in `line`, left to right (no JSON parsing).
    static func values(of key: String, in line: ArraySlice<UInt8>) -> [String] {
        let needle = Array("\"\(key)\":\"".utf8)
        var found: [String] = []
        var from = line.startIndex
        while let hit = find(needle, in: line, from: from) {
            let start = hit + needle.count
            let end = find([0x22], in: line, from: start) ?? line.endIndex
            found.append(String(decoding: line[start..<end], as: UTF8.self))
            from = end
        }
        return found
    }

    /// The index of the first `needle` in `bytes` at or after `from` (memchr and memcmp:
    /// the debug build's element loops are slow; Glibc's memmem is not imported).
    static func find(_ needle: [UInt8], in bytes: ArraySlice<UInt8>, from: Int) -> Int? {
        guard from < bytes.endIndex, let first = needle.first else { return nil }
        return bytes[from...].withUnsafeBytes { haystack -> Int? in
            needle.withUnsafeBytes { pattern -> Int? in
                guard let base = haystack.baseAddress else { return nil }
                var offset = 0
                while haystack.count - offset >= pattern.count,
                      let hit = memchr(base + offset, Int32(first), haystack.count - offset - pattern.count + 1) {
                    let at = base.distance(to: UnsafeRawPointer(hit))
                    if memcmp(base + at, pattern.baseAddress!, pattern.count) == 0 { return from + at }
                    offset = at + 1
                }
                return nil
            }
        }
    }

    /// Line `index` without what differs between two runs of the same ingest — the event
    /// id, `recordedAt` and the CRC: its seq, type and data, so two logs can be compared
    /// event by event.
    func stableContent(_ index: Int) -> [UInt8] {
        let line = line(index)
        guard let id = Self.find(Array(#","id":""#.utf8), in: line, from: line.startIndex),
              let type = Self.find(Array(#","type":""#.utf8), in: line, from: id),
              let recordedAt = Self.find(Array(#","recordedAt":""#.utf8), in: line, from: type),
              let data = Self.find(Array(#","data":"#.utf8), in: line, from: recordedAt),
              let crc = Self.find(Array(#","crc":""#.utf8), in: line, from: data) else { return Array(line) }
        return Array(line[line.startIndex..<id]) + Array(line[type..<recordedAt]) + Array(line[data..<crc])
    }
}

/// Whether `bytes` starts with `prefix` (memcmp: the debug build's element loops are slow).
func hasBytePrefix(_ bytes: [UInt8], _ prefix: [UInt8]) -> Bool {
    guard bytes.count >= prefix.count else { return false }
    guard !prefix.isEmpty else { return true }
    return bytes.withUnsafeBytes { whole in
        prefix.withUnsafeBytes { start in memcmp(whole.baseAddress!, start.baseAddress!, prefix.count) == 0 }
    }
}

// MARK: - Progress and summaries

/// One `{"acknowledgedLines":M,"durableSeq":N}` line of `ingest --progress-json`.
struct DurableProgress: Equatable, CustomStringConvertible {
    var acknowledgedLines: Int
    var durableSeq: Int
    var description: String { "acknowledged \(acknowledgedLines) lines, durable seq \(durableSeq)" }

    /// The complete progress lines in `stderr` (a line cut by a kill is ignored).
    static func all(in stderr: [UInt8]) -> [DurableProgress] {
        var found: [DurableProgress] = []
        let text = String(decoding: stderr, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        lines.removeLast()  // after the last "\n": empty, or a line still being written
        for line in lines where line.hasPrefix(#"{"acknowledgedLines":"#) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let lines = object["acknowledgedLines"] as? Int, let seq = object["durableSeq"] as? Int else { continue }
            found.append(DurableProgress(acknowledgedLines: lines, durableSeq: seq))
        }
        return found
    }
}

/// `ingest --json`'s summary.
struct IngestSummary: Equatable {
    var lines = 0
    var appended = 0
    var alreadyAppended = 0
    var conflict = 0
    var rejected = 0
    var eventsAppended = 0

    init(lines: Int = 0, appended: Int = 0, alreadyAppended: Int = 0, conflict: Int = 0, rejected: Int = 0, eventsAppended: Int = 0) {
        self.lines = lines
        self.appended = appended
        self.alreadyAppended = alreadyAppended
        self.conflict = conflict
        self.rejected = rejected
        self.eventsAppended = eventsAppended
    }

    /// Parses the last line of `stdout`; nil when it is not a summary.
    init?(json stdout: String) {
        guard let line = stdout.split(separator: "\n").last,
              let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
        func int(_ key: String) -> Int { object[key] as? Int ?? -1 }
        self.init(lines: int("lines"), appended: int("appended"), alreadyAppended: int("alreadyAppended"),
                  conflict: int("conflict"), rejected: int("rejected"), eventsAppended: int("eventsAppended"))
    }
}

// MARK: - Inputs

extension CLI {
    /// Writes `dune-replay generate` output to `name` and returns its lines.
    @discardableResult
    func generate(_ name: String, days: Int, seed: Int, density: Int = 1) throws -> [Substring] {
        let result = try run(["generate", "--days", "\(days)", "--seed", "\(seed)", "--density", "\(density)"])
        #expect(result.status == 0, "generate: \(result)")
        try write(name, result.stdout)
        return result.stdout.split(separator: "\n")
    }

    /// The absolute path of `name` in this test's directory.
    func path(_ name: String) -> String { directory + "/" + name }
}

/// Valid input lines that each become exactly one event: samples with unique ids.
enum UniqueSamples {
    /// `count` sample lines whose ids start with `prefix`; kinds, values and times vary with `random`.
    static func lines(prefix: String, count: Int, random: inout SeededRandom) -> [String] {
        (0..<count).map { index in
            let day = 1 + index % 28
            let minute = random.int(in: 0..<1380)
            let stamp = "2026-02-\(twoDigits(day))T\(twoDigits(minute / 60)):\(twoDigits(minute % 60))"
            let start = stamp + ":00Z"
            let end = stamp + ":30Z"
            let id = "\(prefix)-\(index)-\(random.hex(8))"
            switch index % 4 {
            case 0:
                return #"{"type":"sample","kind":"stepCount","id":"\#(id)","start":"\#(start)","end":"\#(end)","value":\#(random.int(in: 1...900)),"unit":"count","source":"iPhone"}"#
            case 1:
                return #"{"type":"sample","kind":"hrv","id":"\#(id)","start":"\#(start)","end":"\#(end)","value":\#(random.int(in: 20...120)).5,"unit":"ms","source":"Apple Watch"}"#
            case 2:
                return #"{"type":"sample","kind":"restingHeartRate","id":"\#(id)","start":"\#(start)","end":"\#(start)","value":\#(random.int(in: 40...80)),"unit":"bpm","source":"Apple Watch"}"#
            default:
                return #"{"type":"sample","kind":"bodyMass","id":"\#(id)","start":"\#(start)","end":"\#(start)","value":\#(random.int(in: 50...120)).25,"unit":"kg","source":"Withings"}"#
            }
        }
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

// MARK: - Peak memory

/// A process's peak resident set size: from GNU time when installed, else from
/// `/proc/PID/status` (`VmHWM`, the high-water mark) polled until the process exits.
enum PeakMemory {
    static let timePath = "/usr/bin/time"
    static var hasGNUTime: Bool { FileManager.default.isExecutableFile(atPath: timePath) }

    /// What one measured run gave.
    struct Measured {
        var result: CLI.Result
        /// Peak RSS in KiB; nil when it could not be read.
        var kibibytes: Int?
        /// Whether the process died of a signal (under GNU time, which then exits 128+signal itself).
        var diedOfSignal: Bool
    }

    /// Runs `dune-replay arguments…`, killing it after `seconds`, and measures its peak RSS.
    static func run(_ cli: CLI, _ arguments: [String], within seconds: Double) throws -> Measured {
        if hasGNUTime {
            let report = cli.path(".time-\(UUID().uuidString)")
            let result = try cli.start(arguments, launcher: [timePath, "-f", "%M", "-o", report]).finish(within: seconds)
            let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
            let last = text.split(separator: "\n").last.map(String.init) ?? ""
            return Measured(result: result, kibibytes: Int(last.trimmingCharacters(in: .whitespaces)),
                            diedOfSignal: result.signal != nil || text.contains("terminated by signal"))
        }
        let running = try cli.start(arguments)
        let deadline = Date().addingTimeInterval(seconds)
        var peak: Int?
        while running.isRunning && Date() < deadline {
            peak = highWaterMark(of: running.pid) ?? peak
            usleep(10_000)
        }
        let result = try running.finish(within: 0)
        return Measured(result: result, kibibytes: peak, diedOfSignal: result.signal != nil)
    }

    /// `VmHWM` of `pid` in KiB.
    static func highWaterMark(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
    }
}
