/// Which log file, and which line of it, a cache beside the log was taken at.
///
/// The caches (`<log>.checkpoint`, `<log>.snapshot`) are never trusted over
/// the log: each is used only while its stamp ``matches(_:size:)`` the log —
/// the same file (device and inode: a log replaced by a rewrite or restored
/// from a backup is another file), at least ``offset`` bytes long, with an
/// intact line ending exactly at ``offset`` whose seq is ``lastSeq`` and
/// whose stored CRC is ``lastLineCRC``.
package struct LogStamp: Sendable, Equatable {
    /// The log file's device and inode.
    package var identity: FileIdentity
    /// Byte offset just after the last line the cache covers.
    package var offset: Int
    /// The seq of that line.
    package var lastSeq: Int
    /// Its length without the `\n`.
    package var lastLineLength: Int
    /// The CRC stored in its trailer.
    package var lastLineCRC: UInt32

    package init(identity: FileIdentity, offset: Int, lastSeq: Int, lastLineLength: Int, lastLineCRC: UInt32) {
        self.identity = identity
        self.offset = offset
        self.lastSeq = lastSeq
        self.lastLineLength = lastLineLength
        self.lastLineCRC = lastLineCRC
    }

    /// The stamp of the end of `file` (`size` bytes, its last line the event
    /// `lastSeq`); `nil` when the last line is not that event or cannot be read.
    package static func atEnd(of file: LogFile, size: Int, lastSeq: Int) -> LogStamp? {
        guard size > 0, lastSeq > 0, let identity = try? file.identity else { return nil }
        var chunkEnd = size - 1  // the last line's `\n` is at size - 1
        var tail: [UInt8] = []
        // A line is a few hundred bytes: read 1 KiB first, more only for a longer one.
        var chunkLength = 1024
        while chunkEnd > 0 {
            let chunkStart = max(0, chunkEnd - chunkLength)
            chunkLength = min(chunkLength * 4, 64 * 1024)
            guard let chunk = try? file.bytes(upTo: chunkEnd - chunkStart, at: chunkStart),
                  chunk.count == chunkEnd - chunkStart
            else { return nil }
            tail = chunk + tail
            if chunk.contains(UInt8(ascii: "\n")) { break }
            chunkEnd = chunkStart
        }
        let line = Array(tail[(tail.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0)...])
        guard let crc = ByteView.with(line, { StoredLine.storedCRC(of: $0) }) else { return nil }
        let stamp = LogStamp(identity: identity, offset: size, lastSeq: lastSeq, lastLineLength: line.count, lastLineCRC: crc)
        // Stamp only what a later check will accept.
        guard stamp.matches(file, size: size) else { return nil }
        return stamp
    }

    /// Whether `file` (of `size` bytes) is the stamped file and the line
    /// ending at ``offset`` is the one the stamp recorded.
    package func matches(_ file: LogFile, size: Int) -> Bool {
        mismatch(file, size: size) == nil
    }

    /// Why the stamp does not match `file` (of `size` bytes), in words for a
    /// warning; `nil` when it matches.
    package func mismatch(_ file: LogFile, size: Int) -> String? {
        guard let current = try? file.identity else { return "the log's identity cannot be read" }
        guard current == identity else {
            return "it belongs to another log file (\(identity); the log is \(current))"
        }
        guard offset <= size, offset > lastLineLength else { return "the log is shorter than the \(offset) bytes it covers" }
        let start = offset - lastLineLength - 1
        let readStart = max(0, start - 1)
        let mismatch = "the log no longer has line seq \(lastSeq) ending at byte \(offset)"
        guard let bytes = try? file.bytes(upTo: offset - readStart, at: readStart), bytes.count == offset - readStart,
              bytes.last == UInt8(ascii: "\n")
        else { return mismatch }
        // The line must start a line: the byte before it is a newline (or it is the first line).
        if start > 0, bytes[0] != UInt8(ascii: "\n") { return mismatch }
        let line = Array(bytes[(start - readStart)..<(bytes.count - 1)])
        guard !line.contains(UInt8(ascii: "\n")) else { return mismatch }
        let intact = ByteView.with(line) { line in
            guard StoredLine.isIntact(line), StoredLine.storedCRC(of: line) == lastLineCRC,
                  let event = try? EventCodec.decode(line)
            else { return false }
            return event.seq == lastSeq
        }
        return intact ? nil : mismatch
    }

    // MARK: - Bytes

    package func write(to writer: inout BinaryWriter) {
        writer.uint64(identity.device)
        writer.uint64(identity.inode)
        writer.integer(offset)
        writer.integer(lastSeq)
        writer.integer(lastLineLength)
        writer.uint32(lastLineCRC)
    }

    package init?(from reader: inout BinaryReader) {
        guard let device = reader.uint64(), let inode = reader.uint64(), let offset = reader.integer(),
              let lastSeq = reader.integer(), let lastLineLength = reader.integer(), let lastLineCRC = reader.uint32(),
              offset > lastLineLength, lastLineLength > 0, lastSeq >= 1
        else { return nil }
        self.init(identity: FileIdentity(device: device, inode: inode), offset: offset, lastSeq: lastSeq,
                  lastLineLength: lastLineLength, lastLineCRC: lastLineCRC)
    }
}
