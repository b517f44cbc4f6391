import DuneEvents
import DuneProjections

/// The four projection actors of a store (or of `report`), always all four.
package struct StoreProjections: Sendable {
    package let readiness: ReadinessActor
    package let trends: TrendsActor
    package let weeklyStats: WeeklyStatsActor
    package let syncStatus: SyncStatusActor

    init(readiness: ReadinessActor = ReadinessActor(), trends: TrendsActor = TrendsActor(),
         weeklyStats: WeeklyStatsActor = WeeklyStatsActor(), syncStatus: SyncStatusActor = SyncStatusActor()) {
        self.readiness = readiness
        self.trends = trends
        self.weeklyStats = weeklyStats
        self.syncStatus = syncStatus
    }

    /// The same actors as a ``ProjectionSet``, to replay into.
    package var set: ProjectionSet {
        ProjectionSet(readiness: readiness, trends: trends, weeklyStats: weeklyStats, syncStatus: syncStatus)
    }

    /// Actors holding `states`.
    init(_ states: StoreProjectionStates) {
        self.init(readiness: ReadinessActor(states.readiness), trends: TrendsActor(states.trends),
                  weeklyStats: WeeklyStatsActor(states.weeklyStats), syncStatus: SyncStatusActor(states.syncStatus))
    }

    /// What ``restore(logPath:usingSnapshot:)`` did.
    package struct Restored: Sendable {
        package var models: StoreProjections
        /// The seq of the snapshot it started from; 0 when it replayed the whole log.
        package var snapshotSeq: Int
        /// Why a snapshot beside the log was not used, if one was not.
        package var warnings: [String]
    }

    /// The projections of the log at `logPath`: from its snapshot plus the
    /// events after it when the snapshot is valid, else replayed from the start.
    ///
    /// - Throws: `CancellationError` when the task is cancelled (nothing is
    ///   kept); `corruptLog` at a damaged line after the snapshot.
    package static func restore(logPath: String, usingSnapshot: Bool,
                                progress: (Replayer.Summary) -> Void = { _ in }) async throws -> Restored {
        var warnings: [String] = []
        if usingSnapshot {
            // Reading the file blocks: on a thread of the library's, not the cooperative pool.
            let loaded = try await DispatchQueueExecutor(label: "dune.snapshot-load").run { SnapshotFile.load(logPath: logPath) }
            try Task.checkCancellation()
            switch loaded {
            case .usable(let snapshot, let stamp):
                let models = StoreProjections(await snapshot.restore())
                try Task.checkCancellation()
                try await Replayer.replayTail(try LogReader(path: logPath), after: stamp, into: models.set, progress: progress)
                return Restored(models: models, snapshotSeq: stamp.lastSeq, warnings: warnings)
            case .missing:
                break
            case .ignored(let warning):
                warnings.append(warning)
            }
        }
        let models = StoreProjections()
        try await Replayer.replay(try LogReader(path: logPath), into: models.set, progress: progress)
        return Restored(models: models, snapshotSeq: 0, warnings: warnings)
    }
}
