import DuneEvents

/// `<log>.snapshot`: the projections' state at a line of the log, so that an
/// app's store (and `report`) start without replaying the whole log.
///
/// A cache, never trusted over the log. It is used only when all of these
/// hold, and otherwise ignored with one warning and the log replayed in full:
/// - it is whole (header, length and CRCs, see `LogCacheFile`) and of this
///   format version;
/// - it was folded by the same code: its fold versions equal
///   ``ProjectionSnapshot/foldVersions``;
/// - it was built under the same event versions (``EventVersions/stamp``:
///   the events it holds were upcast to the same shapes);
/// - it belongs to this log file (device and inode) and the log still has the
///   line it ends at (offset, seq and CRC, see `LogStamp`).
///
/// A snapshot never changes a result: the state it restores plus the events
/// after it read exactly as a replay from the start. It is written atomically
/// (a temporary file made durable, then renamed), mode 0600, only by a
/// process that holds the writer lock — a process killed while writing one
/// leaves the previous snapshot or none.
///
/// **Replaced only by rename, never rewritten in place.** Readers map the
/// file (``MappedFile``); a mapped page whose file was truncated or
/// rewritten under it would fault (SIGBUS). Renaming a new file over the
/// path leaves the inode a reader mapped whole until it unmaps it. Nothing
/// in the library opens a snapshot for writing: the only writes go to a new
/// temporary file (`AtomicFile`), and damage found later only removes the path.
///
/// ## Layout (format version 6, little-endian)
///
/// ```
/// "DUNESNP1"                          magic, 8 bytes
/// format version, section count       UInt32 each (5 sections)
/// per section: length, check          UInt64, CacheChecksum (32 bytes)
/// header check                        CacheChecksum of the bytes above
/// section 0, meta:
///   fold versions                     4 × UInt32, in ProjectionName order
///   event versions                    EventVersions.stamp, length-prefixed UTF-8
///   LogStamp                          the log file and the line it ends at
///   ProjectionSnapshot meta           counts, per-source counts, profile, sync status, app parts
/// section 1, stage                    the daily stage (DailyStage+Snapshot.swift)
/// section 2, tables                   the rows' sources and the samples kept whole
/// section 3, rows                     64 bytes per current sample (PackedSample)
/// section 4, index                    the id index's slots, 8 bytes each
/// ```
///
/// Reading maps the file and checks each section on its own, when it is
/// used: the header, the meta and the stage at the open — the first state
/// is computed from the stage, so a widget that only reads the state never
/// touches the other sections' pages; the tables and rows when the samples
/// are first needed (a fold, a query, a lookup); the id index when a fold
/// or a lookup by id first needs it. Damage found at the open makes the
/// snapshot ignored with a warning; damage found later, once a state was
/// published, ends the store's observations with an error (`LogFollower`),
/// and nothing wrong is ever published.
///
/// Writing streams: the checks are computed over the memory that holds the
/// rows (in runs: a restored snapshot's rows as they are in its mapping,
/// without the ones replaced or deleted since, then those folded after
/// them, see `SampleStore.compactSnapshotSamples()`) and the slots (a
/// store's own, or renumbered a piece at a time), then the header and the
/// sections are written one after the other to the temporary file
/// (``withParts(_:at:foldVersions:eventVersions:_:)``); no joined copy of
/// the file, and no second copy of the rows or the index, is built in memory.
package enum SnapshotFile {
    static let magic = "DUNESNP1"

    /// `<log>.snapshot`.
    package static func path(forLog logPath: String) -> String { logPath + ".snapshot" }

    /// What ``load(logPath:)`` found.
    package enum Loaded: Sendable {
        /// A snapshot that matches the log, and its stamp.
        case usable(ProjectionSnapshot, LogStamp)
        /// No snapshot file.
        case missing
        /// A snapshot that must not be used, and why, as one warning line.
        case ignored(warning: String)
    }

    /// The number of sections.
    static let sectionCount = 5

    /// The header's length: magic, version, count, the sections' lengths and checks, its own check.
    static let headerLength = 16 + sectionCount * 40 + 32

    /// The snapshot beside `logPath`, checked against the log.
    ///
    /// The file is mapped, not read: the header, the small values and the
    /// daily stage are checked and taken now; the samples and the id index
    /// are left in the mapping until they are first needed (``SnapshotSamples``, ``SnapshotIndex``).
    /// - Complexity: O(d) for d days with a sample; the log is read only at the stamped line.
    package static func load(logPath: String) -> Loaded {
        let path = path(forLog: logPath)
        guard LogCacheFile.exists(path) else { return .missing }
        func ignored(_ reason: String) -> Loaded {
            .ignored(warning: "warning: \(path): not used (\(reason)); the log is replayed in full")
        }
        guard let log = try? LogFile.openForReading(path: logPath), let logSize = try? log.size else {
            return ignored("the log cannot be read")
        }
        defer { try? log.close() }
        // A snapshot is smaller than the log it covers (a row and a slot or two per current sample, a line per event).
        guard let file = MappedFile(path, maximumBytes: logSize + (1 << 20)) else {
            return ignored("it cannot be read, or it is larger than the log it covers")
        }
        switch read(file, stampMismatch: { $0.mismatch(log, size: logSize) }) {
        case .success(let (snapshot, stamp)): return .usable(snapshot, stamp)
        case .failure(let refusal): return ignored(refusal.reason)
        }
    }

    /// Why a snapshot file was not used, in words for a warning.
    struct Refusal: Error {
        var reason: String
    }

    /// The snapshot in `file`, when it is whole, of this format and fold
    /// versions, and `stampMismatch` finds nothing wrong with its stamp.
    static func read(_ file: MappedFile, stampMismatch: (LogStamp) -> String?)
        -> Result<(ProjectionSnapshot, LogStamp), Refusal> {
        func ignored(_ reason: String) -> Result<(ProjectionSnapshot, LogStamp), Refusal> { .failure(Refusal(reason: reason)) }
        let damaged = ignored("\(LogCacheFile.Refusal.damaged)")
        let sections: [(length: Int, check: CacheChecksum)]
        switch readHeader(file) {
        case .success(let found): sections = found
        case .failure(let refusal): return ignored("\(refusal)")
        }
        var offset = headerLength
        guard let metaBytes = file.bytes(sections[0].length, at: offset), CacheChecksum(metaBytes) == sections[0].check else {
            return damaged
        }
        offset += sections[0].length
        var reader = BinaryReader(metaBytes.copied, from: 0)
        var versions: [UInt32] = []
        for _ in ProjectionName.allCases {
            guard let version = reader.uint32() else { return damaged }
            versions.append(version)
        }
        let current = ProjectionSnapshot.foldVersions
        if versions != current {
            let stale = zip(ProjectionName.allCases, zip(versions, current)).filter { $0.1.0 != $0.1.1 }
                .map { "\($0.0.cliName) \($0.1.0) → \($0.1.1)" }
            return ignored("it is stale: the folds changed since it was written (fold version \(stale.joined(separator: ", ")))")
        }
        guard let eventVersions = reader.string() else { return damaged }
        if eventVersions != EventVersions.stamp {
            return ignored("it was built under other event versions (\(eventVersions); this build reads \(EventVersions.stamp))")
        }
        guard let stamp = LogStamp(from: &reader) else { return damaged }
        if let mismatch = stampMismatch(stamp) { return ignored(mismatch) }
        guard let meta = ProjectionSnapshot.readMeta(from: &reader), reader.isAtEnd, meta.throughSeq == stamp.lastSeq,
              let stageBytes = file.bytes(sections[1].length, at: offset), CacheChecksum(stageBytes) == sections[1].check,
              case var stageReader = BinaryReader(stageBytes.copied, from: 0),
              let stage = DailyStage(snapshot: &stageReader), stageReader.isAtEnd,
              // Divided, not multiplied: counts from a crafted file must not overflow.
              sections[3].length % 64 == 0, sections[3].length / 64 == meta.rowCount,
              sections[4].length % 8 == 0, sections[4].length / 8 == meta.indexCapacity
        else { return damaged }
        offset += sections[1].length
        let tables = (offset: offset, length: sections[2].length, check: sections[2].check)
        offset += sections[2].length
        let samples = MappedSamples(file: file, tables: tables, rows: (offset, sections[3].check), rowCount: meta.rowCount,
                                    throughSeq: meta.throughSeq)
        offset += sections[3].length
        let index = MappedIndex(file: file, offset: offset, capacity: meta.indexCapacity, count: meta.rowCount, check: sections[4].check)
        return .success((ProjectionSnapshot(throughSeq: meta.throughSeq, samples: .mapped(samples), index: .mapped(index), stage: stage,
                                            sourceCounts: meta.sourceCounts, profileSleepTargetMinutes: meta.profileSleepTargetMinutes,
                                            profileSeq: meta.profileSeq, syncStatus: meta.syncStatus, appParts: meta.appParts), stamp))
    }

    /// The sections' lengths and checks, when `file` starts with a whole
    /// header of this format version whose lengths add up to its size.
    private static func readHeader(_ file: MappedFile) -> Result<[(length: Int, check: CacheChecksum)], LogCacheFile.Refusal> {
        guard let start = file.bytes(16, at: 0), Array(start.prefix(8)) == Array(magic.utf8) else {
            return .failure(.notACache)
        }
        var reader = BinaryReader(start.copied, from: 8)
        guard let version = reader.uint32() else { return .failure(.notACache) }
        guard version == ProjectionSnapshot.formatVersion else { return .failure(.otherVersion(version)) }
        guard let view = file.bytes(headerLength, at: 0), case let header = view.copied,
              CacheChecksum(header[..<(headerLength - 32)])
                == { var tail = BinaryReader(header, from: headerLength - 32); return CacheChecksum(from: &tail) }()
        else { return .failure(.damaged) }
        reader = BinaryReader(header, from: 12)
        guard reader.uint32() == UInt32(sectionCount) else { return .failure(.damaged) }
        var sections: [(length: Int, check: CacheChecksum)] = []
        var total = headerLength
        for _ in 0..<sectionCount {
            guard let length = reader.integer(), length >= 0, length <= file.bytes.count, let check = CacheChecksum(from: &reader) else {
                return .failure(.damaged)
            }
            sections.append((length, check))
            total += length
        }
        guard total == file.bytes.count else { return .failure(.damaged) }
        return .success(sections)
    }

    /// Calls `body` with the parts of `<log>.snapshot` for `snapshot`, taken
    /// at `stamp`, in file order — the header (with each section's check) and
    /// the first four sections — and the last section, the index slots, made
    /// piece by piece as it is written. The rows and the slots are views of
    /// the memory or the mapped file that holds them (a renumbered index is
    /// made a piece at a time, once for its check and once as it is written),
    /// so writing the parts one after the other streams the file: no second
    /// copy of them is ever built.
    /// (`foldVersions` other than the running code's only in tests of stale snapshots.)
    /// - Returns: What `body` returned; `nil`, without calling it, when
    ///   `snapshot` holds the samples of a mapped snapshot that fail their
    ///   check (an engine's ``ReadModelEngine/snapshot`` never does).
    static func withParts<Result>(_ snapshot: ProjectionSnapshot, at stamp: LogStamp,
                                  foldVersions: [UInt32] = ProjectionSnapshot.foldVersions,
                                  eventVersions: String = EventVersions.stamp,
                                  _ body: (_ parts: [ByteView], _ index: AtomicFile.StreamedBytes) -> Result) -> Result? {
        guard let samples = snapshot.samples.writable() else { return nil }
        var meta = BinaryWriter()
        for version in foldVersions { meta.uint32(version) }
        meta.string(eventVersions)
        stamp.write(to: &meta)
        snapshot.writeMeta(to: &meta)
        var stage = BinaryWriter()
        snapshot.stage.write(to: &stage)
        var tables = BinaryWriter()
        ProjectionSnapshot.writeTables(sources: samples.sources, fullSamples: samples.fullSamples, to: &tables)
        return ByteView.with(meta.bytes) { meta in
            ByteView.with(stage.bytes) { stage in
                ByteView.with(tables.bytes) { tables in
                    withRowBytes(samples.rows) { rows in
                        let index = snapshot.index
                        var indexCheck = CacheChecksum.Accumulator()
                        var indexLength = 0
                        index.forEachSlotPiece { piece in
                            indexCheck.add(piece)
                            indexLength += piece.count
                        }
                        // Each section is one part, but the rows, which may be several, and the index, streamed.
                        let sections = [[meta], [stage], [tables], rows]
                        var header = BinaryWriter()
                        header.uint32(ProjectionSnapshot.formatVersion)
                        header.uint32(UInt32(sections.count + 1))
                        for parts in sections {
                            header.integer(parts.reduce(0) { $0 + $1.count })
                            CacheChecksum(parts: parts).write(to: &header)
                        }
                        header.integer(indexLength)
                        indexCheck.checksum.write(to: &header)
                        var start = Array(magic.utf8) + header.bytes
                        CacheChecksum(start).write(to: &header)
                        start = Array(magic.utf8) + header.bytes
                        return ByteView.with(start) { body([$0] + sections.joined(), index.forEachSlotPiece) }
                    }
                }
            }
        }
    }

    /// Calls `body` with the snapshot bytes of the rows of `runs`, in order:
    /// views of the memory or the mapped file that holds each run where a
    /// row's layout is its file layout, else one converted copy.
    private static func withRowBytes<Result>(_ runs: RowRuns, _ body: ([ByteView]) -> Result) -> Result {
        guard PackedSample.hasSnapshotLayout else {
            var writer = BinaryWriter()
            let sets = runs.sets
            for run in runs.runs {
                for row in run.rows { sets[run.set][row].writeSnapshotBytes(to: &writer) }
            }
            return ByteView.with(writer.bytes) { body([$0]) }
        }
        let stride = PackedSample.byteCount
        let sets = runs.sets
        // One view per set (two), then a view of each run within its set's.
        func withSetBytes(_ done: [ByteView]) -> Result {
            guard done.count < sets.count else {
                return body(runs.runs.map { done[$0.set].subview(($0.rows.lowerBound * stride)..<($0.rows.upperBound * stride)) })
            }
            return sets[done.count].withMemoryBytes { withSetBytes(done + [$0]) }
        }
        return withSetBytes([])
    }

    /// Writes `snapshot`, taken at `stamp`, beside `logPath`, replacing any
    /// older one atomically.
    ///
    /// The caller must hold the log's writer lock, so that no other process
    /// replaces the snapshot or the log meanwhile.
    /// - Parameter fileSystem: Where the files are written (the real file
    ///   system unless a test records the calls).
    /// - Throws: `DuneEventsError` `.io` when it cannot be written (the old one is then unchanged).
    package static func write(_ snapshot: ProjectionSnapshot, at stamp: LogStamp, logPath: String,
                              protection: FileProtection = .default,
                              fileSystem: FileSystemWitness = .system) throws(DuneEventsError) {
        removeStaleTemporaries(logPath: logPath)
        let destination = path(forLog: logPath)
        guard let written = withParts(snapshot, at: stamp, { parts, index in
            Result { () throws(DuneEventsError) in
                try AtomicFile.write(parts: parts, then: index, to: destination, protection: protection, fileSystem: fileSystem)
            }
        }) else { throw unreadableSamples(destination) }
        try written.get()
    }

    /// Removes the temporary snapshots (`<log>.snapshot.tmp-<pid>`) a process
    /// killed while writing one left: they hold health data, and only a
    /// process holding the writer lock writes snapshots, so none is being
    /// written now.
    package static func removeStaleTemporaries(logPath: String) {
        LogCacheFile.removeTemporaries(of: path(forLog: logPath))
    }

    /// The error that ends a store (or a command) whose snapshot beside
    /// `logPath` was found damaged in a section read after its state was
    /// published (``ReadModelEngine/snapshotIsDamaged``): its samples or its id index.
    package static func damageError(logPath: String) -> DuneEventsError {
        DuneEventsError(.corruptLog, "\(path(forLog: logPath)): a section read after the open (the samples or the id index) failed its check; "
                        + "the snapshot (a cache) is removed by the next read-write store that meets it, and the log is then replayed", location: .init(path: path(forLog: logPath)))
    }

    /// The error of a write given a snapshot whose samples could not be read (see ``withParts(_:at:foldVersions:eventVersions:_:)``).
    private static func unreadableSamples(_ destination: String) -> DuneEventsError {
        DuneEventsError(.corruptLog, "\(destination): not written: the samples of the snapshot it was to be made from failed their check",
                        location: .init(path: destination))
    }

    /// Removes the snapshot beside `logPath`, if any.
    package static func remove(logPath: String) {
        LogCacheFile.remove(path(forLog: logPath))
    }
}

extension SnapshotFile {
    /// Writes the snapshot of an engine `fold` (a store's, or a command's that replayed the whole log), which ends at the log line
    /// `stamp` names, when no other process holds the log's writer lock and
    /// the log still ends there; does nothing otherwise.
    ///
    /// The snapshot is built and written to a temporary file without the
    /// lock; the lock is held only to check the log and rename the file into
    /// place, so that an app suspended meanwhile holds no lock for long.
    ///
    /// - Returns: Whether a snapshot was written.
    /// - Throws: `DuneEventsError` `.io` when it could not be written.
    package static func writeIfLockFree(_ fold: ReadModelEngine, at stamp: LogStamp, logPath: String,
                                        protection: FileProtection) throws(DuneEventsError) -> Bool {
        let destination = path(forLog: logPath)
        guard let snapshot = fold.snapshot, let preparing = withParts(snapshot, at: stamp, { parts, index in
            Result { () throws(DuneEventsError) in try AtomicFile.prepare(parts: parts, then: index, for: destination, protection: protection) }
        }) else { return false }
        let prepared = try preparing.get()
        var committed = false
        defer { if !committed { prepared.discard() } }
        let log = try LogFile.openForAppend(path: logPath, create: false, lock: .deferred, protection: protection)
        defer { try? log.close() }
        guard try log.tryLock() else { return false }
        defer { log.unlock() }
        guard try log.size == stamp.offset, stamp.matches(log, size: stamp.offset) else { return false }
        try prepared.commit()
        committed = true
        // Still under the lock, with this one renamed into place: what a killed writer left.
        removeStaleTemporaries(logPath: logPath)
        return true
    }
}
