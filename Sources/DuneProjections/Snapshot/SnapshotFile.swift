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
/// - it belongs to this log file (device and inode) and the log still has the
///   line it ends at (offset, seq and CRC, see `LogStamp`).
///
/// A snapshot never changes a result: the state it restores plus the events
/// after it read exactly as a replay from the start. It is written atomically
/// (a temporary file made durable, then renamed), mode 0600, only by a
/// process that holds the writer lock — a process killed while writing one
/// leaves the previous snapshot or none.
///
/// ```
/// "DUNESNP1", version, CRCs, length     the header of every cache
/// payload:
///   fold versions                       4 × UInt32, in ProjectionName order
///   LogStamp                            the log file and the line it ends at
///   ProjectionSnapshot                  see ProjectionSnapshot.swift
/// ```
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

    /// The snapshot beside `logPath`, checked against the log.
    ///
    /// - Complexity: O(n) in the snapshot's size; the log is read only at the stamped line.
    package static func load(logPath: String) -> Loaded {
        let path = path(forLog: logPath)
        guard LogCacheFile.exists(path) else { return .missing }
        func ignored(_ reason: String) -> Loaded {
            .ignored(warning: "warning: \(path): not used (\(reason)); the log is replayed in full")
        }
        guard let log = try? LogFile.openForReading(path: logPath), let size = try? log.size else {
            return ignored("the log cannot be read")
        }
        defer { try? log.close() }
        // A snapshot is smaller than the log it covers (a row per current sample, a line per event).
        guard let bytes = LogCacheFile.read(path, maximumBytes: size + (1 << 20)) else {
            return ignored("it cannot be read, or it is larger than the log it covers")
        }
        let payload: [UInt8]
        switch LogCacheFile.unframe(bytes, magic: magic, version: ProjectionSnapshot.formatVersion) {
        case .success(let bytes): payload = bytes
        case .failure(let refusal): return ignored("\(refusal)")
        }
        var reader = BinaryReader(payload, from: 0)
        var versions: [UInt32] = []
        for _ in ProjectionName.allCases {
            guard let version = reader.uint32() else { return ignored("\(LogCacheFile.Refusal.damaged)") }
            versions.append(version)
        }
        let current = ProjectionSnapshot.foldVersions
        if versions != current {
            let stale = zip(ProjectionName.allCases, zip(versions, current)).filter { $0.1.0 != $0.1.1 }
                .map { "\($0.0.cliName) \($0.1.0) → \($0.1.1)" }
            return ignored("it is stale: the folds changed since it was written (fold version \(stale.joined(separator: ", ")))")
        }
        guard let stamp = LogStamp(from: &reader) else { return ignored("\(LogCacheFile.Refusal.damaged)") }
        if let mismatch = stamp.mismatch(log, size: size) { return ignored(mismatch) }
        guard let snapshot = ProjectionSnapshot(from: &reader), reader.isAtEnd, snapshot.throughSeq == stamp.lastSeq else {
            return ignored("\(LogCacheFile.Refusal.damaged)")
        }
        return .usable(snapshot, stamp)
    }

    /// Writes `snapshot`, taken at `stamp`, beside `logPath`, replacing any
    /// older one atomically.
    ///
    /// The caller must hold the log's writer lock, so that no other process
    /// replaces the snapshot or the log meanwhile.
    /// - Throws: `DuneEventsError` `.io` when it cannot be written (the old one is then unchanged).
    package static func write(_ snapshot: ProjectionSnapshot, at stamp: LogStamp, logPath: String,
                              protection: FileProtection = .default) throws(DuneEventsError) {
        removeStaleTemporaries(logPath: logPath)
        var payload = BinaryWriter()
        for version in ProjectionSnapshot.foldVersions { payload.uint32(version) }
        stamp.write(to: &payload)
        snapshot.write(to: &payload)
        try AtomicFile.write(LogCacheFile.frame(payload.bytes, magic: magic, version: ProjectionSnapshot.formatVersion),
                             to: path(forLog: logPath), protection: protection)
    }

    /// Writes a snapshot of `projections` (all four, fed from the start of
    /// the log) when no other process holds the log's writer lock and the log
    /// still ends at the projections' `throughSeq`; does nothing otherwise.
    /// For commands that replayed the whole log without being a writer
    /// (`report`).
    ///
    /// - Returns: Whether a snapshot was written.
    @discardableResult
    package static func writeIfLockFree(_ projections: ProjectionSet, logPath: String) async -> Bool {
        guard let readiness = projections.readiness, let syncStatus = projections.syncStatus else { return false }
        let snapshot = ProjectionSnapshot(readiness: await readiness.state, syncStatus: await syncStatus.state)
        return (try? await DispatchQueueExecutor(label: "dune.snapshot-write").run { () throws(DuneEventsError) -> Bool in
            let log = try LogFile.openForAppend(path: logPath, create: false, lock: .failIfLocked)
            defer { try? log.close() }
            guard let stamp = LogStamp.atEnd(of: log, size: try log.size, lastSeq: snapshot.throughSeq) else { return false }
            try write(snapshot, at: stamp, logPath: logPath)
            return true
        }) ?? false
    }

    /// Removes the temporary snapshots (`<log>.snapshot.tmp-<pid>`) a process
    /// killed while writing one left: they hold health data, and only a
    /// process holding the writer lock writes snapshots, so none is being
    /// written now.
    package static func removeStaleTemporaries(logPath: String) {
        LogCacheFile.removeTemporaries(of: path(forLog: logPath))
    }

    /// Removes the snapshot beside `logPath`, if any.
    package static func remove(logPath: String) {
        LogCacheFile.remove(path(forLog: logPath))
    }
}
