import DuneEvents
import DuneTools

/// Why `history` and `tail` make an event stand out: a marker in the table
/// (`!` after the seq) and, on a colour terminal, the row in colour.
enum EventMarker {
    /// A refresh the coordinator throttled.
    case throttled
    /// A task that started and has no later completion, failure or cancellation in the log.
    case neverEnded

    /// The marker an event earns by itself (a throttled refresh); `nil` for most events.
    static func marker(for event: RecordedEvent) -> EventMarker? {
        if case .refreshRequested(let refresh) = event.payload, refresh.outcome == .throttled { return .throttled }
        return nil
    }

    /// The marker for `event` given the seqs of the `task.started` events that never ended.
    static func marker(for event: RecordedEvent, unfinishedStarts: Set<Int>) -> EventMarker? {
        unfinishedStarts.contains(event.seq) ? .neverEnded : marker(for: event)
    }

    /// The text added after the event's detail.
    var note: String {
        switch self {
        case .throttled: ""
        case .neverEnded: "  ← started, never ended"
        }
    }

    /// Wraps `row` in this marker's colour.
    func colored(_ row: String) -> String {
        switch self {
        case .throttled: "\u{1B}[33m\(row)\u{1B}[0m"
        case .neverEnded: "\u{1B}[1;31m\(row)\u{1B}[0m"
        }
    }

    /// The seqs of `task.started` events with no later `task.completed`, `task.failed`
    /// or `task.cancelled` for the same task id.
    /// - Complexity: one pass over the log; memory O(tasks in flight).
    static func unfinishedTaskStarts(path: String) throws -> Set<Int> {
        var open = UnfinishedTasks()
        var lastSeq = 0
        do {
            try LogReader(path: path).forEachEventBatch { batch in
                // Task events are never packed samples: only the batch's other events need reading.
                for event in batch.otherEvents {
                    guard case .task(let task) = event.payload else { continue }
                    open.apply(task, seq: event.seq)
                }
                if let last = batch.lastSeq { lastSeq = last }
            }
        } catch let error as DuneEventsError where error.code == .newerVersion {
            // From a line of a newer version on, line by line, past the lines this build cannot read.
            try LogReader(path: path).forEachInspectedLine(after: lastSeq) { line in
                guard case .event(let event) = line, case .task(let task) = event.payload else { return }
                open.apply(task, seq: event.seq)
            }
        }
        return Set(open.startSeqs)
    }
}
