/// The deciders' state at a byte offset of the log, kept beside it in
/// `<log>.checkpoint` so that opening a large log for appending does not
/// replay it from the start.
///
/// The checkpoint is a cache, never trusted over the log: ``EventLog`` uses
/// it only when it is whole (its CRCs match) and agrees with the log — the log
/// is at least ``offset`` bytes long, and the line ending exactly at
/// ``offset`` is intact, has ``lastSeq`` and the stored CRC ``lastLineCRC``.
/// Otherwise the log is replayed from the start, as without a checkpoint. The
/// lines after ``offset`` are always replayed (and checked) on open.
///
/// What it gives up: the lines before ``offset`` are not re-read on open, so
/// damage to them is found by `dune-replay verify` (the full check) and by
/// every rebuild, not by opening the log for appends.
///
/// ## File format (version 1, little-endian)
///
/// ```
/// "DUNECKP1"                      8 bytes
/// version, 4 × section CRC-32     UInt32 each (CRCs of four equal parts of the payload)
/// payload length                  UInt64
/// payload:
///   offset, lastSeq, lastLineLength  UInt64 each
///   lastLineCRC                   UInt32
///   IngestState (see IngestState+Checkpoint.swift)
/// ```
struct LogCheckpoint {
    /// Byte offset just after the last line the state covers.
    var offset: Int
    /// The seq of that line.
    var lastSeq: Int
    /// Its length without the `\n`.
    var lastLineLength: Int
    /// The CRC stored in its trailer.
    var lastLineCRC: UInt32
    /// The deciders' state after that line.
    var state: IngestState

    static let magic: [UInt8] = Array("DUNECKP1".utf8)
    /// Bumped whenever the payload or ``ContentDigest`` changes
    /// (2: content digests spell timestamps canonically).
    static let version: UInt32 = 2
    static let headerLength = 8 + 4 + 16 + 8

    /// `<log>.checkpoint`.
    static func path(forLog logPath: String) -> String { logPath + ".checkpoint" }

    // MARK: - Encoding

    func encoded() -> [UInt8] {
        var payload = BinaryWriter()
        payload.integer(offset)
        payload.integer(lastSeq)
        payload.integer(lastLineLength)
        payload.uint32(lastLineCRC)
        state.write(to: &payload)
        var file = Self.magic
        var header = BinaryWriter()
        header.uint32(Self.version)
        let sections = Self.sectionCRCs(payload.bytes)
        for crc in [sections.0, sections.1, sections.2, sections.3] { header.uint32(crc) }
        header.integer(payload.bytes.count)
        file += header.bytes
        file += payload.bytes
        return file
    }

    /// A checkpoint read back from `bytes`; `nil` unless it is whole and of this version.
    static func decode(_ bytes: [UInt8]) -> LogCheckpoint? {
        guard bytes.count >= headerLength, Array(bytes.prefix(8)) == magic else { return nil }
        var header = BinaryReader(bytes, from: 8)
        guard header.uint32() == version else { return nil }
        let stored = (header.uint32(), header.uint32(), header.uint32(), header.uint32())
        guard let length = header.integer(), length == bytes.count - headerLength else { return nil }
        let payload = Array(bytes[headerLength...])
        let crcs = sectionCRCs(payload)
        guard crcs.0 == stored.0, crcs.1 == stored.1, crcs.2 == stored.2, crcs.3 == stored.3 else { return nil }
        var reader = BinaryReader(payload, from: 0)
        guard let offset = reader.integer(), let lastSeq = reader.integer(), let lastLineLength = reader.integer(),
              let lastLineCRC = reader.uint32(), let state = IngestState(from: &reader), reader.isAtEnd,
              offset > lastLineLength, lastSeq >= 1, state.lastSeq == lastSeq
        else { return nil }
        return LogCheckpoint(offset: offset, lastSeq: lastSeq, lastLineLength: lastLineLength, lastLineCRC: lastLineCRC, state: state)
    }

    /// The CRC-32 of each quarter of `payload`, computed together (`CRC32.checksums`).
    private static func sectionCRCs(_ payload: [UInt8]) -> (UInt32, UInt32, UInt32, UInt32) {
        payload.withUnsafeBytes { bytes in
            let quarter = bytes.count / 4
            return CRC32.checksums(UnsafeRawBufferPointer(rebasing: bytes[0..<quarter]),
                                   UnsafeRawBufferPointer(rebasing: bytes[quarter..<(2 * quarter)]),
                                   UnsafeRawBufferPointer(rebasing: bytes[(2 * quarter)..<(3 * quarter)]),
                                   UnsafeRawBufferPointer(rebasing: bytes[(3 * quarter)...]))
        }
    }

    // MARK: - Files

    /// The checkpoint beside `logPath`, or `nil` when there is none, it cannot
    /// be read whole, or it is larger than `maximumBytes` (a checkpoint is
    /// smaller than the log it covers; a larger file is not read at all).
    static func load(logPath: String, maximumBytes: Int = .max) -> LogCheckpoint? {
        let path = self.path(forLog: logPath)
        let descriptor: FileDescriptor
        do throws(Errno) {
            descriptor = try FileDescriptor.open(path, .readOnly)
        } catch {
            return nil
        }
        defer { try? descriptor.close() }
        guard let status = try? descriptor.status(), status.isRegularFile, status.size >= headerLength, status.size <= maximumBytes
        else { return nil }
        var bytes = [UInt8](repeating: 0, count: status.size)
        let complete = bytes.withUnsafeMutableBytes { buffer in
            (try? descriptor.readExactly(into: buffer, atOffset: 0)) != nil
        }
        return complete ? decode(bytes) : nil
    }

    /// Writes the checkpoint beside `logPath`: to a temporary file (mode 0600),
    /// then renamed over the old one, so a reader sees the old or the new one whole.
    /// Not fsynced: a checkpoint lost in a crash is only rebuilt.
    ///
    /// - Parameter protection: The Data Protection class of the new file.
    func write(logPath: String, protection: FileProtection = .default) throws(Errno) {
        let path = Self.path(forLog: logPath)
        let temporary = path + ".tmp-\(ProcessIdentity.current)"
        let descriptor = try FileSystem.createFile(temporary, access: .writeOnly, ifExists: .truncate, protection: protection)
        do throws(Errno) {
            try descriptor.setPermissions(0o600)
            let bytes = encoded()
            // Array.withUnsafeBytes only rethrows untyped errors; carry the typed one out.
            let written = bytes.withUnsafeBytes { buffer in
                Result { () throws(Errno) in try descriptor.writeAll(buffer) }
            }
            try written.get()
            try descriptor.close()
        } catch {
            try? descriptor.close()
            try? FileSystem.remove(temporary)
            throw error
        }
        do throws(Errno) {
            try FileSystem.rename(temporary, to: path)
        } catch {
            try? FileSystem.remove(temporary)
            throw error
        }
    }

    /// Removes the checkpoint beside `logPath`, if any.
    static func remove(logPath: String) {
        try? FileSystem.remove(path(forLog: logPath))
    }

    /// A checkpoint of `state` at the end of `file` (`size` bytes, ending with
    /// the line of `state.lastSeq`); `nil` when the last line is not that one.
    static func atEnd(of file: LogFile, size: Int, state: IngestState) -> LogCheckpoint? {
        guard size > 0, state.lastSeq > 0 else { return nil }
        var chunkEnd = size - 1  // the last line's `\n` is at size - 1
        var tail: [UInt8] = []
        while chunkEnd > 0 {
            let chunkStart = max(0, chunkEnd - 64 * 1024)
            var chunk = [UInt8](repeating: 0, count: chunkEnd - chunkStart)
            let complete = chunk.withUnsafeMutableBytes { buffer in
                (try? file.read(into: buffer, at: chunkStart)) == buffer.count
            }
            guard complete else { return nil }
            tail = chunk + tail
            if chunk.contains(UInt8(ascii: "\n")) { break }
            chunkEnd = chunkStart
        }
        let line = Array(tail[(tail.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0)...])
        let checkpoint = line.withUnsafeBytes { bytes -> LogCheckpoint? in
            guard let payload = StoredLine.payloadLength(of: bytes),
                  let crc = CRC32.parseHex(UnsafeRawBufferPointer(rebasing: bytes[(payload + 8)..<(payload + 16)]))
            else { return nil }
            return LogCheckpoint(offset: size, lastSeq: state.lastSeq, lastLineLength: bytes.count, lastLineCRC: crc, state: state)
        }
        // Write only what a later open will accept.
        guard let checkpoint, checkpoint.matches(file, size: size) else { return nil }
        return checkpoint
    }

    // MARK: - Checking against the log

    /// Whether the line ending at ``offset`` in `file` (of `size` bytes) is the
    /// one this checkpoint recorded.
    func matches(_ file: LogFile, size: Int) -> Bool {
        guard offset <= size, offset > lastLineLength else { return false }
        let start = offset - lastLineLength - 1
        let readStart = max(0, start - 1)
        var bytes = [UInt8](repeating: 0, count: offset - readStart)
        let complete = bytes.withUnsafeMutableBytes { buffer in
            var filled = 0
            while filled < buffer.count {
                guard let count = try? file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]), at: readStart + filled),
                      count > 0
                else { return false }
                filled += count
            }
            return true
        }
        guard complete, bytes.last == UInt8(ascii: "\n") else { return false }
        // The line must start a line: the byte before it is a newline (or it is the first line).
        if start > 0, bytes[0] != UInt8(ascii: "\n") { return false }
        let line = Array(bytes[(start - readStart)..<(bytes.count - 1)])
        guard !line.contains(UInt8(ascii: "\n")) else { return false }
        return line.withUnsafeBytes { line in
            guard StoredLine.isIntact(line), let payload = StoredLine.payloadLength(of: line),
                  CRC32.parseHex(UnsafeRawBufferPointer(rebasing: line[(payload + 8)..<(payload + 16)])) == lastLineCRC,
                  let event = try? EventCodec.decode(line)
            else { return false }
            return event.seq == lastSeq
        }
    }
}
