import Dispatch
import Synchronization

/// The append-only event log: one writer, durable group commits, gapless `seq`.
///
/// Opening takes the exclusive writer lock, quarantines a torn last line
/// (docs/log-format.md), and rebuilds the ``IngestState`` the deciders need
/// from the checkpoint and the lines after it — at once, or with
/// ``Options/defersState`` at the first append or forget. Damage anywhere
/// but the last line in the lines it reads fails that call with
/// ``DuneEventsError/Code/corruptLog``: appends are refused until a person
/// has looked at it (`dune-replay verify`).
///
/// ```swift
/// let log = try await EventLog(path: "Logs/events.jsonl")
/// let result = try await log.ingest([try IngestCommand.sample(input, eventID: nil)])
/// await projections.apply(result.appended)
/// ```
///
/// After a failed write or fsync the log closes itself: what was acknowledged
/// before stays durable, nothing of the failed batch remains, and further
/// calls throw until the log is opened again.
package actor EventLog {
    /// The log's own serial queue: appends `write` and `fsync` there, never on
    /// a thread of Swift's cooperative pool.
    private nonisolated let executor: DispatchQueueExecutor

    package nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// When appended lines are flushed to disk (see ``DuneEvents/Durability``).
    package typealias Durability = DuneEvents.Durability

    /// How to open the log.
    package struct Options: Sendable {
        package var durability: Durability
        /// How long taking the writer lock waits for another writer (on open,
        /// or before each write with ``locksPerWrite``) before failing with `logLocked`.
        package var lockWait: LockWait
        /// Hold the writer lock only while a write runs (an append, a forget,
        /// a checkpoint), not from open to close: a store's way, so that an
        /// idle app holds no lock and other processes may write meanwhile.
        /// Before each write the log folds what other writers appended since
        /// it last read, and follows a log another process replaced (`forget`).
        package var locksPerWrite: Bool
        /// Create the file when it does not exist.
        package var create: Bool
        /// Keep `<log>.checkpoint` (see ``EventLog``) once this many bytes of the
        /// log are not covered by it; `nil` neither reads nor writes one.
        package var checkpointBytes: Int?
        /// The Data Protection class of every file the log creates (the log,
        /// its checkpoint, side files). Applied on iOS, watchOS, tvOS and
        /// visionOS; accepted and ignored on macOS and Linux.
        package var protection: FileProtection
        /// Rebuild the deciders' state (checkpoint plus the lines after it) at
        /// the first call that needs it — an append, `forget`, ``lastSeq`` —
        /// instead of on open. A store that opens to read pays nothing for it;
        /// the lines after the checkpoint are then checked at that first call.
        package var defersState: Bool
        /// The file system the log's files are written through: the real one
        /// (``FileSystemWitness/system``) unless a test records the calls to
        /// explore the states a crash could leave.
        package var fileSystem: FileSystemWitness = .system

        package init(durability: Durability = .batch, lockWait: LockWait = .never, locksPerWrite: Bool = false,
                     create: Bool = true, checkpointBytes: Int? = EventLog.defaultCheckpointBytes,
                     protection: FileProtection = .default, defersState: Bool = false) {
            self.durability = durability
            self.lockWait = lockWait
            self.locksPerWrite = locksPerWrite
            self.create = create
            self.checkpointBytes = checkpointBytes
            self.protection = protection
            self.defersState = defersState
        }
    }

    /// The default of ``Options/checkpointBytes``: 16 MiB, about 50 000 events
    /// (a tenth of a second to replay).
    package static let defaultCheckpointBytes = 16 << 20

    /// The outcome of one command of a batch.
    package struct CommandResult: Sendable, Hashable {
        package var outcome: IngestOutcome
        /// Seqs of the appended events (empty unless `appended`).
        package var seqs: ClosedRange<Int>?
        /// Why nothing was appended.
        package var reason: String?
    }

    /// The outcome of ``ingest(_:)``: one result per command, and the events
    /// that are now durable in the log, in `seq` order.
    package struct BatchResult: Sendable {
        package var results: [CommandResult]
        package var appended: [RecordedEvent]
        /// Where the log ended before this batch (its first line's offset) and after it.
        package var byteRange: Range<Int>
    }

    package nonisolated let path: String
    package let options: Options
    /// Warnings from opening (a quarantined torn tail).
    package private(set) var warnings: [String] = []
    private var file: LogFile?
    private var state: IngestState
    /// False while the state is deferred (``Options/defersState``) and not yet rebuilt: `state` is then empty.
    private var stateIsLoaded: Bool
    private var size: Int
    /// The log offset the checkpoint beside it covers (0: none).
    private var checkpointedBytes = 0
    /// The buffers a batch is encoded into, emptied and reused by the next
    /// batch: megabytes allocated and freed per batch on several threads stay
    /// in the allocator's per-thread arenas, tens of MB of peak memory.
    private var encodeBuffers: [[UInt8]] = []

    /// Opens (or creates) the log at `path` for appending.
    ///
    /// The deciders' state is rebuilt from the log. When `<log>.checkpoint`
    /// holds the state at a recent offset and agrees with the log there (see
    /// `LogCheckpoint`), only the lines after that offset are replayed; the
    /// checkpoint is never trusted over the log: on any mismatch the whole log
    /// is replayed. A torn last line is quarantined first either way. Damage
    /// before the checkpoint's offset is not looked for on open (`dune-replay
    /// verify` and every rebuild read every line); damage after it refuses the
    /// open as before.
    ///
    /// - Throws: `logLocked` when another process writes to it; `corruptLog`
    ///   when a line other than the last is damaged; `io`/`inputUnavailable`
    ///   when the file cannot be opened.
    /// - Complexity: O(n) in the bytes after the checkpoint (the whole log
    ///   without one), read in parallel chunks.
    /// - Parameter isCancelled: Asked between batches of the replay; when it
    ///   returns true the open stops, releases the lock and throws
    ///   `DuneEventsError` `.closed` ("the open was cancelled").
    ///
    /// With ``Options/defersState`` the open only takes the lock and
    /// quarantines a torn last line; the state is rebuilt (and the lines after
    /// the checkpoint checked) by the first call that needs it.
    package init(path: String, options: Options = Options(),
                 isCancelled: @Sendable () -> Bool = { false }) throws(DuneEventsError) {
        self.path = path
        self.options = options
        self.executor = DispatchQueueExecutor(label: "dune.event-log")
        let file = try Self.openLocked(path: path, options: options, isCancelled: isCancelled)
        var warnings: [String] = []
        var recovered = true
        if options.locksPerWrite {
            // Recovery must write: only then, and only briefly, take the lock on open. Without
            // anything visibly torn, only when the lock is free now (else the first write does it).
            let locked = try Self.needsRecovery(file) ? try file.lock(options.lockWait, isCancelled: isCancelled) : try file.tryLock()
            if locked {
                defer { file.unlock() }
                warnings = try Self.recover(file, fileSystem: options.fileSystem)
            }
            recovered = locked
        } else {
            warnings = try Self.recover(file, fileSystem: options.fileSystem)
        }
        self.warnings = warnings
        self.tailIsChecked = recovered
        if options.defersState {
            self.state = IngestState()
            self.stateIsLoaded = false
            self.size = try file.size
            self.file = file
            return
        }
        let loaded = try Self.loadState(file, path: path, options: options, isCancelled: isCancelled)
        self.state = loaded.state
        self.stateIsLoaded = true
        self.size = loaded.size
        self.checkpointedBytes = loaded.checkpointedBytes
        self.file = file
    }

    /// Opens the log for appending; holding its lock unless ``Options/locksPerWrite``.
    private static func openLocked(path: String, options: Options, isCancelled: () -> Bool) throws(DuneEventsError) -> LogFile {
        for _ in 0..<LogFile.maximumReopens {
            let file = try LogFile.openForAppend(path: path, create: options.create, lock: .deferred, protection: options.protection,
                                                 fileSystem: options.fileSystem)
            if options.locksPerWrite { return file }
            guard try file.lock(options.lockWait, isCancelled: isCancelled) else {
                throw DuneEventsError(.closed, "the open was cancelled", location: .init(path: path))
            }
            // `flock` belongs to an inode, not a path: while this writer waited, the log may
            // have been replaced (`forget` renames a rewritten log over it). Append only to
            // the file the path names now: otherwise drop this one and open the path again.
            if file.isStillAtItsPath { return file }
        }
        throw DuneEventsError(.io, "log '\(path)' was replaced \(LogFile.maximumReopens) times while this writer waited for its lock",
                              location: .init(path: path))
    }

    /// Whether a crashed writer left something to repair: an interrupted
    /// forget's files, or a last line without its `\n`.
    private static func needsRecovery(_ file: LogFile) throws(DuneEventsError) -> Bool {
        if LogEraser.interruptedJobWarning(path: file.path) != nil { return true }
        let size = try file.size
        guard size > 0 else { return false }
        return try file.bytes(upTo: 1, at: size - 1) != [UInt8(ascii: "\n")]
    }

    /// Finishes an interrupted forget and moves a torn last line aside; the
    /// caller holds the writer lock.
    /// - Returns: A warning per repair.
    /// - Throws: `corruptLog` when the log is damaged before its last line.
    private static func recover(_ file: LogFile, fileSystem: FileSystemWitness) throws(DuneEventsError) -> [String] {
        var warnings = try LogEraser.recover(path: file.path, fileSystem: fileSystem)
        switch try file.quarantineTornTail() {
        case .intact: break
        case .quarantined(let report): warnings.append("warning: \(file.path): \(report)")
        case .damaged(let offset):
            throw DuneEventsError(.corruptLog, "the log is damaged inside the part acknowledged as durable; appends are refused until it is repaired or restored from a backup",
                                  location: .init(path: file.path, byteOffset: offset))
        }
        return warnings
    }

    // MARK: - Writing with the lock (locksPerWrite)

    /// Starts a write: with ``Options/locksPerWrite``, takes the lock, opens
    /// the file the path names now if another process replaced the log, repairs
    /// what a crashed writer left, and folds into the deciders' state what other
    /// writers appended since this log last read. Without it, only rebuilds a
    /// deferred state.
    ///
    /// - Returns: `false` when `isCancelled` ended the wait for the lock.
    private func beginWrite(isCancelled: () -> Bool) throws(DuneEventsError) -> Bool {
        guard options.locksPerWrite else {
            try loadDeferredState()
            return true
        }
        for _ in 0..<LogFile.maximumReopens {
            guard let file else { throw closedAfterError() }
            guard try file.lock(options.lockWait, isCancelled: isCancelled) else { return false }
            if file.isStillAtItsPath {
                do {
                    try catchUpHoldingLock(file)
                } catch {
                    file.unlock()
                    throw error
                }
                return true
            }
            // Replaced (another process's forget) or removed: the path names another file now.
            try? file.close()
            self.file = try LogFile.openForAppend(path: path, create: options.create, lock: .deferred, protection: options.protection,
                                                  fileSystem: options.fileSystem)
            state = IngestState()
            stateIsLoaded = false
            size = 0
            checkpointedBytes = 0
            tailIsChecked = false
        }
        throw DuneEventsError(.io, "log '\(path)' was replaced \(LogFile.maximumReopens) times while this writer waited for its lock",
                              location: .init(path: path))
    }

    /// Runs `body` holding the writer lock when it is free right now (with
    /// ``Options/locksPerWrite``; without it the lock is always held); skips it otherwise.
    /// - Returns: Whether `body` ran.
    @discardableResult
    package func whileLockIsFree(_ body: () -> Void) -> Bool {
        guard let file else { return false }
        if !options.locksPerWrite {
            body()
            return true
        }
        guard (try? file.tryLock()) == true else { return false }
        defer { file.unlock() }
        body()
        return true
    }

    /// Whether the end of the file was checked for a crashed writer's leftovers
    /// (a torn tail, damage past the synced length) since this log last saw
    /// the file change under it; see ``catchUpHoldingLock(_:)``.
    private var tailIsChecked = true

    /// Ends a write begun by ``beginWrite(isCancelled:)``: gives the lock back.
    private func endWrite() {
        if options.locksPerWrite { file?.unlock() }
    }

    /// Brings the deciders' state up to the file's end; the caller holds the lock.
    private func catchUpHoldingLock(_ file: LogFile) throws(DuneEventsError) {
        let current = try file.size
        guard current != size || !stateIsLoaded || !tailIsChecked else { return }
        // What a crashed writer may have left: a torn tail, damage past the synced
        // length, an interrupted forget's files. Checked when another writer changed
        // the file (a few lines' reading), or when the open could not check it.
        if current != size || !tailIsChecked {
            warnings += try Self.recover(file, fileSystem: options.fileSystem)
            tailIsChecked = true
        }
        let end = try file.size
        if end < size {
            // Another writer rolled back a failed batch this log had already read: start over.
            state = IngestState()
            stateIsLoaded = false
        }
        guard stateIsLoaded else {
            try loadDeferredState()
            return
        }
        let start = LogReader.Resumption(offset: size, expectedSeq: state.lastSeq + 1)
        size = try Self.replay(file, into: &state, from: start).validBytes
    }

    /// The deciders' state of `file`: from `<log>.checkpoint` when it matches,
    /// plus the lines after it (all of them without one).
    private static func loadState(_ file: LogFile, path: String, options: Options, isCancelled: () -> Bool = { false })
        throws(DuneEventsError) -> (state: IngestState, size: Int, checkpointedBytes: Int) {
        var state = IngestState()
        var start = LogReader.Resumption()
        if options.checkpointBytes != nil, let size = try? file.size,
           let checkpoint = LogCheckpoint.load(logPath: path, maximumBytes: size + (1 << 20)),
           checkpoint.matches(file, size: size) {
            state = checkpoint.state
            start = LogReader.Resumption(offset: checkpoint.offset, expectedSeq: checkpoint.lastSeq + 1)
        } else {
            state.reserveCapacity(events: LogReader(file: file).estimatedEventCount)
        }
        let end = try replay(file, into: &state, from: start, isCancelled: isCancelled)
        return (state, end.validBytes, start.offset)
    }

    /// Rebuilds the deferred state (see ``Options/defersState``) if it is not yet.
    /// - Throws: What opening without deferring throws: `corruptLog` for a
    ///   damaged line after the checkpoint, `io` when the log was closed.
    private func loadDeferredState() throws(DuneEventsError) {
        guard !stateIsLoaded else { return }
        guard let file else {
            throw closedAfterError()
        }
        let loaded = try Self.loadState(file, path: path, options: options)
        state = loaded.state
        size = loaded.size
        checkpointedBytes = loaded.checkpointedBytes
        stateIsLoaded = true
    }

    /// Whether the deciders' state is rebuilt (always, unless ``Options/defersState`` and no call needed it yet).
    package var hasLoadedState: Bool { stateIsLoaded }

    /// Folds the log's events from `start` into `state`.
    private static func replay(_ file: LogFile, into state: inout IngestState, from start: LogReader.Resumption,
                               isCancelled: () -> Bool = { false }) throws(DuneEventsError) -> LogReader.End {
        struct Cancelled: Error {}
        do {
            // Samples' content digests are deferred (IngestState+Deferred.swift): only a sample id
            // seen again reads its first version back, from the lines this replay has passed.
            let end = try file.size
            return try LogReader(file: file).forEachEventBatch(startingAt: start, digesting: { IngestState.deferringDigests(of: $0) }) {
                batch, digests in
                if isCancelled() { throw Cancelled() }
                try state.evolve(batch, deferringDigests: digests) { seq throws(DuneEventsError) in
                    try storedInputContent(file, seq: seq, before: end)
                }
            }
        } catch let error as DuneEventsError {
            throw error
        } catch is Cancelled {
            throw DuneEventsError(.closed, "the open was cancelled", location: .init(path: file.path))
        } catch {
            throw DuneEventsError(.io, "reading '\(file.path)' failed: \(error)", location: .init(path: file.path))
        }
    }

    /// The digest of the input content of event `seq` of `file` (among the
    /// lines before `end`): what the deciders' state defers until a line with
    /// that sample id, or task and phase, arrives (IngestState+Deferred.swift).
    ///
    /// - Throws: `corruptLog` when the line is missing, damaged or of no input line.
    private static func storedInputContent(_ file: LogFile, seq: Int, before end: Int) throws(DuneEventsError) -> ContentDigest {
        func damaged(_ reason: String) -> DuneEventsError {
            DuneEventsError(.corruptLog, "event seq \(seq), which the deciders' state remembers, cannot be read back: \(reason); "
                            + "nothing was appended: the log was damaged or edited before its end, restore it from a backup",
                            location: .init(path: file.path, seq: seq))
        }
        guard let line = try file.line(ofSeq: seq, before: end) else { throw damaged("no line has that seq") }
        guard StoredLine.isIntact(line) else { throw damaged(LogReader.crcMismatchReason) }
        let recorded: RecordedEvent
        do {
            recorded = try EventCodec.decode(line)
        } catch {
            throw damaged(error.reason)
        }
        guard recorded.seq == seq, let content = recorded.event.inputContent else {
            throw damaged("it is not an event of an input line")
        }
        return ContentDigest(content)
    }

    /// Computes every deferred entry of `state` in one pass over `file`
    /// (through the last seq one waits for).
    ///
    /// - Throws: `corruptLog` when the log is damaged there or lacks one of those events.
    private static func resolveAllDeferred(_ file: LogFile, in state: inout IngestState) throws(DuneEventsError) {
        var entries = state.deferredEntries
        guard let last = entries.keys.max() else { return }
        do {
            try LogReader(file: file).forEachEventBatch(LogReader.Range(throughSeq: last)) { batch in
                state.resolve(&entries, from: batch)
            }
        } catch let error as DuneEventsError {
            throw error
        } catch {
            throw DuneEventsError(.io, "reading '\(file.path)' failed: \(error)", location: .init(path: file.path))
        }
        if let missing = entries.keys.min() {
            throw DuneEventsError(.corruptLog, "event seq \(missing), which the deciders' state remembers, is not an input line's event in the log; "
                                  + "nothing was appended: the log was damaged or edited before its end, restore it from a backup",
                                  location: .init(path: file.path, seq: missing))
        }
    }

    /// Lines read back one at a time since the deciders' state was loaded.
    /// Past ``readBackLimit(lastSeq:)`` the next batch that needs one computes every
    /// deferred entry in one pass over the log instead (as an eager replay
    /// would have): re-sending a whole old history costs at most that pass
    /// and the reads before it, not one read per line.
    private var readBacks = 0

    /// At least 1,024 reads, else one per 64 events of the log.
    private static func readBackLimit(lastSeq: Int) -> Int { max(1024, lastSeq / 64) }

    /// Computes the deferred first version of each sample, and the deferred
    /// content of each task phase, that `items` name (before they are
    /// decided: a decision compares against it).
    private func resolveDeferred(_ items: [IngestItem], in state: inout IngestState, file: LogFile) throws(DuneEventsError) {
        var needed = 0
        for item in items {
            switch item {
            case .prepared(let sample):
                if state.readsBack(sample: sample.key) { needed += 1 }
            case .command(let command):
                if case .sample(let sample) = command.intent, state.readsBack(sample: ContentDigest(string: sample.id)) { needed += 1 }
                if case .task(let task) = command.intent, state.readsBack(task: task.task, phase: task.phase) { needed += 1 }
            }
        }
        guard needed > 0 else { return }
        readBacks += needed
        // `state` is this log's own (passed inout): read it only through the parameter.
        if readBacks > Self.readBackLimit(lastSeq: state.lastSeq) {
            try Self.resolveAllDeferred(file, in: &state)
            return
        }
        let end = size
        for item in items {
            let key: ContentDigest
            switch item {
            case .prepared(let sample): key = sample.key
            case .command(let command):
                if case .task(let task) = command.intent {
                    try state.resolveTaskPhase(task: task.task, phase: task.phase) { seq throws(DuneEventsError) in
                        try Self.storedInputContent(file, seq: seq, before: end)
                    }
                }
                guard case .sample(let sample) = command.intent else { continue }
                key = ContentDigest(string: sample.id)
            }
            try state.resolveFirstVersion(ofSample: key) { seq throws(DuneEventsError) in
                try Self.storedInputContent(file, seq: seq, before: end)
            }
        }
    }

    // MARK: - Forgetting

    /// Erases the samples `selection` selects by rewriting the log (see
    /// ``LogEraser``), then goes on appending to the new log.
    ///
    /// The deciders' state of the new log is derived from the state held
    /// before the rewrite, not replayed: the redacted samples' entries and the
    /// `eventID`s their lines carried go, their ids join the forgotten ids
    /// (``IngestState/erase(_:)``), and the `data.forgotten` event is folded
    /// like any appended event. The result equals a replay of the new log.
    ///
    /// - Parameters:
    ///   - selection: Which samples; must not be empty.
    ///   - dryRun: Only report what would be redacted.
    ///   - step: Called at each ``LogEraser/Step`` of the rewrite (timing and kill tests).
    ///   - availableBytes: For tests only: the free bytes the free-space check sees
    ///     (see ``LogEraser/rewrite(file:selection:dryRun:protection:step:availableBytes:)``).
    /// - Returns: What was (or would be) redacted and which files were deleted.
    /// - Throws: `DuneEventsError` — `.corruptLog` for a damaged log, `.io`
    ///   for too little free space or a failed write, with the log unchanged;
    ///   `.io` for a failure after the new log replaced the old one (a
    ///   directory sync, the cleanup): this writer then closes, and the next
    ///   one finishes the cleanup from the journal.
    /// - Complexity: O(n) in the log's bytes (the rewrite), plus O(s) in the
    ///   deciders' state.
    package func forget(_ selection: ForgetSelection, dryRun: Bool,
                        step: (@Sendable (LogEraser.Step) -> Void)? = nil,
                        availableBytes: Int64? = nil, isCancelled: () -> Bool = { false }) throws(DuneEventsError) -> ForgetReport {
        // The new log's state is derived from the old one: rebuild a deferred state first (a dry run needs none).
        guard try beginWrite(isCancelled: isCancelled) else { throw cancelledWhileWaiting() }
        defer { endWrite() }
        guard let file else {
            throw closedAfterError()
        }
        let outcome: LogEraser.Outcome
        do {
            outcome = try LogEraser.rewrite(file: file, selection: selection, dryRun: dryRun, protection: options.protection,
                                             step: step, availableBytes: availableBytes)
        } catch {
            // A failure after the rename (a directory sync or the cleanup) leaves the new log at
            // the path, and its journal for the next writer to finish: this descriptor names the
            // replaced file, so appending through it would lose events. Stop, as after a failed write.
            if let held = try? file.identity, FileSystem.identity(ofPath: path) != held {
                try? file.close()
                self.file = nil
            }
            throw error
        }
        guard let newFile = outcome.newFile, let forgotten = outcome.forgottenEvent else { return outcome.report }
        try? file.close()
        // Mutated in place (the actor's own copy is uniquely referenced): no copy of the tables.
        state.erase(outcome.erasure)
        state.evolve(with: forgotten)
        self.size = outcome.newLogBytes
        // The checkpoint beside the old log was deleted with it; `close` writes one of the new log.
        self.checkpointedBytes = 0
        self.file = newFile
        return outcome.report
    }

    /// Why a write fails when its task was cancelled while it waited for the lock.
    private func cancelledWhileWaiting() -> DuneEventsError {
        DuneEventsError(.closed, "the write was cancelled while it waited for the log's lock; nothing was appended", location: .init(path: path))
    }

    /// Why a call fails once a failed write, fsync or forget closed the log.
    private func closedAfterError() -> DuneEventsError {
        DuneEventsError(.io, "the log was closed after an earlier I/O error; open it again", location: .init(path: path))
    }

    /// Whether a failed write, fsync or forget closed the log (see ``forget(_:dryRun:step:availableBytes:)``).
    package var isClosed: Bool { file == nil }

    /// The seq of the last event in the log (0 when empty); rebuilds a deferred state first.
    /// - Throws: What rebuilding a deferred state throws (`corruptLog`, `io`),
    ///   never a made-up 0 for a log it could not read.
    package var lastSeq: Int {
        get throws(DuneEventsError) {
            try loadDeferredState()
            return state.lastSeq
        }
    }

    /// The stamp of the log's current end (its identity, and the offset, seq
    /// and CRC of its last line), for a cache taken now; `nil` when the log is
    /// empty or closed, or when its last line is not event `expectedSeq`
    /// (used while the deciders' state is deferred, which knows the last seq otherwise).
    package func stampAtEnd(expectedSeq: Int? = nil) -> LogStamp? {
        guard let file, let lastSeq = stateIsLoaded ? state.lastSeq : expectedSeq else { return nil }
        return LogStamp.atEnd(of: file, size: size, lastSeq: lastSeq)
    }

    /// The deciders' current state (idempotency, refresh coordinator, tasks); rebuilds a deferred state first.
    /// - Throws: What rebuilding a deferred state throws (`corruptLog`, `io`),
    ///   never an empty state for a log it could not read.
    ///
    /// Every deferred content digest (IngestState+Deferred.swift) is computed
    /// first, in one pass over the log, so that the state equals an eager
    /// fold of the log; the state keeps them.
    package var ingestState: IngestState {
        get throws(DuneEventsError) {
            try loadDeferredState()
            if let file { try Self.resolveAllDeferred(file, in: &state) }
            return state
        }
    }

    /// Decides on each command in order and appends the resulting events as
    /// one durable batch: one `write` and, with `.batch` durability, one `fsync`.
    ///
    /// Commands see the effects of the commands before them in the same batch.
    /// Returns only after the batch is on disk (per ``Options/durability``).
    ///
    /// - Throws: `io` when the write or fsync fails; nothing of the batch is
    ///   then in the log, and the log is closed.
    ///
    /// - Parameter atomic: when true and any command is a `conflict`, nothing
    ///   of the batch is appended (the results still say what each would be).
    package func ingest(_ commands: [IngestCommand], atomic: Bool = false,
                        isCancelled: () -> Bool = { false }) throws(DuneEventsError) -> BatchResult {
        let outcome = try ingest(items: commands.map { .command($0) }, data: [], atomic: atomic, isCancelled: isCancelled)
        return BatchResult(results: outcome.results, appended: outcome.events, byteRange: outcome.byteRange)
    }

    /// One line of a batch for ``ingest(items:data:atomic:)``.
    package enum IngestItem: Sendable {
        /// A common sample line, prepared on a parsing thread; its `data` bytes are in the batch's buffer.
        case prepared(PreparedSample)
        case command(IngestCommand)
    }

    /// What ``ingest(items:data:atomic:)`` did.
    package struct ItemsResult: Sendable {
        /// One per item, in order.
        package var results: [CommandResult]
        /// The appended events of the `.command` items (prepared samples are not rebuilt as events).
        package var events: [RecordedEvent]
        /// How many events were appended, all items together.
        package var appendedCount: Int
        package var firstSeq: Int?
        package var lastSeq: Int?
        /// Where the log ended before this batch and after it.
        package var byteRange: Range<Int> = 0..<0
    }

    /// A line to encode, in log order.
    private enum PendingLine: Sendable {
        case prepared(seq: Int, id: PackedUUID, data: Range<Int>)
        case event(RecordedEvent)
    }

    /// ``ingest(_:atomic:)`` for a batch mixing prepared samples and commands:
    /// the same decisions, the same bytes in the log, one write and one fsync.
    ///
    /// With ``Options/locksPerWrite`` the call takes the lock first (see
    /// ``Options/lockWait``) and gives it back before it returns; when
    /// `isCancelled` ends that wait it throws `closed` ("cancelled") and
    /// appends nothing.
    package func ingest(items: [IngestItem], data: [UInt8], atomic: Bool,
                        isCancelled: () -> Bool = { false }) throws(DuneEventsError) -> ItemsResult {
        guard try beginWrite(isCancelled: isCancelled) else { throw cancelledWhileWaiting() }
        defer { endWrite() }
        guard let file else {
            throw closedAfterError()
        }
        let sizeBefore = size
        // Decide on a uniquely referenced state so its dictionaries are updated in
        // place: copying them per batch would make ingest quadratic in the log's size.
        // Only an atomic batch keeps the old state, to fall back to on a conflict.
        // Deferred first versions of the samples named here are computed into the
        // kept state (they hold whatever this batch decides), before any decision.
        try resolveDeferred(items, in: &state, file: file)
        var next = IngestState()
        if atomic { next = state } else { swap(&next, &state) }
        var results: [CommandResult] = []
        results.reserveCapacity(items.count)
        var events: [RecordedEvent] = []
        var lines: [PendingLine] = []
        lines.reserveCapacity(items.count)
        let firstSeq = next.lastSeq + 1
        let recordedAt = EventIdentity.now()
        var ids = EventIDGenerator(at: recordedAt)
        for item in items {
            switch item {
            case .prepared(let sample):
                let (outcome, reason) = next.decide(sample)
                guard outcome == .appended else {
                    results.append(CommandResult(outcome: outcome, seqs: nil, reason: reason))
                    continue
                }
                let seq = next.lastSeq + 1
                lines.append(.prepared(seq: seq, id: ids.nextPacked(), data: sample.data))
                next.evolve(sample, seq: seq)
                results.append(CommandResult(outcome: .appended, seqs: seq...seq, reason: nil))
            case .command(let command):
                let content = ContentDigest(command.content)
                let decision = next.decide(command, contentDigest: content)
                guard decision.outcome == .appended else {
                    results.append(CommandResult(outcome: decision.outcome, seqs: nil, reason: decision.reason))
                    continue
                }
                let first = next.lastSeq + 1
                for (index, event) in decision.events.enumerated() {
                    let recorded = RecordedEvent(seq: next.lastSeq + 1, id: ids.next(), recordedAt: recordedAt, event: event)
                    // Only the line's own event carries its content; a superseding cancellation has none.
                    next.evolve(with: recorded, contentDigest: index == decision.events.count - 1 ? content : nil)
                    events.append(recorded)
                    lines.append(.event(recorded))
                }
                results.append(CommandResult(outcome: .appended, seqs: first...next.lastSeq, reason: nil))
            }
        }
        if atomic, results.contains(where: { $0.outcome == .conflict }) {
            return ItemsResult(results: results, events: [], appendedCount: 0, firstSeq: nil, lastSeq: nil,
                               byteRange: sizeBefore..<sizeBefore)
        }
        var parts = encodeBuffers
        encodeBuffers = []
        var lineEnds: [Int] = []
        EventLog.encode(lines, data: data, recordedAt: Array(recordedAt.text.utf8), into: &parts, lineEnds: &lineEnds)
        defer { encodeBuffers = parts }
        do {
            try write(parts, lineEnds: lineEnds, to: file)
        } catch {
            // The log is closed now; the state no longer matters.
            state = next
            throw error
        }
        state = next
        // A long session keeps a recent checkpoint too, in large steps (writing one costs a pass over the state).
        checkpointIfBehind(by: 512 << 20)
        return ItemsResult(results: results, events: events, appendedCount: lines.count,
                           firstSeq: lines.isEmpty ? nil : firstSeq, lastSeq: lines.isEmpty ? nil : state.lastSeq,
                           byteRange: sizeBefore..<size)
    }

    /// The stored lines of `lines`, back to back over `parts` (buffers of an
    /// earlier batch, emptied and reused; as many as needed are added), and
    /// where each ends, counted over the parts back to back: encoded (and
    /// CRC-sealed) in parts on every core when the batch is large.
    private static func encode(_ lines: [PendingLine], data: [UInt8], recordedAt: [UInt8], into parts: inout [[UInt8]],
                               lineEnds: inout [Int]) {
        @Sendable func encode(_ range: Range<Int>, into output: inout [UInt8], ends: inout [Int], data: ByteView) {
            for index in range {
                switch lines[index] {
                case .prepared(let seq, let id, let slice):
                    EventCodec.appendSampleLine(seq: seq, id: id, recordedAt: recordedAt,
                                                data: data.subview(slice), to: &output)
                case .event(let event):
                    EventCodec.appendLine(event, to: &output)
                }
                ends.append(output.count)
            }
        }
        let count = lines.count >= 1024 ? min(4, max(1, ProcessInfoLite.activeProcessorCount)) : 1
        while parts.count < count { parts.append([]) }
        for index in parts.indices { parts[index].removeAll(keepingCapacity: true) }
        lineEnds.reserveCapacity(lines.count)
        guard count > 1 else {
            parts[0].reserveCapacity(lines.count * 360)
            ByteView.with(data) { encode(0..<lines.count, into: &parts[0], ends: &lineEnds, data: $0) }
            return
        }
        let encoded = EncodedParts(parts)
        parts = []
        DispatchQueue.concurrentPerform(iterations: count) { part in
            var (local, _) = encoded.take(part)
            var ends: [Int] = []
            let range = (lines.count * part / count)..<(lines.count * (part + 1) / count)
            local.reserveCapacity(range.count * 360)
            ends.reserveCapacity(range.count)
            ByteView.with(data) { encode(range, into: &local, ends: &ends, data: $0) }
            encoded.store(part, bytes: local, lineEnds: ends)
        }
        var base = 0
        for part in 0..<encoded.count {
            let (partBytes, partEnds) = encoded.take(part)
            lineEnds.append(contentsOf: partEnds.lazy.map { $0 + base })
            base += partBytes.count
            parts.append(partBytes)
        }
    }

    /// Appends the encoded `parts` (lines back to back over them, ending at
    /// `lineEnds`) with the log's durability.
    private func write(_ parts: [[UInt8]], lineEnds: [Int], to file: LogFile) throws(DuneEventsError) {
        let total = parts.reduce(0) { $0 + $1.count }
        guard total > 0 else { return }
        do {
            switch options.durability {
            case .batch: try file.append(parts: parts, sync: true)
            case .none: try file.append(parts: parts, sync: false)
            case .fsync:
                let bytes = Array(parts.joined())
                var start = 0
                for end in lineEnds {
                    try file.append(Array(bytes[start..<end]), sync: true)
                    start = end
                }
            }
            size += total
        } catch {
            // `append` already removed the failed call's bytes; with per-event
            // fsync, also remove this batch's earlier lines: a batch is all or nothing.
            try? file.truncate(to: size)
            try? file.sync()
            self.file = nil
            try? file.close()
            throw error
        }
    }

    /// Writes `<log>.checkpoint` when at least `threshold` bytes of the log are
    /// not covered by it. A failure only costs the next open a longer replay.
    private func checkpointIfBehind(by threshold: Int) {
        guard stateIsLoaded, let file, let interval = options.checkpointBytes, size - checkpointedBytes >= max(threshold, interval),
              let checkpoint = LogCheckpoint.atEnd(of: file, size: size, state: state)
        else { return }
        if (try? checkpoint.write(logPath: path, protection: options.protection, fileSystem: options.fileSystem)) != nil { checkpointedBytes = size }
    }

    /// Releases the writer lock, after writing `<log>.checkpoint` when the
    /// log has grown by ``Options/checkpointBytes`` since the last one.
    /// Further calls throw.
    package func close() {
        if options.locksPerWrite {
            // Only a writer holding the lock writes the checkpoint; a busy lock skips it.
            if let file, (try? file.tryLock()) == true {
                if file.isStillAtItsPath, (try? file.size) == size { checkpointIfBehind(by: 0) }
                file.unlock()
            }
        } else {
            checkpointIfBehind(by: 0)
        }
        try? file?.close()
        file = nil
    }
}

/// The encoded parts of a batch, filled by `concurrentPerform` (each part once).
private final class EncodedParts: Sendable {
    private let parts: Mutex<[([UInt8], [Int])]>
    let count: Int

    /// Parts starting from `buffers` (emptied, to be reused), one per buffer.
    init(_ buffers: [[UInt8]]) {
        count = buffers.count
        parts = Mutex(buffers.map { ($0, []) })
    }

    func store(_ part: Int, bytes: [UInt8], lineEnds: [Int]) {
        parts.withLock { $0[part] = (bytes, lineEnds) }
    }

    func take(_ part: Int) -> ([UInt8], [Int]) {
        parts.withLock { parts in
            defer { parts[part] = ([], []) }
            return parts[part]
        }
    }
}
