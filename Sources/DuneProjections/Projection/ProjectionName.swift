/// The four read models, by name: what a ``StoreUpdate`` says changed.
///
/// ```swift
/// for await update in store.updates where update.changedModels.contains(.weeklyStats) {
///     weeks = await store.weeklyStats.weeks
/// }
/// ```
public enum ProjectionName: String, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    /// The readiness read model, ``ReadinessModel`` (CLI name `readiness`).
    case readiness
    /// The trends read model, ``TrendsModel`` (CLI name `trends`).
    case trends
    /// The weekly-stats read model, ``WeeklyStatsModel`` (CLI name `weekly`).
    case weeklyStats
    /// The sync-status read model, ``SyncStatusModel`` (CLI name `sync`).
    case syncStatus

    /// The name used on the command line: `readiness`, `trends`, `weekly`, `sync`.
    package var cliName: String {
        switch self {
        case .readiness: "readiness"
        case .trends: "trends"
        case .weeklyStats: "weekly"
        case .syncStatus: "sync"
        }
    }

    /// The name `dune-replay` uses for this read model: `readiness`, `trends`, `weekly` or `sync`.
    public var description: String { cliName }

    /// Declaration order: readiness, trends, weeklyStats, syncStatus.
    public static func < (lhs: ProjectionName, rhs: ProjectionName) -> Bool {
        lhs.order < rhs.order
    }

    private var order: Int {
        ProjectionName.allCases.firstIndex(of: self) ?? 0
    }
}
