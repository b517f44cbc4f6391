/// The readiness formulas (docs/read-models.md), as functions the projection and
/// `explain` both call.
package enum ReadinessFormula {
    /// Weight of the HRV component.
    package static let hrvWeight = 0.5
    /// Weight of the resting-heart-rate component.
    package static let rhrWeight = 0.25
    /// Weight of the sleep component.
    package static let sleepWeight = 0.25
    /// A score is computed only when the available weights sum to at least this.
    package static let minimumTotalWeight = 0.5
    /// Baseline days a component (hrv, rhr) needs.
    package static let minimumBaselineDays = 14
    /// The baseline window is D−60…D−1.
    package static let baselineWindowDays = 60
    /// The sleep target when the log has no `profile.updated`.
    package static let defaultSleepTargetMinutes = 480.0
    /// Scores at or above this are `ready`.
    package static let readyThreshold = 67.0
    /// Scores at or above this (and below ``readyThreshold``) are `moderate`.
    package static let moderateThreshold = 34.0

    /// The baseline statistics when they have at least ``minimumBaselineDays`` values, else `nil`.
    package static func baseline(_ statistics: SampleStatistics) -> SampleStatistics? {
        statistics.n >= minimumBaselineDays ? statistics : nil
    }

    /// `(value − μ)/σ`; 0 when σ = 0. `nil` when the statistics have no mean or SD.
    package static func zScore(_ value: Double, baseline: SampleStatistics) -> Double? {
        guard let mean = baseline.mean, let sd = baseline.sd else { return nil }
        return sd == 0 ? 0 : (value - mean) / sd
    }

    /// `clamp(50 + 25·z, 0, 100)` with z over ln hrv.
    package static func hrvScore(z: Double) -> Double { clamp(50 + 25 * z) }

    /// `clamp(50 − 25·z, 0, 100)` with z over resting heart rate.
    package static func rhrScore(z: Double) -> Double { clamp(50 - 25 * z) }

    /// `clamp(100·minutes/target, 0, 100)`; `nil` when the target is not a positive number.
    package static func sleepScore(minutes: Double, targetMinutes: Double) -> Double? {
        guard targetMinutes > 0, targetMinutes.isFinite else { return nil }
        return clamp(100 * minutes / targetMinutes)
    }

    /// The status of an unrounded score.
    package static func status(score: Double?) -> ReadinessStatus {
        guard let score else { return .insufficientData }
        if score >= readyThreshold { return .ready }
        if score >= moderateThreshold { return .moderate }
        return .rest
    }

    /// `value` limited to 0…100.
    package static func clamp(_ value: Double) -> Double {
        min(max(value, 0), 100)
    }
}
