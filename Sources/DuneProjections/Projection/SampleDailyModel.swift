import DuneEvents

/// A read model computed from samples alone, one ``DailyValues`` per day: the
/// parameter of a ``SampleProjection``, naming its projection, the kinds whose
/// content it needs and the version of its output.
package protocol SampleDailyModel: ReadModel {
    /// The projection that folds this model.
    static var projectionName: ProjectionName { get }

    /// The kinds whose content the fold keeps; other kinds are kept by day only.
    static var retainedKinds: Set<SampleKind> { get }

    /// The version of the fold's output: bump it whenever a change makes the
    /// fold produce other bytes for the same log, so that snapshots taken by
    /// the older code are not used (see `ProjectionSnapshot`).
    static var foldVersion: UInt32 { get }

    /// CRC-32 of the model's file rebuilt from the shipped sample log
    /// (`Logs/events.jsonl`) at ``foldVersion``: `FoldVersionTests` fails when
    /// the output changes and these two constants do not.
    static var foldVersionOutputCRC: UInt32 { get }

    /// The model of `daily` (every day with a sample, ascending).
    init(throughSeq: Int, daily: [DailyValues])

    /// The model from a snapshot's ``DailyMetrics`` of every day, or `nil`
    /// when the model is not computed from them (the default).
    init?(throughSeq: Int, metrics days: [DailyMetrics])
}

extension SampleDailyModel {
    package init?(throughSeq: Int, metrics days: [DailyMetrics]) {
        return nil
    }
}
