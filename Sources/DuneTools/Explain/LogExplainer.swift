import DuneEvents
import DuneProjections

/// The scans behind `explain`: the explanation of a read-model value from the
/// projection that computed it and the log's events that named its samples.
///
/// The projections' state is given (from a snapshot plus the later events, or
/// a replay of the whole log: the same state either way). What a state does not
/// keep — the ids of every sample that ever counted for a day, and every event
/// that named them, corrections and deletions included — is read from the log
/// at `logPath` in one pass (``DaySampleHistory``), or two when an id was named
/// before its first version on the day.
///
/// ```swift
/// let explainer = LogExplainer(logPath: "events.jsonl")
/// let explanation = try explainer.readiness(readinessState, day: DayKey("2026-02-28")!)
/// ```
package struct LogExplainer: Sendable {
    /// The log whose events are read.
    package let logPath: String

    package init(logPath: String) {
        self.logPath = logPath
    }

    /// The ids of the samples of `kinds` that ever counted for `days`, and their history.
    package struct SampleTrails: Sendable {
        package let ids: [String]
        package let history: SampleHistory
    }

    // MARK: - Models

    /// Why `day`'s readiness is what it is; `nil` when no sample counts for the day.
    /// - Complexity: one or two passes over the log.
    /// - Throws: `corruptLog` at a damaged line; I/O errors.
    package func readiness(_ projection: ReadModelEngine, day: DayKey) throws -> ReadinessExplanation? {
        let trails = try sampleTrails(days: day...day, kinds: ReadinessExplanation.sampleKinds)
        return ReadinessExplanation(projection: projection, date: day, sampleIDs: trails.ids, history: trails.history)
    }

    /// Why `week`'s stats are what they are; `nil` outside the days with samples.
    /// - Complexity: one or two passes over the log.
    /// - Throws: `corruptLog` at a damaged line; I/O errors.
    package func weekly(_ projection: ReadModelEngine, model: WeeklyStatsModel, week: WeekKey) throws -> WeekExplanation? {
        let trails = try sampleTrails(days: WeekExplanation.days(of: week), kinds: WeekExplanation.sampleKinds)
        return WeekExplanation(week: week, projection: projection, model: model, sampleIDs: trails.ids, history: trails.history)
    }

    /// Why `metric` is what it is on `date`; `nil` when the model has no such metric.
    /// - Complexity: one or two passes over the log.
    /// - Throws: `corruptLog` at a damaged line; I/O errors.
    package func trend(_ projection: ReadModelEngine, model: TrendsModel, metric: TrendMetric, date: DayKey) throws -> TrendExplanation? {
        let trails = try sampleTrails(days: date...date, kinds: TrendExplanation.sampleKinds(metric))
        return TrendExplanation(metric: metric, date: date, projection: projection, model: model,
                                sampleIDs: trails.ids, history: trails.history)
    }

    /// A feature's load phase, task event by task event, and the features the log names.
    package struct FeatureScan: Sendable {
        package let trace: FeatureLoadTrace
        /// Every feature a task event names, in UTF-8 order.
        package let features: [String]
    }

    /// The trace of `feature` (its ``FeatureLoadTrace/steps`` are empty when no task event names it).
    /// - Complexity: one pass over the log.
    /// - Throws: `corruptLog` at a damaged line; I/O errors.
    package func sync(feature: String) throws -> FeatureScan {
        var trace = FeatureLoadTrace(feature: feature)
        var features: Set<String> = []
        try scan { event in
            if case .task(let record) = event.payload { features.insert(record.feature) }
            trace.apply(event)
        }
        return FeatureScan(trace: trace, features: features.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    /// The refresh coordinator's state at request `seq` (see ``RefreshTrace``).
    /// - Complexity: one pass over the log through `seq`.
    /// - Throws: `corruptLog` at a damaged line; I/O errors.
    package func refresh(seq: Int) throws -> RefreshTrace {
        var trace = RefreshTrace(seq: seq)
        try scan(through: seq) { trace.apply($0) }
        return trace
    }

    // MARK: - Reading

    /// The samples of `kinds` that ever counted for `days` and every event that named them.
    /// - Complexity: one pass over the log; a second when an id was named before it counted for `days`.
    package func sampleTrails(days: ClosedRange<DayKey>, kinds: Set<SampleKind>) throws -> SampleTrails {
        var trail = DaySampleHistory(days: days, kinds: kinds)
        try scan { trail.apply($0) }
        guard trail.needsSecondPass else { return SampleTrails(ids: trail.ids, history: trail.history) }
        var history = SampleHistory(ids: trail.ids)
        try scan { history.apply($0) }
        return SampleTrails(ids: trail.ids, history: history)
    }

    /// Folds every event (through `through`) of the log, in order.
    private func scan(through: Int = .max, _ body: (RecordedEvent) -> Void) throws {
        try LogReader(path: logPath).forEachBatch(through: through) { batch in
            for event in batch { body(event) }
        }
    }
}
