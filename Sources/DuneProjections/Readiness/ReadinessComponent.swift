import DuneEvents

/// One component of a readiness score.
public struct ReadinessComponent: Sendable, Equatable {
    /// What was scored: ln(hrv_D), rhr_D, or sleep minutes.
    public let input: Double
    /// `(input − μ)/σ` for hrv and rhr; `nil` for sleep.
    public let z: Double?
    /// The sub-score, 0…100, unrounded.
    public let score: Double
    /// The component's weight (0.5, 0.25, 0.25).
    public let weight: Double
}
