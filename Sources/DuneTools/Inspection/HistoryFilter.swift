import DuneEvents

/// Selects events for `dune-replay history`: by type, sample kind, date, seq,
/// sample id or task id. All conditions must hold.
package struct HistoryFilter: Sendable {
    package var types: Set<EventType> = []
    package var kinds: Set<SampleKind> = []
    /// Inclusive bounds on ``RecordedEvent/day``: a sample's day by the read
    /// models' rule (a sleep sample's is the night it counts for), else the
    /// local date of its `at`.
    package var since: DayKey?
    package var until: DayKey?
    package var seqs: ClosedRange<Int>?
    package var sampleID: String?
    package var taskID: String?

    package init() {}

    /// Whether `event` passes every condition.
    package func matches(_ event: RecordedEvent) -> Bool {
        if let seqs, !seqs.contains(event.seq) { return false }
        if !types.isEmpty, !types.contains(event.type) { return false }
        if !kinds.isEmpty {
            guard let kind = event.sampleKind, kinds.contains(kind) else { return false }
        }
        if since != nil || until != nil {
            // A redacted line, a forget record or a sync anchor has no date of its own: date filters skip it.
            if event.isRedacted || event.type == .dataForgotten || event.type == .syncAnchored { return false }
            let day = event.day
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

extension HistoryFilter {
    /// Whether any event of `type` can pass: `false` when the filter names
    /// other types, or asks for a sample kind or sample id that `type` never
    /// carries. Lets a caller skip work for events it will never show.
    package func canMatch(_ type: EventType) -> Bool {
        if !types.isEmpty, !types.contains(type) { return false }
        let carriesKind = type == .sampleIngested || type == .refreshRequested
        if !kinds.isEmpty, !carriesKind { return false }
        if sampleID != nil, type != .sampleIngested, type != .sampleDeleted { return false }
        let isTask = [.taskStarted, .taskCompleted, .taskFailed, .taskCancelled].contains(type)
        if taskID != nil, !isTask { return false }
        return true
    }

    /// Whether the event at `position` of `batch` passes every condition —
    /// ``matches(_:)`` without rebuilding the event when it is a packed sample,
    /// so filtering a large log costs little more than decoding it.
    package func matches(_ batch: EventBatch, at position: Int) -> Bool {
        let row = batch.rows[position]
        guard row >= 0 else { return matches(batch.others[Int(~row)]) }
        let packed = batch.samples.rows[Int(row)]
        if packed.isFull { return matches(batch[position]) }
        if let seqs, !seqs.contains(packed.seq) { return false }
        if !types.isEmpty, !types.contains(.sampleIngested) { return false }
        if !kinds.isEmpty, !kinds.contains(packed.kind) { return false }
        if since != nil || until != nil {
            let day = DayKey(ordinal: packed.packedDayOrdinal)
            if let since, day < since { return false }
            if let until, day > until { return false }
        }
        if let sampleID, PackedUUID(sampleID) != packed.packedID { return false }
        if taskID != nil { return false }
        return true
    }
}

extension RecordedEvent {
    /// When the event happened in the user's world: a sample's start, else its `at`.
    package var occurredAt: Timestamp {
        switch payload {
        case .sampleIngested(let sample): sample.start
        case .sampleDeleted(let deletion): deletion.at
        case .refreshRequested(let refresh): refresh.at
        case .task(let task): task.at
        case .profileUpdated(let profile): profile.at
        case .redacted, .dataForgotten, .syncAnchored: recordedAt
        }
    }

    /// The date a user filters and counts by (`history --since/--until`,
    /// `stats`, `forget --from/--to`): a sample's ``Sample/day`` — the local
    /// date of its start, for sleep of `end + 6 h`, the night it counts for —
    /// else the local date of ``occurredAt``.
    package var day: DayKey {
        if case .sampleIngested(let sample) = payload { return sample.day }
        return occurredAt.localDate
    }

    /// The sample kind of an ingested sample, or the kind a refresh names.
    package var sampleKind: SampleKind? {
        switch payload {
        case .sampleIngested(let sample): sample.kind
        case .refreshRequested(let refresh): refresh.kind
        case .syncAnchored(let record): record.sampleType
        default: nil
        }
    }

    /// The sample id of an ingest or deletion.
    package var sampleID: String? {
        switch payload {
        case .sampleIngested(let sample): sample.id
        case .sampleDeleted(let deletion): deletion.sampleID
        case .redacted(let redacted): redacted.sampleID
        default: nil
        }
    }
}
