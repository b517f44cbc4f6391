/// Which way a metric moved: avg7 of the last day against the L−34…L−7 mean.
public enum TrendDirection: String, Sendable, Hashable, CaseIterable {
    /// change% ≥ +5.
    case up
    /// change% ≤ −5.
    case down
    /// −5 < change% < +5.
    case stable
    /// Fewer than 3 recent or 7 baseline values, or a baseline mean of 0.
    case insufficientData
}

/// Where the recent ln-HRV average sits against the normal range.
public enum HRVRangePosition: String, Sendable, Hashable, CaseIterable {
    case below
    case within
    case above
}
