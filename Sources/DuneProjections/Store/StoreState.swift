import DuneEvents

/// The four read models of a log at one `throughSeq`: what a ``DuneStore``
/// holds, read with one call and observed as one value.
///
/// The models are always of the same events: `readiness.throughSeq`,
/// `trends.throughSeq`, `weeklyStats.throughSeq` and `syncStatus.throughSeq`
/// all equal ``throughSeq``, so a view never shows readiness at one seq beside
/// trends at another. Each model equals the file `dune-replay rebuild` writes
/// for the log's first ``throughSeq`` events.
///
/// ```swift
/// let state = await store.state
/// if let today = state.readiness.days.last { print(today.score ?? 0) }
/// ```
public struct StoreState: Sendable, Equatable {
    /// The seq of the last event folded into the models (0 for an empty log).
    public let throughSeq: Int
    /// Training readiness per day; equal to `readiness.json` of a rebuild.
    public let readiness: ReadinessModel
    /// The eight metric trends, the HRV normal range and the training load; equal to `trends.json`.
    public let trends: TrendsModel
    /// Per-ISO-week totals; equal to `weekly-stats.json`.
    public let weeklyStats: WeeklyStatsModel
    /// Refreshes and feature loading; equal to `sync-status.json`.
    public let syncStatus: SyncStatusModel
    /// The app's own projections' models (or failures), in registration order.
    package let apps: [AppFoldState]

    /// The model of an app projection the store registered (``DuneStore/Options/register(_:)``),
    /// at this state's ``throughSeq``.
    ///
    /// ```swift
    /// let totals = try await store.state.model(of: hrvTotals)
    /// ```
    /// - Parameter projection: The projection, as registered.
    /// - Returns: Its model.
    /// - Throws: ``AppProjectionError`` when the projection is not registered
    ///   with the store, or its fold threw (the error names the event's seq).
    public func model<Model>(of projection: AppProjection<Model>) throws(AppProjectionError) -> Model {
        guard let entry = apps.first(where: { $0.projection.name == projection.name }) else {
            throw AppProjectionError(projection: projection.name, seq: nil,
                                     message: "not registered: register it in the options the store is opened with")
        }
        if let failure = entry.failure {
            throw AppProjectionError(projection: projection.name, seq: failure.seq, message: failure.message
                                     + "; it folds nothing more until the store opens with a fixed fold and a new version")
        }
        guard let model = entry.model.value as? Model else {
            throw AppProjectionError(projection: projection.name, seq: nil,
                                     message: "registered with another model type under the same name")
        }
        return model
    }

    /// The models whose content differs between `self` and `other`, their
    /// `throughSeq` aside (every appended event moves it).
    package func changedModels(comparedWith other: StoreState) -> Set<ProjectionName> {
        var changed: Set<ProjectionName> = []
        let seq = other.throughSeq
        if readiness.restamped(seq) != other.readiness { changed.insert(.readiness) }
        if trends.restamped(seq) != other.trends { changed.insert(.trends) }
        if weeklyStats.restamped(seq) != other.weeklyStats { changed.insert(.weeklyStats) }
        if syncStatus.restamped(seq) != other.syncStatus { changed.insert(.syncStatus) }
        return changed
    }
}
