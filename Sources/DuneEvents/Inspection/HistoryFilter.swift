/// Selects events for `dune-replay history`: by type, sample kind, date, seq,
/// sample id or task id. All conditions must hold.
public struct HistoryFilter: Sendable {
    public var types: Set<EventType> = []
    public var kinds: Set<SampleKind> = []
    /// Inclusive local-date bounds on ``RecordedEvent/occurredAt``.
    public var since: DayKey?
    public var until: DayKey?
    public var seqs: ClosedRange<Int>?
    public var sampleID: String?
    public var taskID: String?

    public init() {}

    /// Whether `event` passes every condition.
    public func matches(_ event: RecordedEvent) -> Bool {
        if let seqs, !seqs.contains(event.seq) { return false }
        if !types.isEmpty, !types.contains(event.type) { return false }
        if !kinds.isEmpty {
            guard let kind = event.sampleKind, kinds.contains(kind) else { return false }
        }
        if since != nil || until != nil {
            let day = event.occurredAt.localDate
            if let since, day < since { return false }
            if let until, day > until { return false }
        }
        if let sampleID, event.sampleID != sampleID { return false }
        if let taskID {
            guard case .task(let task) = event.payload, task.task == taskID else { return false }
        }
        return true
    }
}

extension RecordedEvent {
    /// When the event happened in the user's world: a sample's start, else its `at`.
    public var occurredAt: Timestamp {
        switch payload {
        case .sampleIngested(let sample): sample.start
        case .sampleDeleted(let deletion): deletion.at
        case .refreshRequested(let refresh): refresh.at
        case .task(let task): task.at
        case .profileUpdated(let profile): profile.at
        }
    }

    /// The sample kind of an ingested sample, or the kind a refresh names.
    public var sampleKind: SampleKind? {
        switch payload {
        case .sampleIngested(let sample): sample.kind
        case .refreshRequested(let refresh): refresh.kind
        default: nil
        }
    }

    /// The sample id of an ingest or deletion.
    public var sampleID: String? {
        switch payload {
        case .sampleIngested(let sample): sample.id
        case .sampleDeleted(let deletion): deletion.sampleID
        default: nil
        }
    }
}
