import DuneEvents

/// What inspecting a log reads of a decoded batch: its events in full, and counts.
extension EventBatch {
    /// The `seq` of the first event; `nil` when empty.
    package var firstSeq: Int? { isEmpty ? nil : seq(at: 0) }

    /// The type of the event at `position`.
    package func type(at position: Int) -> EventType {
        let row = rows[position]
        return row >= 0 ? .sampleIngested : others[Int(~row)].type
    }

    /// The events that are not `sample.ingested` (kept in full), in order.
    package var otherEvents: [RecordedEvent] {
        Array(others[otherIndices])
    }

    /// Every event, in full.
    package var events: [RecordedEvent] {
        (0..<count).map { self[$0] }
    }

    /// How many events of the batch have a timestamp outside ``TimestampWindow``:
    /// the events every projection skips.
    /// - Complexity: O(n).
    package var outsideTimestampWindowCount: Int {
        (0..<count).reduce(0) { skipped, position in skipped + (isOutsideTimestampWindow(at: position) ? 1 : 0) }
    }
}

extension Event {
    /// Whether this is an event of a forgotten sample.
    package var isRedacted: Bool {
        if case .redacted = payload { return true }
        return false
    }
}

extension RecordedEvent {
    /// Whether this is an event of a forgotten sample.
    package var isRedacted: Bool { event.isRedacted }
}
