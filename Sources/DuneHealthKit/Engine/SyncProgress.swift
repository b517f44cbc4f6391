import DuneProjections

/// Where a sync of one type is, after each stored page: for a progress view
/// during a first sync of years of history.
public struct SyncProgress: Sendable, Hashable {
    /// The sample type.
    public var type: SampleKind
    /// The sync's task id.
    public var task: String
    /// Pages stored by this sync so far.
    public var pages: Int
    /// Samples the stored pages delivered (appended, already stored and rejected).
    public var samples: Int
    /// The earliest `start` stored by this sync so far: how far back it has reached.
    public var earliestStart: Timestamp?
    /// Whether the sync has ended (the last element for this task).
    public var isFinished: Bool

    /// Creates a progress value.
    /// - Parameters:
    ///   - type: The sample type.
    ///   - task: The sync's task id.
    ///   - pages: Pages stored so far.
    ///   - samples: Samples delivered so far.
    ///   - earliestStart: The earliest start stored so far.
    ///   - isFinished: Whether the sync has ended.
    public init(type: SampleKind, task: String, pages: Int, samples: Int, earliestStart: Timestamp?, isFinished: Bool) {
        self.type = type
        self.task = task
        self.pages = pages
        self.samples = samples
        self.earliestStart = earliestStart
        self.isFinished = isFinished
    }
}
