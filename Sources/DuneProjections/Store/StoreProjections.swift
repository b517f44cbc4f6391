import DuneEvents

/// The store's four projection actors, always all four.
struct StoreProjections: Sendable {
    let readiness: ReadinessActor
    let trends: TrendsActor
    let weeklyStats: WeeklyStatsActor
    let syncStatus: SyncStatusActor

    init(readiness: ReadinessActor = ReadinessActor(), trends: TrendsActor = TrendsActor(),
         weeklyStats: WeeklyStatsActor = WeeklyStatsActor(), syncStatus: SyncStatusActor = SyncStatusActor()) {
        self.readiness = readiness
        self.trends = trends
        self.weeklyStats = weeklyStats
        self.syncStatus = syncStatus
    }

    /// The same actors as a ``ProjectionSet``, to replay into.
    var set: ProjectionSet {
        ProjectionSet(readiness: readiness, trends: trends, weeklyStats: weeklyStats, syncStatus: syncStatus)
    }

    /// New actors holding the same states.
    func copy() async -> StoreProjections {
        StoreProjections(readiness: ReadinessActor(await readiness.state), trends: TrendsActor(await trends.state),
                         weeklyStats: WeeklyStatsActor(await weeklyStats.state), syncStatus: SyncStatusActor(await syncStatus.state))
    }

    /// Folds every event of the log after the actors' `throughSeq`.
    ///
    /// - Throws: `CancellationError` between batches when the task is
    ///   cancelled (the actors then hold a part of the tail: discard them);
    ///   `corruptLog` at a damaged line.
    @discardableResult
    func catchUp(logPath: String) async throws -> Replayer.Summary {
        let set = set
        let after = await set.throughSeq()
        return try await Replayer.replay(try LogReader(path: logPath), range: LogReader.Range(after: after), into: set)
    }
}
