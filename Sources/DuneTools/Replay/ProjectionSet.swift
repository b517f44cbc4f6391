import DuneEvents
import DuneProjections

/// The selected projection actors, fed the same batches together.
///
/// ```swift
/// let set = ProjectionSet([.readiness, .weeklyStats])
/// for batch in batches { await set.apply(batch) }
/// for file in await set.files() { try write(file.bytes, to: dir + "/" + file.fileName) }
/// ```
///
/// Await each ``apply(_:)`` before starting the next: batches must reach the
/// actors in log order (see ``ProjectionActor/apply(_:)``).
package struct ProjectionSet: Sendable {
    /// `nil` when not selected.
    package let readiness: ReadinessActor?
    package let trends: TrendsActor?
    package let weeklyStats: WeeklyStatsActor?
    package let syncStatus: SyncStatusActor?
    /// Whether the readiness and weekly-stats actors fold no sample, their
    /// models built from the trends actor's days (``init(forFiles:)``).
    package let modelsFromTrends: Bool

    /// A set with fresh (empty) actors for `names`; all four by default.
    package init(_ names: some Sequence<ProjectionName> = ProjectionName.allCases) {
        let selected = Set(names)
        readiness = selected.contains(.readiness) ? ReadinessActor() : nil
        trends = selected.contains(.trends) ? TrendsActor() : nil
        weeklyStats = selected.contains(.weeklyStats) ? WeeklyStatsActor() : nil
        syncStatus = selected.contains(.syncStatus) ? SyncStatusActor() : nil
        modelsFromTrends = false
    }

    /// A set with fresh actors for `names`, made to replay a log once and
    /// write the files (`rebuild`): when trends is selected, only the trends
    /// actor keeps samples, and ``files()`` builds the readiness and weekly
    /// models from its days — the same bytes as their own samples give, for
    /// a third of the sample state and of the sample folding.
    ///
    /// The readiness and weekly-stats actors hold no samples then: read their
    /// models after ``files()`` (which keeps them), never feed the set more
    /// events after it, and use ``init(_:)`` for anything else (explain,
    /// snapshots, a store).
    package init(forFiles names: some Sequence<ProjectionName>) {
        let selected = Set(names)
        let shares = selected.contains(.trends)
        readiness = selected.contains(.readiness) ? ReadinessActor(ReadinessProjection(ignoringSamples: shares)) : nil
        trends = selected.contains(.trends) ? TrendsActor() : nil
        weeklyStats = selected.contains(.weeklyStats) ? WeeklyStatsActor(WeeklyStatsProjection(ignoringSamples: shares)) : nil
        syncStatus = selected.contains(.syncStatus) ? SyncStatusActor() : nil
        modelsFromTrends = shares
    }

    /// A set of the given actors (the store's, which are always all four).
    package init(readiness: ReadinessActor?, trends: TrendsActor?, weeklyStats: WeeklyStatsActor?, syncStatus: SyncStatusActor?) {
        self.readiness = readiness
        self.trends = trends
        self.weeklyStats = weeklyStats
        self.syncStatus = syncStatus
        modelsFromTrends = false
    }

    /// The selected projections, in ``ProjectionName`` order.
    package var names: [ProjectionName] {
        var names: [ProjectionName] = []
        if readiness != nil { names.append(.readiness) }
        if trends != nil { names.append(.trends) }
        if weeklyStats != nil { names.append(.weeklyStats) }
        if syncStatus != nil { names.append(.syncStatus) }
        return names
    }

    /// Folds `batch` (events, or a decoded batch on the fast replay path) into
    /// every selected actor, the actors running concurrently. Returns when all
    /// of them have folded the whole batch.
    package func apply(_ batch: some ProjectionBatch) async {
        guard !batch.isEmpty else { return }
        await withDiscardingTaskGroup { group in
            if let readiness { group.addTask { await readiness.apply(batch) } }
            if let trends { group.addTask { await trends.apply(batch) } }
            if let weeklyStats { group.addTask { await weeklyStats.apply(batch) } }
            if let syncStatus { group.addTask { await syncStatus.apply(batch) } }
        }
    }

    /// Makes room in every selected sample store for `count` samples.
    package func reserveCapacity(samples count: Int) async {
        await readiness?.reserveCapacity(samples: count)
        await trends?.reserveCapacity(samples: count)
        await weeklyStats?.reserveCapacity(samples: count)
    }

    /// The smallest `throughSeq` of the selected actors: feed events after it to
    /// catch up (events at or below an actor's own `throughSeq` are skipped).
    /// 0 when nothing is selected.
    package func throughSeq() async -> Int {
        var seqs: [Int] = []
        if let readiness { seqs.append(await readiness.throughSeq) }
        if let trends { seqs.append(await trends.throughSeq) }
        if let weeklyStats { seqs.append(await weeklyStats.throughSeq) }
        if let syncStatus { seqs.append(await syncStatus.throughSeq) }
        return seqs.min() ?? 0
    }

    /// The file of projection `name`, or `nil` when it is not selected.
    package func file(_ name: ProjectionName) async -> ReadModelFile? {
        switch name {
        case .readiness: await readiness?.file()
        case .trends: await trends?.file()
        case .weeklyStats: await weeklyStats?.file()
        case .syncStatus: await syncStatus?.file()
        }
    }

    /// The files of the selected projections, in ``ProjectionName`` order.
    /// The read models are computed concurrently, each in its own actor.
    /// - Complexity: O(n log n) for n samples (read models are computed here).
    ///
    /// With both readiness and trends selected, the days' ``DailyMetrics`` are
    /// computed once, by the trends actor, and both models are built from
    /// them (readiness reads three of their values; see
    /// ``ProjectionActor/file(metrics:)``).
    package func files() async -> [ReadModelFile] {
        await withTaskGroup(of: [ReadModelFile].self) { group in
            if modelsFromTrends, let trends {
                // Readiness and weekly stats from the trends actor's days: they keep no samples.
                let readiness = readiness
                let weeklyStats = weeklyStats
                group.addTask {
                    let daily = await trends.modelDailyValues()
                    let metrics = (days: daily.days.map(DailyMetrics.init), throughSeq: daily.throughSeq)
                    return await withTaskGroup(of: ReadModelFile?.self) { models in
                        models.addTask { await readiness?.file(metrics: metrics) }
                        models.addTask { await trends.file(metrics: metrics) }
                        models.addTask { await weeklyStats?.file(daily: daily) }
                        var files: [ReadModelFile] = []
                        for await file in models { if let file { files.append(file) } }
                        return files
                    }
                }
                if let syncStatus { group.addTask { [await syncStatus.file()] } }
                var files: [ReadModelFile] = []
                for await some in group { files += some }
                return files.sorted { $0.projection < $1.projection }
            }
            for name in names {
                if name == .readiness, trends != nil { continue }  // with trends, below
                if name == .trends, let readiness, let trends {
                    group.addTask {
                        let metrics = await trends.modelMetrics()
                        return await withTaskGroup(of: ReadModelFile.self) { pair in
                            pair.addTask { await readiness.file(metrics: metrics) }
                            pair.addTask { await trends.file(metrics: metrics) }
                            var files: [ReadModelFile] = []
                            for await file in pair { files.append(file) }
                            return files
                        }
                    }
                    continue
                }
                group.addTask { await self.file(name).map { [$0] } ?? [] }
            }
            var files: [ReadModelFile] = []
            for await some in group { files += some }
            return files.sorted { $0.projection < $1.projection }
        }
    }
}
