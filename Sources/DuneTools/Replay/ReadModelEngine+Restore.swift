import DuneEvents
import DuneProjections

extension ReadModelEngine {
    /// What ``restore(logPath:usingSnapshot:progress:)`` did.
    package struct Restored: Sendable {
        package var engine: ReadModelEngine
        /// The seq of the snapshot it started from; 0 when it replayed the whole log.
        package var snapshotSeq: Int
        /// Why a snapshot beside the log was not used, if one was not.
        package var warnings: [String]
    }

    /// The engine of the log at `logPath`: from its snapshot plus the
    /// events after it when the snapshot is valid, else replayed from the start.
    ///
    /// - Throws: `CancellationError` when the task is cancelled (nothing is
    ///   kept); `corruptLog` at a damaged line.
    /// - Parameter readsIndex: Whether to read a snapshot's id index even
    ///   when no event follows it (for lookups by id); otherwise it is read
    ///   only when an event after the snapshot is folded.
    package static func restore(logPath: String, usingSnapshot: Bool, readsIndex: Bool = false,
                                progress: (Replayer.Summary) -> Void = { _ in }) async throws -> Restored {
        var warnings: [String] = []
        if usingSnapshot {
            // Reading the file blocks: on a thread of the library's, not the cooperative pool.
            let loaded = try await DispatchQueueExecutor(label: "dune.snapshot-load").run { SnapshotFile.load(logPath: logPath) }
            try Task.checkCancellation()
            switch loaded {
            case .usable(let snapshot, let stamp):
                var engine = ReadModelEngine(snapshot)
                if readsIndex {
                    // The index's pages come from the file: on a thread of the library's, not the cooperative pool.
                    let restored = engine
                    engine = try await DispatchQueueExecutor(label: "dune.snapshot-index").run {
                        var engine = restored
                        engine.readIndex()
                        return engine
                    }
                }
                try await Replayer.replayTail(try LogReader(path: logPath), after: stamp, into: &engine, progress: progress)
                guard engine.snapshotIsDamaged else { return Restored(engine: engine, snapshotSeq: stamp.lastSeq, warnings: warnings) }
                // Its id index, read only for the events after it, is damaged: as a snapshot refused outright.
                warnings.append("warning: \(SnapshotFile.path(forLog: logPath)): not used (its samples or id index are damaged); the log is replayed in full")
            case .missing:
                break
            case .ignored(let warning):
                warnings.append(warning)
            }
        }
        var engine = ReadModelEngine()
        try await Replayer.replay(try LogReader(path: logPath), into: &engine, progress: progress)
        return Restored(engine: engine, snapshotSeq: 0, warnings: warnings)
    }

    /// Writes a snapshot of this engine (fed from the start of the log)
    /// when no other process holds the log's writer lock and the log still
    /// ends at ``throughSeq``; does nothing otherwise. For commands that
    /// replayed the whole log without being a writer (`report`, `explain`):
    /// the same writer as a store's (``SnapshotFile/writeIfLockFree(_:at:logPath:protection:)``).
    ///
    /// - Returns: Whether a snapshot was written.
    package func writeSnapshotIfLockFree(logPath: String) async -> Bool {
        let engine = self
        return (try? await DispatchQueueExecutor(label: "dune.snapshot-write").run { () throws(DuneEventsError) -> Bool in
            let file = try LogFile.openForReading(path: logPath)
            defer { try? file.close() }
            guard let stamp = LogStamp.atEnd(of: file, size: try file.size, lastSeq: engine.throughSeq) else { return false }
            return try SnapshotFile.writeIfLockFree(engine, at: stamp, logPath: logPath, protection: .default)
        }) ?? false
    }
}
