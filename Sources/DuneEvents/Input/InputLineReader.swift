@preconcurrency import Glibc

/// Reads an input (a file, or stdin as `-`) line by line with bounded memory.
///
/// Lines are split on `\n` (a `\r` before it is dropped); a last line without
/// `\n` is still a line. Blank lines are skipped but counted. A line longer
/// than ``maximumLineBytes`` is not buffered: it is skipped to its end and
/// reported as ``Line/Content/overlong(_:)``, so a hostile 10 MB line costs
/// no more memory than a normal one.
public struct InputLineReader {
    /// One line of input.
    public struct Line {
        public enum Content {
            /// The line's bytes, without `\n`; valid only during the callback.
            case bytes(UnsafeRawBufferPointer)
            /// The line was longer than the limit; its length in bytes.
            case overlong(Int)
        }

        /// 1-based line number.
        public var number: Int
        public var content: Content
    }

    /// The name used in messages: the path, or `-` for stdin.
    public let name: String
    public let maximumLineBytes: Int
    private let descriptor: CInt
    private let ownsDescriptor: Bool

    /// Opens `path` for reading; `-` means stdin.
    ///
    /// - Throws: `inputUnavailable` when the file is missing, a directory or unreadable.
    public init(path: String, maximumLineBytes: Int = InputParser.maximumLineBytes) throws(DuneEventsError) {
        self.name = path
        self.maximumLineBytes = maximumLineBytes
        if path == "-" {
            descriptor = 0
            ownsDescriptor = false
            return
        }
        let opened: FileDescriptor
        let isDirectory: Bool
        do {
            opened = try FileDescriptor.open(path, O_RDONLY)
            isDirectory = try opened.status().isDirectory
        } catch {
            throw DuneEventsError(error, during: .open, path: path)
        }
        if isDirectory {
            try? opened.close()
            throw DuneEventsError(.inputUnavailable, "'\(path)' is a directory; give an input file", location: .init(path: path))
        }
        descriptor = opened.rawValue
        ownsDescriptor = true
    }

    /// Closes the file (not stdin).
    public func close() {
        if ownsDescriptor { _ = Glibc.close(descriptor) }
    }

    /// Calls `body` for every non-blank line, in order.
    ///
    /// - Returns: the number of lines read, blank ones included.
    /// - Throws: `DuneEventsError` (`inputUnavailable`) when reading fails; whatever `body` throws.
    /// - Complexity: O(n) in the input; memory O(maximumLineBytes + 1 MiB).
    @discardableResult
    public func forEachLine(_ body: (Line) throws -> Void) throws -> Int {
        let chunkSize = 1 << 20
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        var pending: [UInt8] = []      // the start of a line that continues in the next chunk
        var overlongLength: Int?       // set while skipping an overlong line
        var lineNumber = 0

        func emit(_ line: UnsafeRawBufferPointer) throws {
            lineNumber += 1
            var view = line
            if let last = view.last, last == UInt8(ascii: "\r") { view = UnsafeRawBufferPointer(rebasing: view.dropLast()) }
            if view.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
            try body(Line(number: lineNumber, content: .bytes(view)))
        }

        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, chunkSize) }
            if count < 0 {
                if errno == EINTR { continue }
                throw DuneEventsError(Errno.current, during: .read, path: name)
            }
            if count == 0 { break }
            try buffer.withUnsafeBytes { raw in
                let chunk = UnsafeRawBufferPointer(rebasing: raw[0..<count])
                var start = 0
                while start < chunk.count {
                    guard let newline = chunk[start...].firstIndex(of: UInt8(ascii: "\n")) else {
                        let rest = chunk.count - start
                        if let length = overlongLength {
                            overlongLength = length + rest
                        } else if pending.count + rest > maximumLineBytes {
                            overlongLength = pending.count + rest
                            pending.removeAll()
                        } else {
                            pending.append(contentsOf: chunk[start...])
                        }
                        return
                    }
                    let piece = UnsafeRawBufferPointer(rebasing: chunk[start..<newline])
                    if let length = overlongLength {
                        lineNumber += 1
                        try body(Line(number: lineNumber, content: .overlong(length + piece.count)))
                        overlongLength = nil
                    } else if pending.isEmpty {
                        if piece.count > maximumLineBytes {
                            lineNumber += 1
                            try body(Line(number: lineNumber, content: .overlong(piece.count)))
                        } else {
                            try emit(piece)
                        }
                    } else {
                        pending.append(contentsOf: piece)
                        if pending.count > maximumLineBytes {
                            lineNumber += 1
                            try body(Line(number: lineNumber, content: .overlong(pending.count)))
                        } else {
                            try pending.withUnsafeBytes { line in try emit(line) }
                        }
                        pending.removeAll(keepingCapacity: true)
                    }
                    start = newline + 1
                }
            }
        }
        if let length = overlongLength {
            lineNumber += 1
            try body(Line(number: lineNumber, content: .overlong(length)))
        } else if !pending.isEmpty {
            try pending.withUnsafeBytes { line in try emit(line) }
        }
        return lineNumber
    }
}
