import DuneEvents
import DuneProjections

/// The refresh coordinator's state at one `refresh.requested` event: folds the
/// refresh records before it with ``RefreshCoordinator/evolve(_:with:)`` (the
/// decider's own fold), remembering which events set each part of the state,
/// then asks ``RefreshCoordinator/decide(_:_:)`` again for the request.
///
/// ```swift
/// var trace = RefreshTrace(seq: 38)
/// for event in events { trace.apply(event) }
/// trace.explanation?.decided == trace.explanation?.recorded   // true for a log ingest wrote
/// ```
package struct RefreshTrace: Sendable, Equatable {
    /// The `seq` of the request to explain.
    package let seq: Int
    private var state = RefreshCoordinator.State()
    private var lastPerformedSeq: Int?
    private var lastObserverSeq: [SampleKind: Int] = [:]
    /// Set once the event at ``seq`` has been folded, if it is a refresh.
    package private(set) var explanation: RefreshExplanation?
    /// The type of the event at ``seq``, once seen.
    package private(set) var eventType: EventType?

    package init(seq: Int) {
        self.seq = seq
    }

    /// Folds one event (events after ``seq`` change nothing).
    package mutating func apply(_ event: RecordedEvent) {
        guard event.seq <= seq else { return }
        if event.seq == seq { eventType = event.type }
        guard case .refreshRequested(let record) = event.payload else { return }
        if event.seq == seq {
            let request = RefreshRequest(source: record.source, kind: record.kind, at: record.at)
            explanation = RefreshExplanation(
                seq: seq, recorded: record, state: state, lastPerformedSeq: lastPerformedSeq,
                lastObserverSeq: record.kind.flatMap { lastObserverSeq[$0] },
                decided: RefreshCoordinator.decide(state, request))
            return
        }
        let before = state
        RefreshCoordinator.evolve(&state, with: record)
        // Which event set each part of the state: the one after which it changed.
        if state.lastPerformedAt != before.lastPerformedAt || state.refreshSignal != before.refreshSignal {
            lastPerformedSeq = event.seq
        }
        if let kind = record.kind, state.lastObserverAt[kind] != before.lastObserverAt[kind] {
            lastObserverSeq[kind] = event.seq
        }
    }
}

/// Why a refresh request had its outcome.
package struct RefreshExplanation: Sendable, Equatable {
    package let seq: Int
    /// The decision stored in the log.
    package let recorded: RefreshRecord
    /// The coordinator's state just before the request.
    package let state: RefreshCoordinator.State
    /// The `seq` of the refresh that set ``RefreshCoordinator/State/lastPerformedAt``.
    package let lastPerformedSeq: Int?
    /// The `seq` of the observer request that set `lastObserverAt` for the request's kind.
    package let lastObserverSeq: Int?
    /// The coordinator's decision for the request in that state, recomputed now.
    package let decided: RefreshRecord

    /// `at − lastPerformedAt` in seconds; `nil` before any performed refresh.
    package var secondsSinceLastPerformed: Double? {
        state.lastPerformedAt.map { recorded.at.seconds(since: $0) }
    }

    /// `at − lastObserverAt[kind]` in seconds; `nil` without a kind or an earlier observer.
    package var secondsSinceLastObserver: Double? {
        guard let kind = recorded.kind, let last = state.lastObserverAt[kind] else { return nil }
        return recorded.at.seconds(since: last)
    }

    /// Whether the recomputed decision equals the stored one.
    package var decisionMatches: Bool { decided == recorded }
}
