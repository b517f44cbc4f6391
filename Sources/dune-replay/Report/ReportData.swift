import DuneEvents
import DuneProjections

/// Everything `dune-replay report` shows, read from the four projections after
/// one replay of the log. No clock: "today" is the last day with data.
struct ReportData {
    let throughSeq: Int
    let readiness: ReadinessModel
    let trends: TrendsModel
    let weekly: WeeklyStatsModel
    let sync: SyncStatusModel
    /// The last readiness day's sleep, with its intervals after union.
    let lastNight: DailySleep?
    /// Current samples per source (every kind), sources in UTF-8 order.
    let sources: [SourceCount]

    /// A source's share of the current samples.
    struct SourceCount {
        let source: String
        let samples: Int
    }

    /// The models of the log at `path`, its projections restored as
    /// ``RestoredProjections/load(path:usingSnapshot:command:)`` does.
    static func load(path: String, usingSnapshot: Bool) async throws -> ReportData {
        let restored = try await RestoredProjections.load(path: path, usingSnapshot: usingSnapshot, command: "report")
        let models = restored.models
        // The weekly and sync models are computed on their actors while this task reads the other two.
        async let weekly = models.weeklyStats.readModel()
        async let sync = models.syncStatus.readModel()
        let readinessState = await models.readiness.state
        let trendsState = await models.trends.state
        let readiness = readinessState.readModel()
        let counts = trendsState.samples.sampleCountsBySource()
        let sources = counts.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            .map { SourceCount(source: $0, samples: counts[$0] ?? 0) }
        return ReportData(
            throughSeq: restored.throughSeq, readiness: readiness, trends: trendsState.readModel(),
            weekly: await weekly, sync: await sync,
            lastNight: readiness.days.last.flatMap { readinessState.dailyValues(on: $0.date)?.sleep },
            sources: sources)
    }

    /// The last day with any sample.
    var lastDay: DayKey? { trends.lastDay }

    /// The readiness days in the `count` days ending on the last day, one entry per calendar day.
    func readinessDays(last count: Int) -> [DatedReadiness] {
        guard let last = readiness.days.last?.date else { return [] }
        return (0..<count).map { offset in
            let date = last.adding(days: offset - count + 1)
            return DatedReadiness(date: date, day: readiness.day(date))
        }
    }

    /// A calendar day and its readiness entry, if it has one.
    struct DatedReadiness {
        let date: DayKey
        let day: ReadinessDay?
    }
}
