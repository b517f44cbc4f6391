/// What asked for a refresh (docs/input-format.md).
public enum RefreshSource: String, Sendable, Hashable, CaseIterable, Comparable {
    /// The app came to the foreground.
    case foreground
    /// An `HKObserverQuery` fired for one sample kind.
    case healthKitObserver
    /// HealthKit background delivery woke the app: caches are marked stale, nothing reloads.
    case backgroundDelivery
    /// The user pulled to refresh: always performed, never throttled.
    case pullToRefresh

    /// Orders sources by their raw names.
    public static func < (lhs: RefreshSource, rhs: RefreshSource) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// What the refresh coordinator decided.
public enum RefreshOutcome: String, Sendable, Hashable, CaseIterable, Comparable {
    /// The app reloads its data.
    case performed
    /// Within a throttle window; nothing reloads.
    case throttled
    /// Background delivery: caches are marked stale, no reload signal.
    case cacheInvalidated

    /// Orders outcomes by their raw names.
    public static func < (lhs: RefreshOutcome, rhs: RefreshOutcome) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Which throttle stopped a refresh.
public enum ThrottleReason: String, Sendable, Hashable, CaseIterable {
    /// The same sample kind's observer fired less than 60 s ago.
    case typeThrottle
    /// A refresh was performed less than 60 s ago.
    case coordinatorThrottle
}

/// A refresh request with the coordinator's decision, as stored in `refresh.requested`.
package struct RefreshRecord: Sendable, Hashable {
    package var source: RefreshSource
    /// The sample kind an observer fired for (required for `healthKitObserver`).
    package var kind: SampleKind?
    package var at: Timestamp
    package var outcome: RefreshOutcome
    package var reason: ThrottleReason?
    /// Performed refreshes so far, this one included.
    package var refreshSignal: Int

    package init(source: RefreshSource, kind: SampleKind?, at: Timestamp, outcome: RefreshOutcome,
                reason: ThrottleReason?, refreshSignal: Int) {
        self.source = source
        self.kind = kind
        self.at = at
        self.outcome = outcome
        self.reason = reason
        self.refreshSignal = refreshSignal
    }
}
