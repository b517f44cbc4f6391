import Dispatch

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
        var rejection: (reason: String, category: String?)?
    }

    var isEmpty: Bool { lines.isEmpty }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        lines.removeAll(keepingCapacity: true)
    }

    /// What parsing one line gave.
    enum Parsed {
        case command(IngestCommand)
        case rejected(String)
    }

    /// Every line parsed, in order; on several threads when there are many.
    func parseAll() -> [Parsed] {
        let count = lines.count
        var results = [Parsed](repeating: .rejected(""), count: count)
        let parts = count >= 512 ? min(4, max(1, ProcessInfoLite.activeProcessorCount)) : 1
        results.withUnsafeMutableBufferPointer { results in
            bytes.withUnsafeBytes { buffer in
                let output = UncheckedResults(results)
                let bytes = UncheckedBytes(buffer: buffer)
                DispatchQueue.concurrentPerform(iterations: parts) { part in
                    let range = (count * part / parts)..<(count * (part + 1) / parts)
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
                        do throws(InputParser.Rejection) {
                            let slice = UnsafeRawBufferPointer(rebasing: bytes.buffer[line.start..<(line.start + line.count)])
                            output[index] = .command(try InputParser.parse(slice))
                        } catch {
                            output[index] = .rejected(error.reason)
                        }
                    }
                }
            }
        }
        return results
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

extension IngestSession {
    /// How many raw lines are parsed together (see `RawLineWindow`).
    static let parseWindow = 4096

    /// Keeps a raw line for parsing with the lines after it.
    mutating func enqueueRaw(_ line: InputLineReader.Line, input: String) async throws(DuneEventsError) {
        switch line.content {
        case .overlong(let length):
            window.lines.append(.init(start: 0, count: 0, number: line.number, input: input, overlong: length, rejection: nil))
        case .bytes(let bytes):
            window.lines.append(.init(start: window.bytes.count, count: bytes.count, number: line.number, input: input,
                                      overlong: nil, rejection: nil))
            window.bytes.append(contentsOf: bytes)
        }
        if window.lines.count >= Self.parseWindow { try await drainWindow() }
    }

    /// Parses the waiting raw lines and submits them in order.
    mutating func drainWindow() async throws(DuneEventsError) {
        guard !window.isEmpty else { return }
        let parsed = window.parseAll()
        let lines = window.lines
        window.removeAll()
        for (index, result) in parsed.enumerated() {
            let line = lines[index]
            switch result {
            case .command(let command): try await enqueue(command, input: line.input, line: line.number, category: nil)
            case .rejected(let reason):
                recordRejection(input: line.input, line: line.number, reason: reason, category: line.rejection?.category)
            }
        }
    }
}
