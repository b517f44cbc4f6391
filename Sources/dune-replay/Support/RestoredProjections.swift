import DuneEvents
import DuneProjections
import DuneTools

/// The engine of a log as `report` and `explain` start from it: its snapshot
/// plus the later events when `usingSnapshot` and the snapshot is valid, else
/// a replay of the whole log — after which a snapshot is written when no
/// other process holds the log's writer lock. stderr says which.
struct RestoredProjections {
    let engine: ReadModelEngine
    /// The `seq` of the last event folded in.
    var throughSeq: Int { engine.throughSeq }

    /// The engine of the log at `path`; `command` names the command in
    /// the progress and stderr lines ("report", "explain"); `readsIndex`:
    /// whether the command looks samples up by id (see ``ReadModelEngine/restore(logPath:usingSnapshot:readsIndex:progress:)``).
    static func load(path: String, usingSnapshot: Bool, command: String, readsIndex: Bool = false) async throws -> RestoredProjections {
        let meter = ProgressMeter(label: "\(command): replaying")
        let restored = try await ReadModelEngine.restore(logPath: path, usingSnapshot: usingSnapshot, readsIndex: readsIndex) { progress in
            meter?.update("\(progress.events) events, seq \(progress.throughSeq)")
        }
        meter?.finish()
        for warning in restored.warnings { Terminal.err(warning + "\n") }
        let throughSeq = restored.engine.throughSeq
        if restored.snapshotSeq > 0 {
            Terminal.err("\(command): started from \(SnapshotFile.path(forLog: path)) at seq \(restored.snapshotSeq), "
                         + "then replayed \(Wording.count(throughSeq - restored.snapshotSeq, "later event"))\n")
        } else if usingSnapshot, await restored.engine.writeSnapshotIfLockFree(logPath: path) {
            Terminal.err("\(command): wrote \(SnapshotFile.path(forLog: path)) at seq \(throughSeq) for the next run\n")
        }
        return RestoredProjections(engine: restored.engine)
    }
}
