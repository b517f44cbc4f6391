/// Deferred content digests: what a replay leaves out.
///
/// Folding a stored sample needs its id's digest (the key) at once, but the
/// digest of its content only when something compares against it: a later
/// line with the same sample id (a correction, a re-sent old version, a
/// re-ingested file). Writing a sample's canonical input content and
/// digesting it costs about as much as decoding its line, so a replay
/// (``evolve(_:deferringDigests:storedContent:)``) does not: a sample seen
/// once is remembered by its key and the seq of the event that stored it
/// (``SampleVersions/deferred(seq:)``). The digest is computed from the log,
/// by `storedContent` (the event of that seq, decoded, its
/// ``Event/inputContent`` digested: exactly the digest an eager fold keeps),
/// the first time a line with that sample id is decided or folded
/// (``resolveFirstVersion(ofSample:storedContent:)``), and then kept.
///
/// A task phase's stored content is deferred the same way (compared only
/// when a line for the same task and phase arrives; ``resolveTaskPhase(task:phase:storedContent:)``).
/// When many lines need reading back (a whole history re-sent), `EventLog`
/// computes every deferred entry in one pass over the log instead
/// (``deferredEntries`` and ``resolve(_:from:)``).
///
/// A seq, not a byte offset, names the event: `forget` rewrites the log and
/// moves lines, but keeps every seq. A sample whose events `forget` redacted
/// leaves the state (``erase(_:)``), so no deferred seq names a redacted line.
///
/// Every decision is the one an eager state gives: ``hasStored``,
/// ``evolveSample(key:content:)`` and a task line's ``decide(_:)`` refuse (a
/// precondition on the program, never on input) to read a deferred entry,
/// so each caller resolves it first.
extension IngestState {
    /// Looks up the content digest of a stored event by its seq; throws when the log cannot give it.
    typealias StoredContentLookup = (Int) throws(DuneEventsError) -> ContentDigest

    /// Computes the deferred first version of the sample with id digest
    /// `key`, if it has one; otherwise does nothing.
    mutating func resolveFirstVersion(ofSample key: ContentDigest,
                                      storedContent: StoredContentLookup) throws(DuneEventsError) {
        guard let index = samples.index(of: key), let seq = samples.values[index].deferredSeq else { return }
        let content = try storedContent(seq)
        samples.update(at: index) {
            $0.first = content
            $0.firstIsDeferred = false
        }
    }

    /// Computes the deferred content of the stored (`task`, `phase`) event, if
    /// it is deferred; otherwise does nothing.
    mutating func resolveTaskPhase(task: String, phase: TaskPhase, storedContent: StoredContentLookup) throws(DuneEventsError) {
        guard let index = taskPhases.index(of: Self.taskKey(task, phase)), taskPhases.values[index].contentIsDeferred else { return }
        let content = try storedContent(taskPhases.values[index].seq)
        taskPhases.update(at: index) {
            $0.content = content
            $0.contentIsDeferred = false
        }
    }

    /// Where the digest an event's seq stands for belongs.
    enum DeferredEntry: Sendable {
        /// The first version of the sample at this index of `samples`.
        case sample(Int)
        /// The content of the task phase at this index of `taskPhases`.
        case taskPhase(Int)
    }

    /// Every deferred entry, by the seq of the event it waits for (a lookup
    /// table: its order is never used).
    var deferredEntries: [Int: DeferredEntry] {
        var entries: [Int: DeferredEntry] = [:]
        for (index, versions) in samples.values.enumerated() {
            if let seq = versions.deferredSeq { entries[seq] = .sample(index) }
        }
        for (index, stored) in taskPhases.values.enumerated() where stored.contentIsDeferred {
            entries[stored.seq] = .taskPhase(index)
        }
        return entries
    }

    /// Whether deciding a line for the sample with id digest `key` reads its first version back.
    func readsBack(sample key: ContentDigest) -> Bool {
        samples[key]?.firstIsDeferred ?? false
    }

    /// Whether deciding a line for (`task`, `phase`) reads its deferred content back.
    func readsBack(task: String, phase: TaskPhase) -> Bool {
        taskPhases[Self.taskKey(task, phase)]?.contentIsDeferred ?? false
    }

    /// Computes the entries of `entries` whose events are in `batch`, and
    /// takes them out of it: what a pass over the log does for them all at
    /// once, instead of reading each line back on its own.
    mutating func resolve(_ entries: inout [Int: DeferredEntry], from batch: EventBatch) {
        for position in 0..<batch.count {
            guard let entry = entries[batch.seq(at: position)] else { continue }
            let row = batch.rows[position]
            let digest: ContentDigest
            if row >= 0, let packed = Self.packedSample(batch, row: row) {
                digest = Self.contentDigest(of: packed, in: batch)
            } else if let content = batch[position].event.inputContent {
                digest = ContentDigest(content)
            } else {
                continue  // not an input line's event: left deferred, its read-back then reports the log
            }
            entries[batch.seq(at: position)] = nil
            switch entry {
            case .sample(let index):
                samples.update(at: index) {
                    $0.first = digest
                    $0.firstIsDeferred = false
                }
            case .taskPhase(let index):
                taskPhases.update(at: index) {
                    $0.content = digest
                    $0.contentIsDeferred = false
                }
            }
        }
    }

    /// The seqs of the samples whose first version is still deferred, in the samples' order.
    var deferredSeqs: [Int] {
        samples.values.compactMap(\.deferredSeq)
    }

    /// The seqs of the task phases whose content is still deferred, in their order.
    var deferredTaskSeqs: [Int] {
        taskPhases.values.filter(\.contentIsDeferred).map(\.seq)
    }

    /// ``evolve(_:digests:)`` for a replay, with the content digests of
    /// samples deferred: `digests` are ``deferringDigests(of:)`` of `batch`.
    /// A packed sample whose id is new is remembered by its seq; one whose
    /// id is known has its content digest written here and its earlier
    /// version resolved through `storedContent` (only then, a line of the
    /// log is read back). Events other than packed samples fold as before.
    ///
    /// - Complexity: O(n) for n events, plus one `storedContent` per sample
    ///   id seen again whose first version was deferred.
    mutating func evolve(_ batch: EventBatch, deferringDigests digests: [ContentDigest],
                         storedContent: StoredContentLookup) throws(DuneEventsError) {
        precondition(digests.count == 2 * batch.count, "IngestState: two digests per event")
        for position in 0..<batch.count {
            if position % Self.warmedGroup == 0 {
                // The group's probes of the sample and task tables miss the cache: start their loads together.
                let count = min(Self.warmedGroup, batch.count - position)
                warmed ^= samples.warm(digests, first: 2 * position + 1, count: count)
                warmed ^= taskPhases.warm(digests, first: 2 * position, count: count)
            }
            let row = batch.rows[position]
            guard row >= 0, let packed = Self.packedSample(batch, row: row) else {
                let first = digests[2 * position], second = digests[2 * position + 1]
                // Of an event in `others`, only its event is copied out (`batch[position]` copies the whole).
                let other = row < 0 ? Int(~row) : nil
                let seq = other.map { batch.others[$0].seq } ?? batch.seq(at: position)
                let event = other.map { batch.others[$0].event } ?? batch[position].event
                if second == Self.deferredTask, case .task(let record) = event.payload {
                    evolveDeferredTask(seq: seq, record: record, key: first)
                } else {
                    try evolveOther(seq: seq, event: event, content: second == Self.hasContent ? first : nil, storedContent: storedContent)
                }
                continue
            }
            lastSeq = packed.seq
            let key = digests[2 * position + 1]
            let eventID = batch.envelopes[Int(row)].hasExtra ? batch.envelopeExtras[row]?.eventID : nil
            guard samples.contains(key) else {
                if let eventID {
                    // Its eventID's entry needs the content now (computed on the decoding thread).
                    eventIDs.set(ContentDigest(string: eventID), StoredContent(content: digests[2 * position], seq: packed.seq))
                    evolveSample(key: key, content: digests[2 * position])
                } else {
                    samples.append(key, .deferred(seq: packed.seq))
                }
                continue
            }
            let content = eventID != nil ? digests[2 * position] : Self.contentDigest(of: packed, in: batch)
            if let eventID {
                eventIDs.set(ContentDigest(string: eventID), StoredContent(content: content, seq: packed.seq))
            }
            try resolveFirstVersion(ofSample: key, storedContent: storedContent)
            evolveSample(key: key, content: content)
        }
    }

    /// The events whose sample-table slots a replay loads together.
    static let warmedGroup = 16

    /// Folds an event other than a packed sample (see ``evolve(_:deferringDigests:storedContent:)``).
    private mutating func evolveOther(seq: Int, event: Event, content: ContentDigest?,
                                      storedContent: StoredContentLookup) throws(DuneEventsError) {
        if case .sampleIngested(let sample) = event.payload {
            try resolveFirstVersion(ofSample: ContentDigest(string: sample.id), storedContent: storedContent)
        }
        evolve(seq: seq, event: event, contentDigest: content)
    }

    /// ``digests(of:)`` without the content digests of packed samples that
    /// carry no `eventID` (their slot holds zero): per event, of a packed
    /// sample, its content's digest (only with an `eventID`) and its id's; of
    /// any other event, its input content's and ``hasContent`` — but of a
    /// task event whose content is deferred, its (task, phase) key and
    /// ``deferredTask``.
    static func deferringDigests(of batch: EventBatch) -> [ContentDigest] {
        var digests = [ContentDigest](repeating: ContentDigest(high: 0, low: 0), count: 2 * batch.count)
        var scratch: [UInt8] = []
        scratch.reserveCapacity(512)
        for position in 0..<batch.count {
            let row = batch.rows[position]
            guard row >= 0, let packed = packedSample(batch, row: row) else {
                // Read in place in the batch, not copied out (`batch[position]` copies).
                let (first, second) = row < 0 ? otherDigests(batch.others[Int(~row)].event, scratch: &scratch)
                    : otherDigests(batch[position].event, scratch: &scratch)
                digests[2 * position] = first
                digests[2 * position + 1] = second
                continue
            }
            if batch.envelopes[Int(row)].hasExtra, batch.envelopeExtras[row]?.eventID != nil {
                digests[2 * position] = contentDigest(of: packed, in: batch)
            }
            digests[2 * position + 1] = packed.packedID.textDigest
        }
        return digests
    }

    /// The two digests of an event other than a packed sample (see ``deferringDigests(of:)``).
    private static func otherDigests(_ event: Event, scratch: inout [UInt8]) -> (ContentDigest, ContentDigest) {
        if case .task(let task) = event.payload, task.reason != .superseded, event.eventID == nil {
            // Compared only when a line for the same (task, phase) arrives: read back then.
            return (taskKey(task.task, task.requestedPhase ?? task.phase), deferredTask)
        }
        guard event.writeInputContent(into: &scratch) else { return (ContentDigest(high: 0, low: 0), ContentDigest(high: 0, low: 0)) }
        return (ContentDigest(scratch), hasContent)
    }

    /// The second digest of a task event whose content is deferred.
    static let deferredTask = ContentDigest(high: 2, low: 2)

    /// ``evolve(with:contentDigest:)`` for a task event (without an `eventID`)
    /// whose content is deferred: its (task, phase) entry, under `key`
    /// (``taskKey(_:_:)``, computed on a decoding thread), holds its seq only.
    private mutating func evolveDeferredTask(seq: Int, record: TaskRecord, key: ContentDigest) {
        lastSeq = seq
        TaskLifecycle.evolve(&tasks, with: record)
        taskPhases.set(key, StoredContent(content: ContentDigest(high: 0, low: 0), seq: seq, contentIsDeferred: true))
    }

    /// The digest of a packed sample's input content (what ``digests(of:)`` computes for it).
    static func contentDigest(of packed: PackedSample, in batch: EventBatch) -> ContentDigest {
        var scratch: [UInt8] = []
        scratch.reserveCapacity(512)
        writeInputContent(of: packed, source: batch.samples.sources[Int(packed.source)], into: &scratch)
        return ContentDigest(scratch)
    }
}
