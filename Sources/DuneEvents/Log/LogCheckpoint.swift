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
/// ## File format (little-endian)
///
/// ```
/// "DUNECKP1", version, CRCs, length   the header of every cache (LogCacheFile)
/// payload:
///   LogStamp                          the log file's identity and the line the state ends at
///   IngestState                       see IngestState+Checkpoint.swift
/// ```
struct LogCheckpoint {
    /// The log file and the line the state ends at.
    var stamp: LogStamp
    /// The deciders' state after that line.
    var state: IngestState

    /// Byte offset just after the last line the state covers.
    var offset: Int { stamp.offset }
    /// The seq of that line.
    var lastSeq: Int { stamp.lastSeq }

    static let magic = "DUNECKP1"
    /// Bumped whenever the payload or ``ContentDigest`` changes (2: content
    /// digests spell timestamps canonically; the stamp holds the log's identity;
    /// 3: the ids of forgotten samples; 4: an hrv sample's content holds its
    /// measure, and the payload starts with the event versions it was built
    /// under, ``EventVersions/stamp``: a checkpoint of other versions is not used;
    /// 5: content digests spell timestamps at the canonical precision, the
    /// microsecond, so a nine-digit fraction digests as its rounded instant;
    /// a corrected sample's current version follows its versions, for a
    /// correction back to an older one; 6: a sample's first content digest
    /// may be deferred — flag 2 beside `live`, the digest's place holding the
    /// seq of the event that stored it, see IngestState+Deferred.swift — so
    /// a version-5 file is ignored and rebuilt like any stale cache).
    static let version: UInt32 = 6

    /// `<log>.checkpoint`.
    static func path(forLog logPath: String) -> String { logPath + ".checkpoint" }

    // MARK: - Encoding

    func encoded() -> [UInt8] {
        let payload = encodedPayload()
        return LogCacheFile.frame(payload, magic: Self.magic, version: Self.version)
    }

    /// The payload ``encoded()`` frames.
    private func encodedPayload() -> [UInt8] {
        var payload = BinaryWriter()
        payload.string(EventVersions.stamp)
        stamp.write(to: &payload)
        state.write(to: &payload)
        return payload.bytes
    }

    /// The bytes of ``encodedPayload()``, handed to `body` in order a piece
    /// of about `chunkBytes` at a time, without the whole payload in memory.
    private func encodePayload(chunkBytes: Int, _ body: ([UInt8]) -> Void) {
        var writer = BinaryWriter()
        writer.bytes.reserveCapacity(2 * chunkBytes)
        func emit(_ writer: inout BinaryWriter) {
            body(writer.bytes)
            writer.bytes.removeAll(keepingCapacity: true)
        }
        writer.string(EventVersions.stamp)
        stamp.write(to: &writer)
        state.write(to: &writer, chunkBytes: chunkBytes, emit: emit)
        emit(&writer)
    }

    /// A checkpoint read back from `bytes`; `nil` unless it is whole and of this version.
    static func decode(_ bytes: [UInt8]) -> LogCheckpoint? {
        guard case .success(let payload) = LogCacheFile.unframe(bytes, magic: magic, version: version) else { return nil }
        var reader = BinaryReader(payload, from: 0)
        guard reader.string() == EventVersions.stamp,
              let stamp = LogStamp(from: &reader), let state = IngestState(from: &reader), reader.isAtEnd,
              state.lastSeq == stamp.lastSeq
        else { return nil }
        return LogCheckpoint(stamp: stamp, state: state)
    }

    // MARK: - Files

    /// The checkpoint beside `logPath`, or `nil` when there is none, it cannot
    /// be read whole, or it is larger than `maximumBytes` (a checkpoint is
    /// smaller than the log it covers; a larger file is not read at all).
    static func load(logPath: String, maximumBytes: Int = .max) -> LogCheckpoint? {
        LogCacheFile.read(path(forLog: logPath), maximumBytes: maximumBytes).flatMap(decode)
    }

    /// Writes the checkpoint beside `logPath`: to a temporary file (mode 0600),
    /// then renamed over the old one, so a reader sees the old or the new one whole.
    /// Not fsynced: a checkpoint lost in a crash is only rebuilt.
    ///
    /// The file holds the bytes of ``encoded()``, but the payload is never in
    /// memory whole (it is most of a large log's state again: 44 MB for 1.2M
    /// events): it is encoded twice, a piece of `chunkBytes` at a time — once
    /// for its length, then into the file after a blank header, its section
    /// CRCs computed as the pieces go; the header is written last, in place.
    ///
    /// - Parameters:
    ///   - protection: The Data Protection class of the new file.
    ///   - fileSystem: Where the files are written.
    func write(logPath: String, protection: FileProtection = .default, chunkBytes: Int = 1 << 20,
               fileSystem: FileSystemWitness = .system) throws(Errno) {
        let path = Self.path(forLog: logPath)
        let temporary = path + ".tmp-\(ProcessIdentity.current)"
        var length = 0
        encodePayload(chunkBytes: chunkBytes) { length += $0.count }
        var sections = LogCacheFile.SectionCRCs(payloadLength: length)
        let descriptor = try FileSystem.createFile(temporary, access: .writeOnly, ifExists: .truncate, protection: protection,
                                                   fileSystem: fileSystem)
        do throws(Errno) {
            try descriptor.setPermissions(0o600)
            try descriptor.writeAll([UInt8](repeating: 0, count: LogCacheFile.headerLength))
            var failure: Errno?
            encodePayload(chunkBytes: chunkBytes) { buffer in
                guard failure == nil else { return }
                ByteView.with(buffer) { sections.update($0) }
                do throws(Errno) {
                    try descriptor.writeAll(buffer)
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
            // The state is not changed while it is written (it is a value); a
            // different length would mean a CRC over other bytes: keep no such file.
            guard sections.isComplete else { throw Errno.ioError }
            try descriptor.writeAll(LogCacheFile.header(length: length, sectionCRCs: sections.crcs, magic: Self.magic, version: Self.version),
                                    atOffset: 0)
            try descriptor.close()
        } catch {
            try? descriptor.close()
            try? FileSystem.remove(temporary, fileSystem: fileSystem)
            throw error
        }
        do throws(Errno) {
            try FileSystem.rename(temporary, to: path, fileSystem: fileSystem)
        } catch {
            try? FileSystem.remove(temporary, fileSystem: fileSystem)
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
        LogStamp.atEnd(of: file, size: size, lastSeq: state.lastSeq).map { LogCheckpoint(stamp: $0, state: state) }
    }

    /// Whether the checkpoint was taken of `file` (of `size` bytes) at a line it still has.
    func matches(_ file: LogFile, size: Int) -> Bool {
        stamp.matches(file, size: size)
    }
}
