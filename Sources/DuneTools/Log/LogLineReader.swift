import DuneEvents

/// Reads a log's complete lines in large chunks, without loading the file and
/// without ever handing out a partial line.
///
/// The reader `pread`s chunks (4 MiB by default) into one buffer and yields
/// the whole lines in it, either one at a time (`forEachLine`) or as batches
/// of many lines (`forEachBatch`, for parsers that want thousands of lines at
/// once). Bytes after the last `\n` — a line a concurrent writer is still
/// writing, or a torn tail — are never yielded; `ReadEnd` counts them. A line
/// longer than the chunk grows the buffer.
///
/// Readers take no lock and never block the writer: a read sees the file as
/// far as it has been written when each chunk is read.
///
/// ```swift
/// let reader = try LogLineReader(path: "Logs/events.jsonl")
/// let end = try reader.forEachLine { line in
///     guard StoredLine.isIntact(line.bytes) else { throw … line.number, line.byteOffset … }
/// }
/// // Later, to read what was appended since (e.g. `tail --follow`):
/// _ = try reader.forEachLine(startingAt: end.endOffset, firstLineNumber: end.nextLineNumber) { … }
/// ```
///
/// ## Concurrency and lifetime
///
/// Not `Sendable`: it owns a mutable buffer. Use it from one task at a time
/// (create it where you read, or keep it in an actor). The `bytes` handed to a
/// body point into that buffer and are valid only during the call; copy them
/// (`Array(line.bytes)`) to keep them. Calling the reader again from inside a
/// body is a programming error (checked with `precondition`).
package final class LogLineReader {
    /// The default chunk size, 4 MiB.
    package static let defaultChunkSize = 4 * 1024 * 1024

    /// The file read from.
    package let file: LogFile

    /// The number of bytes asked for per `pread` (at least 1).
    package let chunkSize: Int

    /// The chunked line buffer (shared with `InputLineReader`); grown for long lines.
    private var lines: LineBuffer

    /// Set while a body runs, to catch reentrant use.
    private var isReading = false

    // MARK: - Types

    /// One complete line.
    package struct Line {
        /// The line's bytes, without the `\n`; valid only during the body call.
        package let bytes: ByteView
        /// The 1-based line number (counted from `firstLineNumber`).
        package let number: Int
        /// The byte offset of the line's first byte in the file.
        package let byteOffset: Int
        /// The byte offset just past the line's `\n`: where the next line starts.
        package var endOffset: Int { byteOffset + bytes.count + 1 }
    }

    /// Many consecutive complete lines, as one contiguous run of bytes.
    package struct Batch {
        /// The lines, each **with** its terminating `\n`; the last byte is
        /// always `\n`. Valid only during the body call.
        package let bytes: ByteView
        /// The byte offset of `bytes[0]` in the file.
        package let byteOffset: Int
        /// The number of the first line in the batch.
        package let firstLineNumber: Int
        /// How many lines the batch holds (its `\n` count).
        package let lineCount: Int

        /// The byte offset just past the batch.
        package var endOffset: Int { byteOffset + bytes.count }
        /// The number the line after the batch will have.
        package var nextLineNumber: Int { firstLineNumber + lineCount }

        /// Calls `body` for each line of the batch, in order.
        ///
        /// - Complexity: O(*n*) in the batch's bytes.
        package func forEachLine(_ body: (Line) throws -> Void) rethrows {
            var number = firstLineNumber
            try LineScanning.forEachCompleteLine(in: bytes) { start, end in
                try body(Line(bytes: bytes.subview(start..<end), number: number, byteOffset: byteOffset + start))
                number += 1
            }
        }
    }

    /// Where a read stopped.
    package struct ReadEnd: Sendable, Equatable {
        /// The byte offset just after the last complete line yielded (the
        /// starting offset if none was): where to resume.
        package var endOffset: Int
        /// The number the next line will have: where to resume counting.
        package var nextLineNumber: Int
        /// How many bytes followed `endOffset` without a `\n` when the end of
        /// the file was reached: a line still being written, or a torn tail.
        /// They were not yielded.
        package var trailingByteCount: Int

        package init(endOffset: Int, nextLineNumber: Int, trailingByteCount: Int) {
            self.endOffset = endOffset
            self.nextLineNumber = nextLineNumber
            self.trailingByteCount = trailingByteCount
        }
    }

    // MARK: - Creating a reader

    /// Opens `path` for reading (no lock) and reads it in `chunkSize` chunks.
    ///
    /// - Parameters:
    ///   - path: The log file.
    ///   - chunkSize: Bytes per `pread`; values below 1 count as 1.
    /// - Throws: `DuneEventsError` `.inputUnavailable` if the file cannot be
    ///   opened for reading.
    package convenience init(path: String, chunkSize: Int = LogLineReader.defaultChunkSize) throws(DuneEventsError) {
        self.init(file: try LogFile.openForReading(path: path), chunkSize: chunkSize)
    }

    /// Reads an already open file, e.g. the writer's own `LogFile` (`pread`
    /// does not disturb its appends).
    ///
    /// - Parameters:
    ///   - file: The file to read.
    ///   - chunkSize: Bytes per `pread`; values below 1 count as 1.
    package init(file: LogFile, chunkSize: Int = LogLineReader.defaultChunkSize) {
        self.file = file
        self.chunkSize = max(1, chunkSize)
        lines = LineBuffer(capacity: self.chunkSize)
    }

    // MARK: - Reading

    /// Calls `body` with each complete line from `offset` to the end of the file.
    ///
    /// - Parameters:
    ///   - offset: Where to start; must be the start of a line (`0`, or an
    ///     `endOffset` from an earlier read).
    ///   - firstLineNumber: The number of the line at `offset`.
    ///   - body: Called once per line, in order; a throw stops the read.
    /// - Returns: Where the read stopped and how many unterminated bytes followed.
    /// - Throws: `DuneEventsError` `.inputUnavailable` if a read fails, or
    ///   whatever `body` throws.
    /// - Complexity: O(*n*) in the bytes from `offset` to the end of the
    ///   file; memory O(chunk size + longest line).
    package func forEachLine(
        startingAt offset: Int = 0,
        firstLineNumber: Int = 1,
        _ body: (Line) throws -> Void
    ) throws -> ReadEnd {
        try forEachBatch(startingAt: offset, firstLineNumber: firstLineNumber) { batch in
            try batch.forEachLine(body)
        }
    }

    /// Calls `body` with batches of complete lines from `offset` to the end
    /// of the file: each batch is everything complete in one chunk (at most
    /// about `chunkSize` bytes, more only for a single longer line).
    ///
    /// - Parameters:
    ///   - offset: Where to start; must be the start of a line.
    ///   - firstLineNumber: The number of the line at `offset`.
    ///   - body: Called once per batch, in order; a throw stops the read.
    /// - Returns: Where the read stopped and how many unterminated bytes followed.
    /// - Throws: `DuneEventsError` `.inputUnavailable` if a read fails, or
    ///   whatever `body` throws.
    /// - Complexity: O(*n*) in the bytes from `offset` to the end of the
    ///   file; memory O(chunk size + longest line).
    package func forEachBatch(
        startingAt offset: Int = 0,
        firstLineNumber: Int = 1,
        _ body: (Batch) throws -> Void
    ) throws -> ReadEnd {
        precondition(offset >= 0, "LogLineReader: negative start offset \(offset)")
        precondition(!isReading, "LogLineReader: forEachLine/forEachBatch called again from inside its own body")
        isReading = true
        defer { isReading = false }

        lines.reset(streamOffset: offset)
        var lineNumber = firstLineNumber
        let file = self.file
        while true {
            let count = try lines.refill(maximum: chunkSize, growing: true) { (room: MutableByteView, at) throws(DuneEventsError) in
                try file.read(into: room, at: at)
            }
            if count == 0 { break }
            // Everything up to the last `\n` read is a batch; the rest waits for more bytes.
            guard let batch = lines.takeCompleteLines() else { continue }
            let bytes = lines.bytes(batch)
            let lineCount = LineScanning.newlineCount(in: bytes)
            try body(Batch(bytes: bytes, byteOffset: lines.streamOffset(of: batch.lowerBound), firstLineNumber: lineNumber, lineCount: lineCount))
            lineNumber += lineCount
        }
        return ReadEnd(endOffset: lines.streamOffset(of: lines.start), nextLineNumber: lineNumber, trailingByteCount: lines.pendingCount)
    }
}
