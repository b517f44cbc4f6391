import DuneEvents

/// The refresh side of sync status, folded from `refresh.requested`.
public struct RefreshStatus: Sendable, Equatable {
    /// Performed refreshes so far, as the coordinator recorded on the last request.
    public private(set) var refreshSignal = 0
    /// `at` of the last performed refresh, as written; `nil` before any.
    public private(set) var lastRefreshAt: Timestamp?
    /// A `cacheInvalidated` came after the last performed refresh.
    public private(set) var pendingInvalidation = false
    /// How often each source × outcome occurred; only pairs that occurred,
    /// sources then outcomes in name order.
    public private(set) var counts: [RefreshCount] = []

    package init() {}

    /// A status as a snapshot recorded it.
    package init(refreshSignal: Int, lastRefreshAt: Timestamp?, pendingInvalidation: Bool, counts: [RefreshCount]) {
        self.refreshSignal = refreshSignal
        self.lastRefreshAt = lastRefreshAt
        self.pendingInvalidation = pendingInvalidation
        self.counts = counts
    }

    /// Folds one refresh request.
    package mutating func apply(_ record: RefreshRecord) {
        refreshSignal = record.refreshSignal
        switch record.outcome {
        case .performed:
            lastRefreshAt = record.at
            pendingInvalidation = false
        case .cacheInvalidated:
            pendingInvalidation = true
        case .throttled:
            break
        }
        if let index = counts.firstIndex(where: { $0.source == record.source && $0.outcome == record.outcome }) {
            counts[index].count += 1
        } else {
            counts.append(RefreshCount(source: record.source, outcome: record.outcome, count: 1))
            counts.sort { ($0.source.rawValue, $0.outcome.rawValue) < ($1.source.rawValue, $1.outcome.rawValue) }
        }
    }

    /// The count of `source` × `outcome` (0 when it never occurred).
    public func count(_ source: RefreshSource, _ outcome: RefreshOutcome) -> Int {
        counts.first { $0.source == source && $0.outcome == outcome }?.count ?? 0
    }
}
