import DuneEvents
import DuneProjections

/// Everything `dune-replay report` shows, read from the engine after
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
    /// ``RestoredProjections/load(path:usingSnapshot:command:readsIndex:)`` does.
    static func load(path: String, usingSnapshot: Bool) async throws -> ReportData {
        let restored = try await RestoredProjections.load(path: path, usingSnapshot: usingSnapshot, command: "report")
        var engine = restored.engine
        let state = engine.state()
        let readiness = state.readiness
        let counts = engine.sampleCountsBySource()
        let sources = counts.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            .map { SourceCount(source: $0, samples: counts[$0] ?? 0) }
        return ReportData(
            throughSeq: state.throughSeq, readiness: readiness, trends: state.trends,
            weekly: state.weeklyStats, sync: state.syncStatus,
            lastNight: readiness.days.last.flatMap { engine.dailyValues(on: $0.date)?.sleep },
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
