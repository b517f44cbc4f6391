import DuneEvents

/// The weekly-stats projection (docs/read-models.md): per-sample state folded from `sample.*` events.
package typealias WeeklyStatsProjection = SampleProjection<WeeklyStatsModel>

extension WeeklyStatsModel: SampleDailyModel {
    package static var projectionName: ProjectionName { .weeklyStats }

    /// Content of steps and workouts; other kinds by day only.
    package static var retainedKinds: Set<SampleKind> { [.stepCount, .workout] }

    package static let foldVersion: UInt32 = 1
    package static let foldVersionOutputCRC: UInt32 = 0xcf0192f4
}
