import DuneProjections

/// What one sync of one type did.
public struct SyncResult: Sendable, Hashable {
    /// How a sync ended.
    public enum Outcome: Sendable, Hashable {
        /// The source has no more changes: the type is current.
        case completed
        /// The budget was spent; the next sync resumes from the stored anchor.
        case budgetExhausted
        /// A query failed (``SyncSourceError``) or the store failed (`DuneEventsError`);
        /// the pages stored before it stay, the anchor is the last stored one.
        case failed(String)
        /// The sync's task was cancelled; the pages stored before stay.
        case cancelled
    }

    /// The sample type.
    public var type: SampleKind
    /// How it ended.
    public var outcome: Outcome
    /// The task id of the sync (`task.*` events of feature `sync.<type>`).
    public var task: String
    /// Pages stored.
    public var pages: Int = 0
    /// Samples appended (new or corrections).
    public var appended: Int = 0
    /// Samples already stored with the same content (re-deliveries).
    public var alreadyAppended: Int = 0
    /// Deletions appended.
    public var deleted: Int = 0
    /// Samples not appended, by reason code (input-rule rejections and unmapped samples).
    public var rejected: [String: Int] = [:]
    /// The earliest `start` among the samples stored: how far back this sync reached.
    public var earliestStart: Timestamp?
    /// The anchor stored last (`nil` when no page was stored and none was before).
    public var anchor: SyncAnchor?

    /// Creates a result (for tests and sources that report one).
    /// - Parameters:
    ///   - type: The sample type.
    ///   - outcome: How it ended.
    ///   - task: The sync's task id.
    public init(type: SampleKind, outcome: Outcome, task: String) {
        self.type = type
        self.outcome = outcome
        self.task = task
    }

    /// Samples the stored pages delivered (appended, already stored and rejected).
    public var samplesDelivered: Int = 0

    /// The number of samples not appended, all reasons together.
    public var rejectedCount: Int { rejected.values.reduce(0, +) }
}

extension SyncResult {
    /// Adds what one stored page did.
    mutating func add(_ tally: SyncPageWriter.Tally) {
        pages += 1
        appended += tally.appended
        alreadyAppended += tally.alreadyAppended
        deleted += tally.deleted
        samplesDelivered += tally.samples
        for (reason, count) in tally.rejected { rejected[reason, default: 0] += count }
        if let start = tally.earliestStart, earliestStart.map({ start < $0 }) ?? true { earliestStart = start }
    }
}

/// What one reconcile of one type did.
public struct ReconcileResult: Sendable, Hashable {
    /// The sample type.
    public var type: SampleKind
    /// The days checked.
    public var days: ClosedRange<DayKey>
    /// The ids of the stored samples deleted because the source no longer holds them, in id order.
    public var deletedIDs: [String]

    /// Creates a result.
    /// - Parameters:
    ///   - type: The sample type.
    ///   - days: The days checked.
    ///   - deletedIDs: The ids deleted.
    public init(type: SampleKind, days: ClosedRange<DayKey>, deletedIDs: [String]) {
        self.type = type
        self.days = days
        self.deletedIDs = deletedIDs
    }
}
