import DuneEvents

extension WeeklyStatsModel {
    /// The version of the weekly-stats model's output (see ``TrendsModel/foldVersion``).
    package static let foldVersion: UInt32 = 1
    /// CRC-32 of `weekly-stats.json` rebuilt from the shipped sample log at ``foldVersion``.
    package static let foldVersionOutputCRC: UInt32 = 0xcf0192f4
}
