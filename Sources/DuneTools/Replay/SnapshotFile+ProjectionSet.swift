import DuneEvents
import DuneProjections

extension SnapshotFile {
    /// Writes a snapshot of `projections` (all four, fed from the start of
    /// the log) when no other process holds the log's writer lock and the log
    /// still ends at the projections' `throughSeq`; does nothing otherwise.
    /// For commands that replayed the whole log without being a writer
    /// (`report`).
    ///
    /// - Returns: Whether a snapshot was written.
    @discardableResult
    package static func writeIfLockFree(_ projections: ProjectionSet, logPath: String) async -> Bool {
        guard let readiness = projections.readiness, let trends = projections.trends, let syncStatus = projections.syncStatus else {
            return false
        }
        let (readinessState, trendsState, syncStatusState) = (await readiness.state, await trends.state, await syncStatus.state)
        return (try? await DispatchQueueExecutor(label: "dune.snapshot-write").run { () throws(DuneEventsError) -> Bool in
            let log = try LogFile.openForAppend(path: logPath, create: false, lock: .failIfLocked)
            defer { try? log.close() }
            // Built only once the lock is known to be free, on this thread, not the caller's.
            let snapshot = ProjectionSnapshot(readiness: readinessState, trends: trendsState, syncStatus: syncStatusState)
            guard let stamp = LogStamp.atEnd(of: log, size: try log.size, lastSeq: snapshot.throughSeq) else { return false }
            try write(snapshot, at: stamp, logPath: logPath)
            return true
        }) ?? false
    }
}
