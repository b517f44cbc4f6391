/// Everything ingest must know about the log to decide on new lines:
/// idempotency keys, sample versions, the refresh coordinator and in-flight tasks.
///
/// A pure decider: ``decide(_:)`` turns a validated line into events, and
/// ``evolve(with:)`` folds each appended event back in. Rebuilding the state
/// from the log gives the same decisions as the process that wrote it.
///
/// Idempotency (docs/input-format.md):
/// - an `eventID` seen with the same content → `alreadyAppended`; with other content → `conflict`;
/// - a sample whose id was ever stored with identical content → `alreadyAppended`
///   (a re-sent old version is not a correction), other content → appended as a correction;
///   except that a line with an `eventID` the log has not seen, whose content equals an older
///   version of a live sample but not its current one, is a correction back to that version
///   (how an app reverts 48 → 50 → 48);
/// - `sampleDeleted` for an id that is not live (never seen, or already deleted) → `alreadyAppended`;
/// - a refresh or profile line identical to one already stored → `alreadyAppended`;
/// - a task line for a (task, phase) already stored → `alreadyAppended` when identical, else `conflict`;
/// - a sample or `sampleDeleted` line for a forgotten sample → `alreadyAppended` with the reason
///   ``forgottenReason(_:)``: a forgotten sample is never stored again.
package struct IngestState: Sendable {
    package var refresh = RefreshCoordinator.State()
    package var tasks = TaskLifecycle.State()
    /// eventID digest → content digest and the seq that stored it.
    var eventIDs = DigestTable<StoredContent>()
    /// sample id digest → the content it was first stored with, its corrections, whether it is live.
    var samples = DigestTable<SampleVersions>()
    /// Content digests of corrections, per sample that has any (`SampleVersions.later`).
    var laterSampleVersions: [[ContentDigest]] = []
    /// The current content of each sample that has corrections, beside
    /// `laterSampleVersions` (a sample never corrected is at its `first`):
    /// after a correction back it is an older version, not the last one added.
    var currentSampleVersions: [ContentDigest] = []
    /// (sample, content) pair digests of the corrections of samples corrected at
    /// least ``indexedCorrections`` times, so that a sample corrected 50 000 times
    /// is checked by one lookup, not a scan of its versions. Derived from
    /// `laterSampleVersions` (rebuilt on a checkpoint load, not stored).
    var manyCorrections = DigestTable<Bool>()
    /// Corrections of one sample beyond which ``manyCorrections`` holds them.
    static let indexedCorrections = 8
    /// Digests of stored refresh and profile lines (the value is unused).
    var storedLines = DigestTable<Bool>()
    /// (task, phase) digest → content digest and seq.
    var taskPhases = DigestTable<StoredContent>()
    /// Digests of the ids of forgotten samples (redacted by `forget`; the value is unused).
    var forgottenSamples = DigestTable<Bool>()
    /// The seq of the last event folded in.
    package internal(set) var lastSeq = 0
    /// Where a replay's ``DigestTable/warm(_:first:count:)`` loads go.
    var warmed: UInt64 = 0

    struct StoredContent: Sendable, Equatable {
        var content: ContentDigest
        var seq: Int
        /// Whether `content` is not computed yet (zero until then): a replay
        /// leaves a task phase's content to be read back from event `seq`
        /// when a line for that (task, phase) arrives (IngestState+Deferred.swift).
        var contentIsDeferred = false
    }

    /// What is remembered of one sample id.
    struct SampleVersions: Sendable, Equatable {
        /// The content it was first stored with; while ``firstIsDeferred``,
        /// the seq of the event that stored it (``deferred(seq:)``).
        var first: ContentDigest
        /// Index into `laterSampleVersions`, or -1 when it was never corrected.
        /// (Before the flags: 24 bytes a sample, not 32, in a table of a million.)
        var later: Int32
        /// Whether its latest event is an ingest, not a deletion.
        var live: Bool
        /// Whether the digest of the first content is not computed yet: a
        /// replay leaves it to be read back from the log when a line with
        /// this sample id arrives (IngestState+Deferred.swift).
        var firstIsDeferred: Bool

        init(first: ContentDigest, live: Bool, later: Int32, firstIsDeferred: Bool = false) {
            self.first = first
            self.later = later
            self.live = live
            self.firstIsDeferred = firstIsDeferred
        }

        /// A sample first stored by event `seq`, its content digest deferred.
        static func deferred(seq: Int) -> SampleVersions {
            SampleVersions(first: ContentDigest(high: 0, low: UInt64(seq)), live: true, later: -1, firstIsDeferred: true)
        }

        /// The seq of the event that first stored the sample, while its digest is deferred.
        var deferredSeq: Int? { firstIsDeferred ? Int(first.low) : nil }
    }

    package init() {}

    /// The decision for `command` in the current state. Does not change the state.
    package func decide(_ command: IngestCommand) -> IngestDecision {
        decide(command, contentDigest: ContentDigest(command.content))
    }

    /// ``decide(_:)`` with the digest of `command.content` already computed.
    func decide(_ command: IngestCommand, contentDigest content: ContentDigest) -> IngestDecision {
        switch command.intent {
        case .sample(let sample) where isForgotten(sample.id):
            return IngestDecision(outcome: .alreadyAppended, reason: Self.forgottenReason(sample.id))
        case .deleteSample(let deletion) where isForgotten(deletion.sampleID):
            return IngestDecision(outcome: .alreadyAppended, reason: Self.forgottenReason(deletion.sampleID))
        default:
            break
        }
        if let eventID = command.eventID, let decision = decision(eventID: eventID, content: content) {
            return decision
        }
        func event(_ payload: Event.Payload) -> Event {
            Event(payload, eventID: command.eventID, extra: command.extra)
        }
        switch command.intent {
        case .sample(let sample):
            if isStored(sampleKey: ContentDigest(string: sample.id), content: content, newEventID: command.eventID != nil) {
                return IngestDecision(outcome: .alreadyAppended, reason: Self.storedSampleReason(sample.id))
            }
            return IngestDecision(outcome: .appended, events: [event(.sampleIngested(sample))])
        case .deleteSample(let deletion):
            guard samples[ContentDigest(string: deletion.sampleID)]?.live == true else {
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
                precondition(!stored.contentIsDeferred, "IngestState: a task phase's deferred content must be resolved before a decision reads it")
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
        case .syncAnchor(let record):
            // Each page's anchor is appended, even when every sample of the page was already stored.
            return IngestDecision(outcome: .appended, events: [event(.syncAnchored(record))])
        }
    }

    /// The decision when `eventID` is already in the log; `nil` when it is new.
    private func decision(eventID: String, content: ContentDigest) -> IngestDecision? {
        guard let stored = eventIDs[ContentDigest(string: eventID)] else { return nil }
        if stored.content == content {
            return IngestDecision(outcome: .alreadyAppended, reason: "eventID \"\(eventID)\" is already in the log (seq \(stored.seq))")
        }
        return IngestDecision(outcome: .conflict,
                              reason: "eventID \"\(eventID)\" is already in the log (seq \(stored.seq)) with different content; use a new eventID for a new event")
    }

    /// Whether the sample with id `sampleID` was forgotten.
    package func isForgotten(_ sampleID: String) -> Bool {
        forgottenSamples.count > 0 && forgottenSamples.contains(ContentDigest(string: sampleID))
    }

    /// The reason given for a line of a forgotten sample; ``isForgottenReason(_:)`` recognises it.
    package static func forgottenReason(_ id: String) -> String {
        "sample \(id) \(forgottenReasonSuffix)"
    }

    private static let forgottenReasonSuffix = "was forgotten (erased by forget); it is never stored again"

    /// Whether `reason` is the one given for a line of a forgotten sample.
    package static func isForgottenReason(_ reason: String?) -> Bool {
        reason?.hasSuffix(forgottenReasonSuffix) ?? false
    }

    private static func storedSampleReason(_ id: String) -> String {
        "sample \(id) is already in the log with this content"
    }

    /// ``decide(_:)`` for a prepared sample: the outcome and reason the
    /// command it stands for would get (it would append exactly one event).
    func decide(_ sample: PreparedSample) -> (outcome: IngestOutcome, reason: String?) {
        if forgottenSamples.count > 0, forgottenSamples.contains(sample.key) {
            return (.alreadyAppended, Self.forgottenReason(sample.id.text))
        }
        if let eventID = sample.eventID, let decision = decision(eventID: eventID, content: sample.content) {
            return (decision.outcome, decision.reason)
        }
        if isStored(sampleKey: sample.key, content: sample.content, newEventID: sample.eventID != nil) {
            return (.alreadyAppended, Self.storedSampleReason(sample.id.text))
        }
        return (.appended, nil)
    }

    /// ``evolve(with:content:)`` for the event of a prepared sample, stored as `seq`.
    mutating func evolve(_ sample: PreparedSample, seq: Int) {
        lastSeq = seq
        if let eventID = sample.eventID {
            eventIDs.set(ContentDigest(string: eventID), StoredContent(content: sample.content, seq: seq))
        }
        evolveSample(key: sample.key, content: sample.content)
    }

    /// Folds a stored event into the state. Events must come in `seq` order.
    ///
    /// - Parameter content: the event's input content when the caller already
    ///   has it (ingest); `nil` recomputes it from the event (replay on open).
    package mutating func evolve(with recorded: RecordedEvent, content: [UInt8]? = nil) {
        evolve(with: recorded, contentDigest: (content ?? recorded.event.inputContent).map { ContentDigest($0) })
    }

    /// ``evolve(with:content:)`` with the content's digest already computed
    /// (`nil` for an event without input content: a superseding cancellation).
    mutating func evolve(with recorded: RecordedEvent, contentDigest digest: ContentDigest?) {
        evolve(seq: recorded.seq, event: recorded.event, contentDigest: digest)
    }

    /// ``evolve(with:contentDigest:)`` for the event stored as `seq` (a
    /// replay passes an event of its batch without rebuilding the recorded
    /// event around it).
    mutating func evolve(seq: Int, event: Event, contentDigest digest: ContentDigest?) {
        lastSeq = seq
        if let eventID = event.eventID, let digest {
            eventIDs.set(ContentDigest(string: eventID), StoredContent(content: digest, seq: seq))
        }
        switch event.payload {
        case .sampleIngested(let sample):
            evolveSample(key: ContentDigest(string: sample.id), content: digest)
        case .sampleDeleted(let deletion):
            if let index = samples.index(of: ContentDigest(string: deletion.sampleID)) {
                samples.update(at: index) { $0.live = false }
            }
        case .refreshRequested(let record):
            RefreshCoordinator.evolve(&refresh, with: record)
            if let digest, !storedLines.contains(digest) { storedLines.append(digest, true) }
        case .task(let record):
            TaskLifecycle.evolve(&tasks, with: record)
            if let digest {
                taskPhases.set(Self.taskKey(record.task, record.requestedPhase ?? record.phase), StoredContent(content: digest, seq: seq))
            }
        case .profileUpdated:
            if let digest, !storedLines.contains(digest) { storedLines.append(digest, true) }
        case .redacted(let redacted):
            let key = ContentDigest(string: redacted.sampleID)
            if !forgottenSamples.contains(key) { forgottenSamples.append(key, true) }
        case .dataForgotten, .syncAnchored:
            break
        }
    }

    /// A sample with id digest `key` was stored with `content`: remember the version, mark it live.
    mutating func evolveSample(key: ContentDigest, content: ContentDigest?) {
        guard let index = samples.index(of: key) else {
            // Every stored sample has input content; an event without would still make the id live.
            samples.append(key, SampleVersions(first: content ?? ContentDigest(high: 0, low: 0), live: true, later: -1))
            return
        }
        let versions = samples.values[index]
        precondition(!versions.firstIsDeferred, "IngestState: a sample's deferred content must be resolved before it is folded again")
        if let content, hasStored(versions, key: key, content: content) {
            // A correction back to an older version (or the same content again): it is current now.
            if versions.later >= 0 { currentSampleVersions[Int(versions.later)] = content }
        } else if let content {
            if versions.later < 0 {
                let later = Int32(laterSampleVersions.count)
                samples.update(at: index) { $0.later = later }
                laterSampleVersions.append([content])
                currentSampleVersions.append(content)
            } else {
                let later = Int(versions.later)
                laterSampleVersions[later].append(content)
                currentSampleVersions[later] = content
                let count = laterSampleVersions[later].count
                if count == Self.indexedCorrections {
                    for digest in laterSampleVersions[later] { manyCorrections.set(Self.pair(key, digest), true) }
                } else if count > Self.indexedCorrections {
                    manyCorrections.set(Self.pair(key, content), true)
                }
            }
        }
        if !versions.live { samples.update(at: index) { $0.live = true } }
    }

    /// Whether a sample line with id digest `sampleKey` and `content` is
    /// already in the log: the sample was ever stored with `content` — unless
    /// the line carries an `eventID` the log has not seen (`newEventID`; a
    /// seen one was decided before), the sample is live and `content` is not
    /// its current version: that line corrects the sample back to an older
    /// version. A line without an `eventID` never does, so
    /// re-ingesting an old file never undoes a correction, and a deleted
    /// sample is never revived by an old version.
    private func isStored(sampleKey: ContentDigest, content: ContentDigest, newEventID: Bool) -> Bool {
        guard let versions = samples[sampleKey], hasStored(versions, key: sampleKey, content: content) else { return false }
        guard newEventID, versions.live else { return true }
        return current(versions) == content
    }

    /// The content a sample is at now: its latest stored version.
    private func current(_ versions: SampleVersions) -> ContentDigest {
        versions.later < 0 ? versions.first : currentSampleVersions[Int(versions.later)]
    }

    /// - Complexity: O(1): at most ``indexedCorrections`` digests are compared.
    private func hasStored(_ versions: SampleVersions, key: ContentDigest, content: ContentDigest) -> Bool {
        precondition(!versions.firstIsDeferred, "IngestState: a sample's deferred content must be resolved before a decision reads it")
        if versions.first == content { return true }
        guard versions.later >= 0 else { return false }
        let later = laterSampleVersions[Int(versions.later)]
        if later.count >= Self.indexedCorrections { return manyCorrections.contains(Self.pair(key, content)) }
        return later.contains(content)
    }

    /// The digest of a (sample id digest, content digest) pair.
    static func pair(_ key: ContentDigest, _ content: ContentDigest) -> ContentDigest {
        ContentDigest(words: [key.high, key.low, content.high, content.low])
    }

    /// Rebuilds ``manyCorrections`` from `samples` and `laterSampleVersions`.
    mutating func indexManyCorrections() {
        manyCorrections = DigestTable()
        for (index, key) in samples.keys.enumerated() {
            let later = samples.values[index].later
            guard later >= 0, laterSampleVersions[Int(later)].count >= Self.indexedCorrections else { continue }
            for digest in laterSampleVersions[Int(later)] { manyCorrections.set(Self.pair(key, digest), true) }
        }
    }

    static func taskKey(_ task: String, _ phase: TaskPhase) -> ContentDigest {
        ContentDigest(string: phase.rawValue + "\u{0}" + task)
    }
}
