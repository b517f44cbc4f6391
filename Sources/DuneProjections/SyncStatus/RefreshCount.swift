import DuneEvents

/// How many refresh requests from one source had one outcome.
public struct RefreshCount: Sendable, Equatable {
    public let source: RefreshSource
    public let outcome: RefreshOutcome
    public internal(set) var count: Int

    package init(source: RefreshSource, outcome: RefreshOutcome, count: Int) {
        self.source = source
        self.outcome = outcome
        self.count = count
    }
}
