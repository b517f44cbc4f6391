import Dispatch
import DuneEvents
import Synchronization

/// Raw input lines waiting to be parsed, in input order.
///
/// ``IngestSession/submit(line:input:)`` copies each line here; every
/// ``IngestSession/parseWindow`` lines they are parsed on all cores at once
/// (each line on its own: parsing is a pure function of its bytes) and then
/// submitted one by one, in order, exactly as if each had been parsed when it
/// was submitted. Every other entry point drains the window first, so
/// commands, rejections and progress keep the input's order.
struct RawLineWindow {
    /// The lines' bytes, back to back.
    var bytes: [UInt8] = []
    var lines: [RawLine] = []

    struct RawLine {
        var start: Int
        var count: Int
        var number: Int
        var input: String
        /// The length of a line over the limit (its bytes were not kept).
        var overlong: Int?
        /// A rejection submitted while lines were waiting: reported in its turn.
        var rejection: Rejection?
    }

    /// A rejection submitted while lines were waiting: its reason and category.
    struct Rejection: Sendable {
        var reason: String
        var category: String?
    }

    var isEmpty: Bool { lines.isEmpty }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        lines.removeAll(keepingCapacity: true)
    }

    /// A parsed window: one result per line, and the `data` bytes of the prepared ones.
    struct ParsedLines: Sendable {
        var parsed: [Parsed]
        var data: [UInt8]
    }

    /// What parsing one line gave.
    enum Parsed {
        case command(IngestCommand)
        /// A common sample line prepared for appending (`PreparedSample`); its
        /// `data` range is in the buffer ``parseAll(prepare:)`` returns.
        case prepared(PreparedSample)
        case rejected(String)
    }

    /// Every line parsed, in order, on several threads when there are many;
    /// with `prepare`, common sample lines come back prepared, with their
    /// `data` bytes in the returned buffer.
    func parseAll(prepare: Bool) -> ParsedLines {
        let count = lines.count
        var results = [Parsed](repeating: .rejected(""), count: count)
        let parts = count >= 512 ? min(4, max(1, ProcessInfoLite.activeProcessorCount)) : 1
        let partData = PartData(count: parts)
        results.withUnsafeMutableBufferPointer { results in
            bytes.withUnsafeBytes { buffer in
                let output = UncheckedResults(results)
                let bytes = UncheckedBytes(buffer: buffer)
                DispatchQueue.concurrentPerform(iterations: parts) { part in
                    let range = (count * part / parts)..<(count * (part + 1) / parts)
                    var data: [UInt8] = []
                    var scratch: [UInt8] = []
                    if prepare { data.reserveCapacity(range.count * 300) }
                    defer { partData.store(part, data) }
                    for index in range {
                        let line = lines[index]
                        if let rejection = line.rejection {
                            output[index] = .rejected(rejection.reason)
                            continue
                        }
                        if let overlong = line.overlong {
                            output[index] = .rejected("line is \(overlong) bytes; the limit is \(InputParser.maximumLineBytes)")
                            continue
                        }
                        let slice = UnsafeRawBufferPointer(rebasing: bytes.buffer[line.start..<(line.start + line.count)])
                        if prepare, let sample = InputParser.prepareSample(slice, data: &data, scratch: &scratch) {
                            output[index] = .prepared(sample)
                            continue
                        }
                        do throws(InputParser.Rejection) {
                            output[index] = .command(try InputParser.parse(slice))
                        } catch {
                            output[index] = .rejected(error.message)
                        }
                    }
                }
            }
        }
        // One buffer for the window: each part's prepared ranges move by the parts before it.
        var data: [UInt8] = []
        var part = 0
        var partStart = 0
        var offset = 0
        for index in 0..<count {
            while index >= (count * (part + 1) / parts) {
                part += 1
                partStart = 0
            }
            if index == count * part / parts {
                offset = data.count
                data.append(contentsOf: partData.take(part))
                partStart = offset
            }
            if case .prepared(var sample) = results[index] {
                sample.data = (sample.data.lowerBound + partStart)..<(sample.data.upperBound + partStart)
                results[index] = .prepared(sample)
            }
        }
        return ParsedLines(parsed: results, data: data)
    }
}

/// Each parsing thread's `data` bytes, handed back once.
private final class PartData: Sendable {
    private let parts: Mutex<[[UInt8]]>

    init(count: Int) {
        parts = Mutex(Array(repeating: [], count: count))
    }

    func store(_ part: Int, _ data: [UInt8]) {
        parts.withLock { $0[part] = data }
    }

    func take(_ part: Int) -> [UInt8] {
        parts.withLock { parts in
            defer { parts[part] = [] }
            return parts[part]
        }
    }
}

/// The window's bytes, read (never written) by the parsing threads while the window lives.
private struct UncheckedBytes: @unchecked Sendable {
    let buffer: UnsafeRawBufferPointer
}

/// The results buffer shared by the parsing threads, each writing its own indices.
private struct UncheckedResults: @unchecked Sendable {
    let base: UnsafeMutableBufferPointer<RawLineWindow.Parsed>

    init(_ base: UnsafeMutableBufferPointer<RawLineWindow.Parsed>) {
        self.base = base
    }

    subscript(index: Int) -> RawLineWindow.Parsed {
        get { base[index] }
        nonmutating set { base[index] = newValue }
    }
}

/// A window parsed on a queue of its own while the session reads on
/// (double buffering: the input, the parsing and the log's decide-encode-write
/// each keep a core busy).
final class ParsingWindow: Sendable {
    let lines: [RawLineWindow.RawLine]
    private let result = Mutex<RawLineWindow.ParsedLines?>(nil)
    private let done = DispatchGroup()

    init(_ window: RawLineWindow, prepare: Bool) {
        lines = window.lines
        done.enter()
        DispatchQueue(label: "DuneEvents.IngestSession.parse", qos: .userInitiated).async { [self] in
            let parsed = window.parseAll(prepare: prepare)
            result.withLock { $0 = parsed }
            done.leave()
        }
    }

    /// The parse results, once they are ready.
    func results() async -> RawLineWindow.ParsedLines {
        await withCheckedContinuation { continuation in
            done.notify(queue: DispatchQueue.global(qos: .userInitiated)) { continuation.resume() }
        }
        return result.withLock { $0 ?? RawLineWindow.ParsedLines(parsed: [], data: []) }
    }
}

extension IngestSession {
    /// How many raw lines are parsed together (see `RawLineWindow`).
    static let parseWindow = 4096

    /// Whether raw lines are waiting to be parsed or submitted, or a batch
    /// is in flight (a rejection then waits its turn behind their conflicts).
    var hasWaitingLines: Bool { !window.isEmpty || parsing != nil || inFlight != nil }

    /// Parses one raw input line and submits it.
    ///
    /// The line is copied and parsed together with the lines after it, on
    /// every core (see `RawLineWindow`); its rejection or command takes its
    /// place in the input's order all the same.
    package mutating func submit(line: InputLineReader.Line, input: String) async throws(DuneEventsError) {
        switch line.content {
        case .overlong(let length):
            window.lines.append(.init(start: 0, count: 0, number: line.number, input: input, overlong: length, rejection: nil))
        case .bytes(let bytes):
            window.lines.append(.init(start: window.bytes.count, count: bytes.count, number: line.number, input: input,
                                      overlong: nil, rejection: nil))
            window.bytes.append(contentsOf: bytes)
        }
        if window.lines.count >= Self.parseWindow {
            // Start parsing this window, then submit the one parsed meanwhile.
            let started = ParsingWindow(window, prepare: !wantsEvents)
            window = RawLineWindow()
            if let previous = parsing { try await submit(previous) }
            parsing = started
        }
    }

    /// Parses every waiting raw line and submits them in order.
    mutating func drainWindow() async throws(DuneEventsError) {
        if let previous = parsing {
            parsing = nil
            try await submit(previous)
        }
        guard !window.isEmpty else { return }
        let current = ParsingWindow(window, prepare: !wantsEvents)
        window = RawLineWindow()
        try await submit(current)
    }

    /// Submits a parsed window's lines in order.
    private mutating func submit(_ parsing: ParsingWindow) async throws(DuneEventsError) {
        let results = await parsing.results()
        let (parsed, data) = (results.parsed, results.data)
        let lines = parsing.lines
        for (index, result) in parsed.enumerated() {
            let line = lines[index]
            switch result {
            case .command(let command): try await enqueue(command, input: line.input, line: line.number, category: nil)
            case .prepared(let sample): try await enqueue(sample, data: data, input: line.input, line: line.number)
            case .rejected(let reason):
                // Reported after the conflicts of the lines before it.
                try await settle()
                recordRejection(input: line.input, line: line.number, reason: reason, category: line.rejection?.category)
            }
        }
    }
}
