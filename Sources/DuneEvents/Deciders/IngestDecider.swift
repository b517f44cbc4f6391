/// Whether an input line was appended (SPEC §3).
public enum IngestOutcome: String, Sendable, Hashable, CaseIterable {
    /// New events were appended.
    case appended
    /// The line was already in the log; nothing was appended.
    case alreadyAppended
    /// The idempotency key was used before with different content; the line is rejected.
    case conflict
}

/// The decision for one input line.
public struct IngestDecision: Sendable, Hashable {
    public var outcome: IngestOutcome
    /// The events to append, in order (empty unless `appended`).
    public var events: [Event]
    /// Why the line was not appended (for `alreadyAppended` and `conflict`).
    public var reason: String?

    public init(outcome: IngestOutcome, events: [Event] = [], reason: String? = nil) {
        self.outcome = outcome
        self.events = events
        self.reason = reason
    }
}

/// Everything ingest must know about the log to decide on new lines:
/// idempotency keys, sample versions, the refresh coordinator and in-flight tasks.
///
/// A pure decider: ``decide(_:)`` turns a validated line into events, and
/// ``evolve(with:)`` folds each appended event back in. Rebuilding the state
/// from the log gives the same decisions as the process that wrote it.
///
/// Idempotency (SPEC §3, plus decisions recorded in the README):
/// - an `eventID` seen with the same content → `alreadyAppended`; with other content → `conflict`;
/// - a sample whose id was ever stored with identical content → `alreadyAppended`
///   (a re-sent old version is not a correction), other content → appended as a correction;
/// - `sampleDeleted` for an id that is not live (never seen, or already deleted) → `alreadyAppended`;
/// - a refresh or profile line identical to one already stored → `alreadyAppended`;
/// - a task line for a (task, phase) already stored → `alreadyAppended` when identical, else `conflict`.
public struct IngestState: Sendable {
    public var refresh = RefreshCoordinator.State()
    public var tasks = TaskLifecycle.State()
    /// eventID digest → content digest and the seq that stored it.
    private var eventIDs: [ContentDigest: StoredContent] = [:]
    /// sample id digest → the content digest it was first stored with.
    private var firstSampleVersion: [ContentDigest: ContentDigest] = [:]
    /// sample id digest → digests of its corrections (most samples have none,
    /// so they cost no array of their own).
    private var laterSampleVersions: [ContentDigest: [ContentDigest]] = [:]
    /// sample id digests whose latest event is an ingest, not a deletion.
    private var liveSamples: Set<ContentDigest> = []
    /// Digests of stored refresh and profile lines.
    private var storedLines: Set<ContentDigest> = []
    /// (task, phase) digest → content digest and seq.
    private var taskPhases: [ContentDigest: StoredContent] = [:]
    /// The seq of the last event folded in.
    public private(set) var lastSeq = 0

    private struct StoredContent: Sendable {
        var content: ContentDigest
        var seq: Int
    }

    public init() {}

    /// The decision for `command` in the current state. Does not change the state.
    public func decide(_ command: IngestCommand) -> IngestDecision {
        let content = ContentDigest(command.content)
        if let eventID = command.eventID, let stored = eventIDs[ContentDigest(string: eventID)] {
            if stored.content == content {
                return IngestDecision(outcome: .alreadyAppended, reason: "eventID \"\(eventID)\" is already in the log (seq \(stored.seq))")
            }
            return IngestDecision(outcome: .conflict,
                                  reason: "eventID \"\(eventID)\" is already in the log (seq \(stored.seq)) with different content; use a new eventID for a new event")
        }
        func event(_ payload: Event.Payload) -> Event {
            Event(payload, eventID: command.eventID, extra: command.extra)
        }
        switch command.intent {
        case .sample(let sample):
            if hasStored(sampleKey: ContentDigest(string: sample.id), content: content) {
                return IngestDecision(outcome: .alreadyAppended, reason: "sample \(sample.id) is already in the log with this content")
            }
            return IngestDecision(outcome: .appended, events: [event(.sampleIngested(sample))])
        case .deleteSample(let deletion):
            guard liveSamples.contains(ContentDigest(string: deletion.sampleID)) else {
                return IngestDecision(outcome: .alreadyAppended, reason: "sample \(deletion.sampleID) is not in the log or already deleted")
            }
            return IngestDecision(outcome: .appended, events: [event(.sampleDeleted(deletion))])
        case .refresh(let request):
            if storedLines.contains(content) {
                return IngestDecision(outcome: .alreadyAppended, reason: "an identical refresh request is already in the log")
            }
            return IngestDecision(outcome: .appended, events: [event(.refreshRequested(RefreshCoordinator.decide(refresh, request)))])
        case .task(let command):
            if let stored = taskPhases[Self.taskKey(command.task, command.phase)] {
                if stored.content == content {
                    return IngestDecision(outcome: .alreadyAppended, reason: "task \(command.task) \(command.phase.rawValue) is already in the log (seq \(stored.seq))")
                }
                return IngestDecision(outcome: .conflict,
                                      reason: "task \(command.task) already has a \(command.phase.rawValue) event (seq \(stored.seq)) with different content")
            }
            let records = TaskLifecycle.decide(tasks, command)
            let events = records.enumerated().map { index, record in
                // Only the record that answers the line carries its eventID and extra fields.
                index == records.count - 1 ? event(.task(record)) : Event(.task(record))
            }
            return IngestDecision(outcome: .appended, events: events)
        case .profile(let profile):
            if storedLines.contains(content) {
                return IngestDecision(outcome: .alreadyAppended, reason: "an identical profile update is already in the log")
            }
            return IngestDecision(outcome: .appended, events: [event(.profileUpdated(profile))])
        }
    }

    /// Folds a stored event into the state. Events must come in `seq` order.
    ///
    /// - Parameter content: the event's input content when the caller already
    ///   has it (ingest); `nil` recomputes it from the event (replay on open).
    public mutating func evolve(with recorded: RecordedEvent, content: [UInt8]? = nil) {
        lastSeq = recorded.seq
        let event = recorded.event
        let digest = (content ?? event.inputContent).map { ContentDigest($0) }
        if let eventID = event.eventID, let digest {
            eventIDs[ContentDigest(string: eventID)] = StoredContent(content: digest, seq: recorded.seq)
        }
        switch event.payload {
        case .sampleIngested(let sample):
            let key = ContentDigest(string: sample.id)
            if let digest, !hasStored(sampleKey: key, content: digest) {
                if firstSampleVersion[key] == nil {
                    firstSampleVersion[key] = digest
                } else {
                    laterSampleVersions[key, default: []].append(digest)
                }
            }
            liveSamples.insert(key)
        case .sampleDeleted(let deletion):
            liveSamples.remove(ContentDigest(string: deletion.sampleID))
        case .refreshRequested(let record):
            RefreshCoordinator.evolve(&refresh, with: record)
            if let digest { storedLines.insert(digest) }
        case .task(let record):
            TaskLifecycle.evolve(&tasks, with: record)
            if let digest {
                taskPhases[Self.taskKey(record.task, record.requestedPhase ?? record.phase)] = StoredContent(content: digest, seq: recorded.seq)
            }
        case .profileUpdated:
            if let digest { storedLines.insert(digest) }
        }
    }

    /// Whether the sample with id digest `sampleKey` was ever stored with `content`.
    private func hasStored(sampleKey: ContentDigest, content: ContentDigest) -> Bool {
        guard let first = firstSampleVersion[sampleKey] else { return false }
        return first == content || (laterSampleVersions[sampleKey]?.contains(content) ?? false)
    }

    private static func taskKey(_ task: String, _ phase: TaskPhase) -> ContentDigest {
        ContentDigest(string: phase.rawValue + "\u{0}" + task)
    }
}
