import DuneEvents

/// What ``DuneStore`` did with one ``StoreInput``.
public enum AppendOutcome: Sendable, Hashable {
    /// Appended and durable; `seq` is the input's own event (a superseding
    /// cancellation the task decider added comes just before it).
    case appended(seq: Int)
    /// A refresh request, appended and durable at `seq`, with what the
    /// refresh coordinator decided: whether the app should reload now.
    ///
    /// ```swift
    /// let outcome = try await store.append(.refresh(RefreshRequest(source: .foreground, kind: nil, at: now)))
    /// if case .refreshed(_, .performed) = outcome { await reloadViews() }
    /// ```
    case refreshed(seq: Int, decision: RefreshDecision)
    /// Already in the log with the same content: nothing was appended.
    case alreadyAppended
    /// The `eventID` (or the task's phase) is already stored with other content: nothing was appended.
    case conflict(reason: String)
    /// The input failed validation: the rejection's code and field say which
    /// rule and field, its message what `ingest` prints for the same line.
    case rejected(Rejection)

    /// The seq of the event this call appended (``appended(seq:)`` or
    /// ``refreshed(seq:decision:)``); `nil` when nothing was appended.
    public var appendedSeq: Int? {
        switch self {
        case .appended(let seq), .refreshed(let seq, _): seq
        case .alreadyAppended, .conflict, .rejected: nil
        }
    }

    /// Whether the input is in the log now (appended or already there).
    public var isStored: Bool {
        switch self {
        case .appended, .refreshed, .alreadyAppended: true
        case .conflict, .rejected: false
        }
    }
}

/// What the refresh coordinator decided for an appended refresh request
/// (the `outcome` of its `refresh.requested` event, docs/input-format.md).
public enum RefreshDecision: Sendable, Hashable {
    /// Performed: the app reloads. `refreshSignal` counts the performed
    /// refreshes so far, this one included (``RefreshStatus/refreshSignal``).
    case performed(refreshSignal: Int)
    /// Throttled: within a throttle window, nothing reloads; `reason` says which.
    case throttled(reason: ThrottleReason)
    /// Background delivery: caches are marked stale, nothing reloads now.
    case cacheInvalidated
}

extension RefreshDecision {
    /// The decision `record` stores.
    init(_ record: RefreshRecord) {
        switch record.outcome {
        case .performed: self = .performed(refreshSignal: record.refreshSignal)
        case .throttled: self = .throttled(reason: record.reason ?? .coordinatorThrottle)
        case .cacheInvalidated: self = .cacheInvalidated
        }
    }
}
