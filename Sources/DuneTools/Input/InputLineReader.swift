import DuneEvents
import DuneHealthImport

/// Reads an input (a file, or stdin as `-`) line by line with bounded memory.
///
/// A pull reader: ``next()`` returns the next non-blank line, whose bytes stay
/// valid until the following call — so an async caller can `await` between
/// lines. Lines are split on `\n` (a `\r` before it is dropped); a last line
/// without `\n` is still a line. Blank lines are skipped but counted. A line
/// longer than ``maximumLineBytes`` is never buffered whole: it is skipped to
/// its end and returned as ``Line/Content/overlong(_:)``, so a hostile 10 MB
/// line costs no more memory than a normal one.
package final class InputLineReader {
    /// One line of input.
    package struct Line {
        package enum Content {
            /// The line's bytes without `\n`; valid until the next call to ``InputLineReader/next()``.
            case bytes(UnsafeRawBufferPointer)
            /// The line was longer than the limit; its length in bytes.
            case overlong(Int)
        }

        /// 1-based line number.
        package var number: Int
        package var content: Content
    }

    /// The name used in messages: the path, or `-` for stdin.
    package let name: String
    package let maximumLineBytes: Int
    private let file: SequentialFile
    /// The chunked line buffer (shared with ``LogLineReader``), of fixed size.
    private var lines: LineBuffer
    private var atEOF = false
    private var lineNumber = 0
    private var isClosed = false

    /// Opens `path` for reading; `-` means stdin.
    ///
    /// - Throws: `inputUnavailable` when the file is missing, a directory or unreadable.
    package init(path: String, maximumLineBytes: Int = InputParser.maximumLineBytes) throws(DuneEventsError) {
        self.name = path
        self.maximumLineBytes = maximumLineBytes
        do throws(SequentialFile.Failure) {
            file = try SequentialFile(path: path)  // `-`: stdin, never closed
        } catch {
            throw error.error(opening: true, path: path)
        }
        if path != "-" && file.isDirectory {
            throw DuneEventsError(.inputUnavailable, "'\(path)' is a directory; give an input file", location: .init(path: path))
        }
        lines = LineBuffer(capacity: max(1 << 20, maximumLineBytes + 1) + (1 << 20))
    }

    deinit {
        close()
    }

    /// Closes the file (never stdin). Idempotent.
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        file.close()
    }

    /// The next non-blank line, or `nil` at the end of the input.
    ///
    /// - Throws: `DuneEventsError` (`inputUnavailable`) when reading fails.
    /// - Complexity: amortized O(line length); memory is fixed at open.
    package func next() throws(DuneEventsError) -> Line? {
        while true {
            guard var line = try nextRaw() else { return nil }
            // A UTF-8 byte order mark at the very start of the input is not part of its first line.
            if line.number == 1, case .bytes(let bytes) = line.content, bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
                line.content = .bytes(UnsafeRawBufferPointer(rebasing: bytes.dropFirst(3)))
            }
            if case .bytes(let bytes) = line.content, bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            return line
        }
    }

    private func nextRaw() throws(DuneEventsError) -> Line? {
        var skipped: Int?  // length so far of an overlong line being skipped
        while true {
            if let line = lines.nextLine() {
                lineNumber += 1
                if let length = skipped {
                    return Line(number: lineNumber, content: .overlong(length + line.count))
                }
                if line.count > maximumLineBytes {
                    return Line(number: lineNumber, content: .overlong(line.count))
                }
                return Line(number: lineNumber, content: .bytes(trimCR(bytes(line))))
            }
            if atEOF {
                // The input's last line needs no `\n` (unlike the log's).
                guard lines.pendingCount > 0 || skipped != nil else { return nil }
                lineNumber += 1
                let rest = lines.takePending()
                if let skippedLength = skipped { return Line(number: lineNumber, content: .overlong(skippedLength + rest.count)) }
                if rest.count > maximumLineBytes { return Line(number: lineNumber, content: .overlong(rest.count)) }
                return Line(number: lineNumber, content: .bytes(trimCR(bytes(rest))))
            }
            // No newline pending: drop an overlong prefix (memory stays fixed), read more.
            if skipped != nil || lines.pendingCount > maximumLineBytes {
                skipped = (skipped ?? 0) + lines.pendingCount
                _ = lines.takePending()
            }
            try fill()
        }
    }

    private func fill() throws(DuneEventsError) {
        let file = self.file
        let count: Int
        do throws(SequentialFile.Failure) {
            count = try lines.refill(maximum: .max, growing: false) { (room, _) throws(SequentialFile.Failure) in
                guard let base = room.baseAddress else { return 0 }
                return try file.read(into: base, count: room.count)
            }
        } catch {
            throw error.error(opening: false, path: name)
        }
        if count == 0 { atEOF = true }
    }

    /// The bytes of `range` of the buffer; valid until the buffer is refilled.
    private func bytes(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: lines.base + range.lowerBound, count: range.count)
    }

    private func trimCR(_ line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        if let last = line.last, last == UInt8(ascii: "\r") { return UnsafeRawBufferPointer(rebasing: line.dropLast()) }
        return line
    }
}
