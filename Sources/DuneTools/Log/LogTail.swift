import DuneEvents

/// Follows a log as another process appends to it: its last lines, then
/// every complete line written after them (`dune-replay tail [--follow]`).
///
/// New lines are read with ``LogLineReader``, so the rule is the log's:
/// never past the last `\n` (a line still being written is read on a later
/// call, once it is complete). The reader holds the file it opened; when the
/// path comes to name another file (the log was replaced) or the file shrank
/// below what was read, ``wasReplaced()`` says so and the caller opens the
/// path again.
///
/// Not `Sendable`: one task polls it.
package final class LogTail {
    /// One complete line, without its `\n`.
    package struct Line: Sendable, Equatable {
        package var bytes: [UInt8]
        /// The offset of the line's first byte in the file.
        package var byteOffset: Int
    }

    /// The path opened.
    package let path: String
    /// The byte offset just after the last complete line read.
    package private(set) var offset = 0

    private let file: LogFile
    private let identity: FileIdentity
    private let reader: LogLineReader

    private init(path: String, file: LogFile, identity: FileIdentity) {
        self.path = path
        self.file = file
        self.identity = identity
        reader = LogLineReader(file: file, chunkSize: 1 << 20)
    }

    /// Opens `path` for reading (no lock).
    ///
    /// - Returns: The tail, or `nil` when nothing exists at `path`.
    /// - Throws: `DuneEventsError` `.inputUnavailable` when the path cannot
    ///   be opened, or is a directory or not a regular file.
    package static func open(path: String) throws(DuneEventsError) -> LogTail? {
        let file: LogFile
        do {
            file = try LogFile.openForReading(path: path)
        } catch {
            if ProcessCalls.isMissing(path) { return nil }
            throw error
        }
        return LogTail(path: path, file: file, identity: try file.identity)
    }

    /// Whether `path` now names another file, or the file shrank below what
    /// was read. A removed path is not a replacement: the open file is kept.
    package func wasReplaced() -> Bool {
        guard let current = LogFile.status(atPath: path) else { return false }
        return current.identity != identity || current.size < offset
    }

    /// The complete lines between ``offset`` and the file's end; advances past them.
    ///
    /// - Throws: `DuneEventsError` `.inputUnavailable` when a read fails.
    package func readNewLines() throws(DuneEventsError) -> [Line] {
        var lines: [Line] = []
        do {
            let end = try reader.forEachLine(startingAt: offset) { line in
                lines.append(Line(bytes: line.bytes.copied, byteOffset: line.byteOffset))
            }
            offset = end.endOffset
        } catch let error as DuneEventsError {
            throw error
        } catch {
            throw DuneEventsError(.io, "reading '\(path)' failed: \(error)", location: .init(path: path))
        }
        return lines
    }

    /// The last `count` complete lines, read backwards from the end;
    /// ``offset`` ends after them.
    ///
    /// - Throws: `DuneEventsError` `.inputUnavailable` when a read fails.
    /// - Complexity: O(bytes of the last `count` + 1 lines).
    package func lastLines(_ count: Int) throws(DuneEventsError) -> [Line] {
        let end = try file.size
        var start = end
        var bytes: [UInt8] = []
        // Grow the read backwards until it holds `count` + 1 newlines (or the whole file).
        while start > 0 {
            let chunk = min(start, max(65_536, bytes.count))
            start -= chunk
            bytes = try read(from: start, count: chunk) + bytes
            let newlines = bytes.withUnsafeBytes { buffer in buffer.baseAddress.map { LineScanning.newlineCount(in: $0, from: 0, to: buffer.count) } ?? 0 }
            if newlines > count { break }
        }
        let readStart = start
        var lines: [Line] = []
        let lastNewline = bytes.withUnsafeBytes { buffer -> Int? in
            guard let base = buffer.baseAddress else { return nil }
            LineScanning.forEachCompleteLine(in: base, from: 0, to: buffer.count) { lineStart, lineEnd in
                lines.append(Line(bytes: Array(bytes[lineStart..<lineEnd]), byteOffset: readStart + lineStart))
            }
            return LineScanning.lastNewline(in: base, from: 0, to: buffer.count)
        }
        guard let lastNewline else {
            offset = start
            return []
        }
        offset = start + lastNewline + 1
        if start > 0 { lines.removeFirst() }  // may be a partial line
        return Array(lines.suffix(count))
    }

    /// Up to `count` bytes at `start`; fewer only if the file ends first.
    private func read(from start: Int, count: Int) throws(DuneEventsError) -> [UInt8] {
        try file.bytes(upTo: count, at: start)
    }
}
