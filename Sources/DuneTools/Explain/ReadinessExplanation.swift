import DuneEvents
import DuneProjections

/// Why a day's readiness is what it is: the fold's own ``ReadinessDay`` (every
/// intermediate number of the formula), the baseline days behind μ and σ, the
/// sleep intervals after union, and every event that named the day's samples.
///
/// Built from a ``ReadModelEngine`` that replayed the log and a
/// ``SampleHistory`` of the day's sample ids; it computes nothing itself.
///
/// ```swift
/// var finder = DaySampleIDs(days: day...day, kinds: ReadinessExplanation.sampleKinds)
/// var engine = ReadModelEngine()
/// for event in events { engine.apply([event]); finder.apply(event) }
/// var history = SampleHistory(ids: finder.ids)
/// for event in events { history.apply(event) }
/// let explanation = ReadinessExplanation(projection: readiness, date: day, sampleIDs: finder.ids, history: history)
/// ```
package struct ReadinessExplanation: Sendable, Equatable {
    /// The kinds readiness reads.
    package static let sampleKinds: Set<SampleKind> = [.hrv, .restingHeartRate, .sleep]

    /// The day as the projection computes it.
    package let day: ReadinessDay
    /// The day's values with the samples each came from.
    package let values: DailyValues
    /// The `seq` of the `profile.updated` that set the sleep target; `nil` for the default.
    package let sleepTargetSeq: Int?
    /// The HRV baseline window's days (ln ms), ascending.
    package let hrvBaselineDays: [BaselineDay]
    /// The resting-HR baseline window's days, ascending.
    package let rhrBaselineDays: [BaselineDay]
    /// Every hrv, resting-HR and sleep sample that ever counted for the day.
    package let samples: [SampleTrail]

    /// The explanation of `date`, or `nil` when the day has no sample.
    /// - Parameters:
    ///   - projection: the engine that folded the log.
    ///   - date: the day.
    ///   - sampleIDs: ids of samples with a version on `date` (``DaySampleIDs``).
    ///   - history: the events of those ids.
    package init?(projection: ReadModelEngine, date: DayKey, sampleIDs: [String], history: SampleHistory) {
        guard let day = projection.day(date), let values = projection.dailyValues(on: date) else { return nil }
        self.day = day
        self.values = values
        sleepTargetSeq = projection.readiness.profileSeq
        func baseline(_ window: DailyWindow, _ samples: (DailyValues) -> DailyMean?) -> [BaselineDay] {
            zip(window.days, window.values).map { date, value in
                BaselineDay(date: date, value: value,
                            samples: projection.dailyValues(on: date).flatMap(samples)?.samples ?? [])
            }
        }
        hrvBaselineDays = baseline(day.hrvWindow) { daily in day.hrvMeasure.flatMap { daily.hrv($0) } }
        rhrBaselineDays = baseline(day.rhrWindow, \.restingHeartRate)

        var roles: [SampleReference: String] = [:]
        for reference in values.hrv?.samples ?? [] { roles[reference] = "hrv mean" }
        for reference in values.restingHeartRate?.samples ?? [] { roles[reference] = "resting HR mean" }
        for reference in values.sleep?.samples ?? [] { roles[reference] = "sleep union, \(values.sleep?.basis.rawValue ?? "")" }
        let basis = values.sleep?.basis
        samples = SampleTrail.trails(
            ids: sampleIDs, history: history, inScope: { $0.day == date }, role: { roles[$0] },
            reasonNotCounted: { sample in
                if let measure = sample.hrvMeasure, measure != values.hrvMeasure {
                    return "\(measure.rawValue), not the day's HRV measure (\(values.hrvMeasure?.rawValue ?? "none"))"
                }
                return switch sample.sleepStage {
                case .awake: "awake is not sleep"
                case .inBed where basis == .asleep: "inBed is used only on a night with no asleep sample"
                default: "not used by readiness"
                }
            })
    }
}
