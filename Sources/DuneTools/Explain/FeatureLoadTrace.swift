import DuneEvents
import DuneProjections

/// A feature's load phase, step by step: folds the feature's `task.*` events
/// with ``FeatureLoadState`` (the sync-status projection's own fold) and keeps
/// what each event did.
///
/// ```swift
/// var trace = FeatureLoadTrace(feature: "readiness")
/// for event in events { trace.apply(event) }
/// trace.state.phase       // as in sync-status.json
/// trace.steps.last?.effect
/// ```
package struct FeatureLoadTrace: Sendable, Equatable {
    /// The state after the events folded so far.
    package private(set) var state: FeatureLoadState
    /// One step per task event of the feature, in `seq` order.
    package private(set) var steps: [FeatureLoadStep] = []
    private var unfinished = UnfinishedTasks()

    package init(feature: String) {
        state = FeatureLoadState(feature: feature)
    }

    package var feature: String { state.feature }

    /// Folds a `task.*` event of the feature; other events are ignored.
    package mutating func apply(_ event: RecordedEvent) {
        guard case .task(let record) = event.payload, record.feature == state.feature,
              !event.isOutsideTimestampWindow  // skipped by the sync-status projection too
        else { return }
        let before = state.phase
        let effect = state.apply(record, seq: event.seq)
        unfinished.apply(record, seq: event.seq)
        steps.append(FeatureLoadStep(seq: event.seq, record: record, effect: effect, phaseBefore: before,
                                     phaseAfter: state.phase, currentTaskAfter: state.currentTask))
    }

    /// Tasks that started and have no later completion, failure or cancellation, by start `seq`.
    package var unfinishedTasks: [FeatureLoadStep] {
        let starts = Set(unfinished.startSeqs)
        return steps.filter { starts.contains($0.seq) }
    }
}

/// One task event and what it did to the feature.
package struct FeatureLoadStep: Sendable, Equatable {
    package let seq: Int
    package let record: TaskRecord
    package let effect: TaskEventEffect
    package let phaseBefore: LoadPhase
    package let phaseAfter: LoadPhase
    /// The task in flight after the event.
    package let currentTaskAfter: String?
}
