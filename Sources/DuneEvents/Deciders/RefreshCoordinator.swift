/// The refresh coordinator (docs/input-format.md): decides whether a refresh request
/// reloads data, is throttled, or only invalidates caches.
///
/// A pure decider: ``decide(_:_:)`` reads the state and a request and returns
/// the record to store; ``evolve(_:with:)`` folds a stored record into the
/// state. Replaying the stored records rebuilds the same state, so decisions
/// never depend on a clock — only on the requests' own `at` times.
package enum RefreshCoordinator {
    /// Minimum seconds between performed refreshes, and between two observer
    /// callbacks of the same sample kind.
    package static let throttleSeconds: Double = 60

    /// What the coordinator remembers.
    package struct State: Sendable, Equatable {
        package var lastPerformedAt: Timestamp?
        package var lastObserverAt: [SampleKind: Timestamp] = [:]
        /// Performed refreshes so far.
        package var refreshSignal = 0

        package init() {}
    }

    /// The decision for `request` in `state`.
    ///
    /// 1. `pullToRefresh` → performed (ignores throttles).
    /// 2. `backgroundDelivery` → cacheInvalidated.
    /// 3. `healthKitObserver` within 60 s of the same kind's last observer → throttled (`typeThrottle`).
    /// 4. `foreground` / `healthKitObserver` within 60 s of the last performed refresh → throttled
    ///    (`coordinatorThrottle`), else performed.
    package static func decide(_ state: State, _ request: RefreshRequest) -> RefreshRecord {
        func record(_ outcome: RefreshOutcome, _ reason: ThrottleReason? = nil) -> RefreshRecord {
            RefreshRecord(source: request.source, kind: request.kind, at: request.at, outcome: outcome, reason: reason,
                          refreshSignal: state.refreshSignal + (outcome == .performed ? 1 : 0))
        }
        switch request.source {
        case .pullToRefresh:
            return record(.performed)
        case .backgroundDelivery:
            return record(.cacheInvalidated)
        case .healthKitObserver:
            if let kind = request.kind, let last = state.lastObserverAt[kind], request.at.seconds(since: last) < throttleSeconds {
                return record(.throttled, .typeThrottle)
            }
            fallthrough
        case .foreground:
            if let last = state.lastPerformedAt, request.at.seconds(since: last) < throttleSeconds {
                return record(.throttled, .coordinatorThrottle)
            }
            return record(.performed)
        }
    }

    /// Folds a stored decision into the state.
    package static func evolve(_ state: inout State, with record: RefreshRecord) {
        if record.source == .healthKitObserver, record.reason != .typeThrottle, let kind = record.kind {
            state.lastObserverAt[kind] = record.at
        }
        if record.outcome == .performed {
            state.lastPerformedAt = record.at
            state.refreshSignal = record.refreshSignal
        }
    }
}
