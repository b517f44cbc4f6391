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
    /// The recent average is below the low bound.
    case below
    /// The recent average is within the range, bounds included.
    case within
    /// The recent average is above the high bound.
    case above
}
