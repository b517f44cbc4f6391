import DuneEvents

/// How many refresh requests from one source had one outcome.
public struct RefreshCount: Sendable, Equatable {
    /// What asked for the refreshes.
    public let source: RefreshSource
    /// What the coordinator decided for them.
    public let outcome: RefreshOutcome
    /// How many requests from ``source`` had ``outcome``.
    public internal(set) var count: Int
}
