import DuneEvents

/// Keeps projections current for an app: appends go through the ``EventLog``
/// and the appended events are folded in as soon as they are durable.
///
/// ```swift
/// let log = try EventLog(path: path)
/// let live = LiveProjections(log: log, projections: ProjectionSet())
/// try await live.catchUp()                       // fold what the log already holds
/// try await live.ingest([try InputParser.parse(line)])
/// let readiness = await live.projections.readiness?.readModel()
/// ```
///
/// Projections restored from elsewhere (e.g. kept in memory across a log
/// reopen) catch up from their own `throughSeq`: only later events are read.
package actor LiveProjections {
    package let log: EventLog
    package let projections: ProjectionSet

    package init(log: EventLog, projections: ProjectionSet) {
        self.log = log
        self.projections = projections
    }

    /// Folds every event after the projections' `throughSeq`, reading the log file.
    ///
    /// - Returns: what was replayed.
    /// - Throws: `corruptLog` when the log is damaged.
    @discardableResult
    package func catchUp() async throws -> Replayer.Summary {
        let after = await projections.throughSeq()
        return try await Replayer.replay(try LogReader(path: log.path), range: LogReader.Range(after: after), into: projections)
    }

    /// Appends `commands` (one durable batch) and folds the appended events.
    ///
    /// - Throws: what ``EventLog/ingest(_:atomic:)`` throws; nothing is folded then.
    package func ingest(_ commands: [IngestCommand], atomic: Bool = false) async throws -> EventLog.BatchResult {
        let result = try await log.ingest(commands, atomic: atomic)
        await projections.apply(result.appended)
        return result
    }
}
