import Synchronization

/// `<log>.synced`: the last length of the log known to be durably synced,
/// kept beside it so that the next writer can tell a crash artifact (bytes
/// past that length: never acknowledged, safe to move aside) from damage to
/// acknowledged lines (refused); docs/log-format.md, "Torn tails".
///
/// After each durable sync of an append the writer overwrites the record in
/// place, without syncing it: a crash may leave an older value, and every
/// value it ever held was synced when written, so a stale value is only ever
/// smaller (bytes between it and the true synced length are then checked as
/// if unsynced, which errs towards letting the next writer go on). When the
/// log shrinks below the recorded length (a rolled-back batch), the record is
/// lowered and synced first.
///
/// The record names the line it ends at, not the file's inode, so it stays
/// valid in a copy of the directory:
///
/// ```
/// "DUNESYN1"        8 bytes
/// length            UInt64, little-endian: bytes [0, length) were synced
/// line CRC          UInt32: the stored `crc` of the line ending at length (0 when length is 0)
/// record CRC        UInt32: CRC-32 of the 20 bytes before it
/// ```
///
/// The record applies only when the log still has that line, intact, ending
/// exactly at that length. Otherwise (no record, a damaged one, or one of a
/// log `forget` replaced) nothing is known, and every complete line counts as
/// synced: only an unterminated tail is a crash artifact.
enum SyncedLengthRecord {
    /// `<log>.synced`.
    static func path(forLog logPath: String) -> String { logPath + ".synced" }

    static let magic = Array("DUNESYN1".utf8)
    /// The record's size: well inside one 512-byte sector, so a write of it is never torn.
    static let byteCount = 24

    /// The record of `length` bytes whose last line's stored CRC is `lineCRC`.
    static func encode(length: Int, lineCRC: UInt32) -> [UInt8] {
        var writer = BinaryWriter()
        writer.bytes = magic
        writer.integer(length)
        writer.uint32(lineCRC)
        let crc = CRC32.checksum(writer.bytes)
        writer.uint32(crc)
        return writer.bytes
    }

    /// The length and line CRC of a whole record; `nil` for anything else.
    static func decode(_ bytes: [UInt8]) -> (length: Int, lineCRC: UInt32)? {
        guard bytes.count >= byteCount, Array(bytes.prefix(8)) == magic else { return nil }
        let body = Array(bytes.prefix(byteCount - 4))
        var reader = BinaryReader(bytes, from: 8)
        guard let length = reader.integer(), let lineCRC = reader.uint32(), let crc = reader.uint32(),
              crc == CRC32.checksum(body), length >= 0
        else { return nil }
        return (length, lineCRC)
    }

    /// The writer's open record.
    struct State {
        /// `<log>.synced`, open for writing; `nil` before ``LogFile/openSyncedRecord(_:size:)`` and after close.
        var descriptor: FileDescriptor?
        /// The length last written into it.
        var recorded = 0
    }
}

extension LogFile {
    // MARK: - Reading

    /// The synced length `<log>.synced` records for this log, when the log
    /// still has the line it names, intact and ending there; `nil` when
    /// there is no such record.
    func recordedSyncedLength(_ descriptor: FileDescriptor, size: Int) -> Int? {
        guard let bytes = LogCacheFile.read(SyncedLengthRecord.path(forLog: path), maximumBytes: 4096),
              let record = SyncedLengthRecord.decode(bytes), record.length <= size
        else { return nil }
        if record.length == 0 { return 0 }
        guard let crc = storedCRC(ofLineEndingAt: record.length, descriptor), crc == record.lineCRC else { return nil }
        return record.length
    }

    /// The stored CRC of the intact line whose `\n` is the byte before
    /// `end`; `nil` when there is no such intact line.
    func storedCRC(ofLineEndingAt end: Int, _ descriptor: FileDescriptor) -> UInt32? {
        guard end > 0 else { return nil }
        // A few KiB hold the line almost always; read more only for a longer one.
        var window = 4096
        while true {
            let start = max(0, end - window)
            var bytes = [UInt8](repeating: 0, count: end - start)
            let complete = (try? descriptor.readExactly(into: &bytes, atOffset: start)) != nil
            guard complete, bytes.last == UInt8(ascii: "\n") else { return nil }
            bytes.removeLast()
            let lineStart: Int
            if let newline = bytes.lastIndex(of: UInt8(ascii: "\n")) {
                lineStart = newline + 1
            } else if start == 0 {
                lineStart = 0
            } else if window < Self.maximumRecordedLineBytes {
                window *= 4
                continue
            } else {
                return nil
            }
            let line = Array(bytes[lineStart...])
            return ByteView.with(line) { line in StoredLine.isIntact(line) ? StoredLine.storedCRC(of: line) : nil }
        }
    }

    /// The longest line a synced-length record is checked against (longer
    /// last lines leave the record unused: every complete line then counts
    /// as synced).
    static let maximumRecordedLineBytes = 1 << 20

    // MARK: - Writing

    /// Opens `<log>.synced` for the writer once the end of the log is
    /// recovered (`size` bytes, every complete line of which is now to be
    /// treated as synced). When the record is missing or names another
    /// state of the log, the log is synced and a new record of `size` is
    /// made durable (file and directory) before any append can follow.
    ///
    /// - Parameter recorded: What ``recordedSyncedLength(_:size:)`` found.
    func openSyncedRecord(_ log: FileDescriptor, size: Int, recorded: Int?) throws(Errno) {
        let recordPath = SyncedLengthRecord.path(forLog: path)
        let descriptor: FileDescriptor
        if let recorded {
            descriptor = try FileDescriptor.open(recordPath, .writeOnly, fileSystem: fileSystem)
            syncedRecord.withLock { state in
                state.descriptor = descriptor
                state.recorded = recorded
            }
            return
        }
        try log.sync()
        let created = ((try? FileSystem.status(ofPath: recordPath)) ?? nil) == nil
        descriptor = try FileSystem.createFile(recordPath, access: .writeOnly, ifExists: .truncate, protection: protection,
                                               fileSystem: fileSystem)
        do throws(Errno) {
            try descriptor.writeAll(record(length: size, log), atOffset: 0)
            try descriptor.sync()
            if created { try FileSystem.syncDirectory(FileSystem.parentDirectory(of: recordPath), fileSystem: fileSystem) }
        } catch {
            try? descriptor.close()
            throw error
        }
        syncedRecord.withLock { state in
            state.descriptor = descriptor
            state.recorded = size
        }
    }

    /// The record bytes for `length` bytes of `log`.
    private func record(length: Int, _ log: FileDescriptor) -> [UInt8] {
        SyncedLengthRecord.encode(length: length, lineCRC: length == 0 ? 0 : storedCRC(ofLineEndingAt: length, log) ?? 0)
    }

    /// Notes, after a durable sync, that the first `length` bytes are on
    /// stable storage: overwrites the record in place, not synced. Best
    /// effort: a failed write leaves an older, smaller value.
    func noteSynced(length: Int, _ log: FileDescriptor) {
        syncedRecord.withLock { state in
            guard let record = state.descriptor, length > state.recorded else { return }
            let bytes = self.record(length: length, log)
            if (try? record.writeAll(bytes, atOffset: 0)) != nil {
                state.recorded = length
            }
        }
    }

    /// Before the log shrinks to `size`: a record claiming more is lowered
    /// to `size` and synced, so that it never claims bytes about to be replaced.
    func lowerSyncedRecord(to size: Int, _ log: FileDescriptor) throws(Errno) {
        try syncedRecord.withLock { (state: inout SyncedLengthRecord.State) throws(Errno) in
            guard let record = state.descriptor, state.recorded > size else { return }
            let bytes = self.record(length: size, log)
            try record.writeAll(bytes, atOffset: 0)
            try record.sync()
            state.recorded = size
        }
    }

    /// After `forget` put a new, fully synced log of `size` bytes at the
    /// path: a durable record of it, before anything is appended.
    func resetSyncedRecord(size: Int) throws(DuneEventsError) {
        closeSyncedRecord()
        try withDescriptor(.sync) { log throws(DuneEventsError) in
            do throws(Errno) {
                try openSyncedRecord(log, size: size, recorded: nil)
            } catch {
                throw DuneEventsError(error, during: .write, path: SyncedLengthRecord.path(forLog: path))
            }
        }
    }

    /// Closes the record, if open.
    func closeSyncedRecord() {
        syncedRecord.withLock { state in
            try? state.descriptor?.close()
            state.descriptor = nil
        }
    }
}
