/// The readiness status of a day.
public enum ReadinessStatus: String, Sendable, Hashable, CaseIterable {
    /// Score ≥ 67.
    case ready
    /// 34 ≤ score < 67.
    case moderate
    /// Score < 34.
    case rest
    /// No score: the available components weigh less than 0.5.
    case insufficientData
}
