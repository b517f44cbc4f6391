import DuneEvents

extension HRVNormalRange {
    /// ``low`` as milliseconds (e^low), for charts and reports.
    public var lowMilliseconds: Double { DeterministicMath.exp(low) }
    /// ``high`` as milliseconds (e^high).
    public var highMilliseconds: Double { DeterministicMath.exp(high) }
    /// ``avg7`` as milliseconds (the geometric mean of the last 7 days' HRV).
    public var avg7Milliseconds: Double? { avg7.map(DeterministicMath.exp) }
}
