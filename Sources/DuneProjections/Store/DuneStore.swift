import DuneEvents
import Synchronization

/// The front door for an app: one log, its deciders and its four read
/// models, shared with the app's widget, its extensions and `dune-replay`.
///
/// A store holds the log's writer lock only while a write runs (an append, a
/// forget, a snapshot or checkpoint write), never while it is idle, so an app
/// suspended between writes holds no lock and iOS never terminates it for one.
/// Any number of stores, in any number of processes, may have one log open:
/// before each write a store folds what the others appended, so every
/// decision (idempotency, corrections, refresh throttling, task lifecycle) is
/// the one a single writer would make; while idle it follows their appends
/// through the platform's file notifications and publishes them like its own.
///
/// ```swift
/// let store = try await DuneStore.open(at: logURL.path)
/// let outcomes = try await store.append([.sample(hrv), .sample(restingHeartRate)])
/// for try await state in store.states {      // the current state first
///     print(state.throughSeq, state.readiness.days.last?.score ?? 0)
/// }
/// ```
///
/// The four read models are one value, ``StoreState``, at one `throughSeq`:
/// read it with ``state`` or observe it with ``states`` (or ``StoreStateModel`` in
/// SwiftUI). They are computed when read, once per change, from one sample
/// store, and equal what `dune-replay rebuild` writes for the same log.
///
/// A widget or an extension opens the log with ``Access/readOnly``: it never
/// takes the lock and never creates, writes, truncates or renames a file.
///
/// Blocking work (opening and replaying the log, waiting for the lock,
/// `write` and `fsync`) runs on threads the library owns and is awaited,
/// never on Swift's cooperative pool.
public actor DuneStore {
    /// Whether a store may write.
    public enum Access: Sendable, Hashable {
        /// Appends and forgets; creates the log when it is missing.
        case readWrite
        /// Only reads and follows the log (a widget, an extension): never takes
        /// the lock, never creates, writes, truncates or renames a file.
        /// Appends and forget throw ``DuneEventsError/Code/closed``.
        case readOnly
    }

    /// How a store opens and writes its log.
    public struct Options: Sendable {
        /// When appended events are flushed to disk; `.batch` (one flush per append call) by default.
        public var durability: Durability
        /// How long a write waits for the writer lock while another process
        /// writes; until it gets it by default (a waiting write ends with
        /// `CancellationError` when its task is cancelled).
        public var waitForLock: LockWait
        /// Start from `<log>.snapshot` when it is valid, and keep it current
        /// (see ``DuneStore``); `true` by default. Without it every open
        /// replays the whole log.
        public var keepsSnapshots: Bool
        /// Read-write (the default) or read-only.
        public var access: Access
        /// The Data Protection class of the files the store creates (the log,
        /// its checkpoint and snapshot); applied on iOS, ignored on macOS and
        /// Linux. The default, ``FileProtection/completeUntilFirstUserAuthentication``,
        /// lets HealthKit background delivery append while the phone is locked.
        public var protection: FileProtection
        /// Whether a read-write open creates the log's folder (and its parents,
        /// mode 0700) when it is missing; `false` by default, so that a wrong
        /// path (a mistyped App Group identifier, a folder not created yet)
        /// fails the open with ``DuneEventsError/Code/inputUnavailable``
        /// instead of starting an empty log in a new folder. The log file
        /// itself is always created when missing, in an existing folder.
        public var createsMissingFolders: Bool
        /// The file system the log is written through: the real one, except in
        /// tests that inject faults (an I/O error on a write) through the platform layer.
        package var fileSystem: FileSystemWitness = .system

        /// Creates options; every default suits an app on iOS.
        /// - Parameters:
        ///   - durability: When appends are flushed to disk.
        ///   - waitForLock: How long a write waits for another writer.
        ///   - keepsSnapshots: Whether to start from and keep `<log>.snapshot`.
        ///   - access: Read-write, or read-only for a widget or an extension.
        ///   - protection: The Data Protection class of the files the store creates.
        ///   - createsMissingFolders: Whether a read-write open creates the log's missing folder.
        public init(durability: Durability = .batch, waitForLock: LockWait = .untilAvailable, keepsSnapshots: Bool = true,
                    access: Access = .readWrite, protection: FileProtection = .default, createsMissingFolders: Bool = false) {
            self.durability = durability
            self.waitForLock = waitForLock
            self.keepsSnapshots = keepsSnapshots
            self.access = access
            self.protection = protection
            self.createsMissingFolders = createsMissingFolders
        }

        /// The app's own read models, in registration order (``register(_:)``).
        package private(set) var appProjections: [AnyAppProjection] = []

        /// Registers an app projection: the store folds it with the built-in
        /// read models, snapshots it with them and publishes its model in
        /// every ``StoreState`` (``StoreState/model(of:)``). A projection
        /// registered under a name already registered replaces it.
        ///
        /// ```swift
        /// var options = DuneStore.Options()
        /// options.register(hrvTotals)
        /// let store = try await DuneStore.open(at: path, options: options)
        /// ```
        /// - Parameter projection: The projection; see ``AppProjection`` for what its fold may do.
        public mutating func register<Model>(_ projection: AppProjection<Model>) {
            appProjections.removeAll { $0.name == projection.name }
            appProjections.append(AnyAppProjection(projection))
        }
    }

    /// A read-write store writes a snapshot when this many events were folded
    /// since the last one (after the write that folded them, never inside
    /// it), and on ``close()``; 100 000 events take about 0.1 s to replay on a laptop core.
    public static let snapshotEventThreshold = 100_000

    /// The log file's path.
    public nonisolated let path: String
    /// The options the store was opened with.
    public nonisolated let options: Options
    /// The store's states: the current one first, then each later one; see ``StoreStates``.
    public nonisolated var states: StoreStates { StoreStates(hub: stateHub, store: WeakStore(self)) }
    /// One element per change of the read models (this store's appends and
    /// other processes'), naming the models that may have changed; see
    /// ``StoreUpdates``. Prefer ``states``, which starts with the current state.
    public nonisolated var updates: StoreUpdates { StoreUpdates(hub: hub) }
    /// Warnings from opening and following the log, e.g. a torn last line that was moved aside.
    public private(set) var warnings: [String] = []

    private nonisolated let hub = UpdateHub()
    private nonisolated let stateHub = StateHub()
    private nonisolated let watcher: Mutex<FileChangeWatcher?> = Mutex(nil)
    private let follower: LogFollower
    /// The log's writer; `nil` when read-only, and once closed.
    private var log: EventLog?
    private var isClosed = false
    /// What failed the store: writes throw it, reads keep the last good state.
    private var failure: DuneEventsError?
    /// Writes run one after another, first come first served.
    private var gateBusy = false
    private var gateWaiters: [CheckedContinuation<Void, Never>] = []
    /// Set while a catch-up for a file notification is scheduled, so notifications coalesce.
    private nonisolated let followScheduled = AtomicFlag()
    /// How many of the log's warnings are already in ``warnings``.
    private var logWarningsTaken = 0

    private init(path: String, options: Options, log: EventLog?, follower: LogFollower, warnings: [String]) {
        self.path = path
        self.options = options
        self.log = log
        self.follower = follower
        self.warnings = warnings
    }

    deinit {
        watcher.withLock { $0?.cancel() }
        hub.finish()
        stateHub.finish()
    }

    // MARK: - Opening

    /// Opens the log at `path` and folds it into the read models.
    ///
    /// Opening takes no lock, except briefly when a crashed writer left
    /// something to repair (a torn last line, an interrupted forget). A
    /// read-write store creates a missing log (mode 0600) in an existing
    /// folder, and the folder too only with ``Options/createsMissingFolders``;
    /// a read-only store starts from an empty state and follows the log once
    /// a writer creates it.
    ///
    /// - Parameters:
    ///   - path: The log file.
    ///   - options: Durability, lock waiting, snapshots, access and file protection.
    /// - Returns: The open store, its read models current with the log.
    /// - Throws: `CancellationError` when the calling task is cancelled
    ///   (nothing is kept); otherwise a ``DuneEventsError``: `corruptLog` when
    ///   a line it reads is damaged, `logLocked` when a repair needed the lock
    ///   and ``Options/waitForLock`` ran out, `io` or `inputUnavailable` when
    ///   the file cannot be opened or created, `inputUnavailable` when the
    ///   log's folder is missing and ``Options/createsMissingFolders`` is off.
    /// - Complexity: O(n) in the log's events after its snapshot.
    public static func open(at path: String, options: Options = Options()) async throws -> DuneStore {
        try Task.checkCancellation()
        let cancelled = AtomicFlag()
        let isCancelled: @Sendable () -> Bool = { cancelled.isSet }
        return try await withTaskCancellationHandler {
            let executor = DispatchQueueExecutor(label: "dune.store-open")
            var log: EventLog?
            var warnings: [String] = []
            do {
                if options.access == .readWrite {
                    var logOptions = EventLog.Options(durability: options.durability, lockWait: options.waitForLock, locksPerWrite: true,
                                                      create: true, protection: options.protection, defersState: true)
                    logOptions.fileSystem = options.fileSystem
                    let openOptions = logOptions
                    let opened = try await executor.run {
                        if !options.createsMissingFolders { try requireFolder(ofLog: path) }
                        return try EventLog(path: path, options: openOptions, isCancelled: isCancelled)
                    }
                    log = opened
                    // Only a writer holding the lock writes snapshots: a temporary one left now is a killed writer's.
                    await opened.whileLockIsFree { SnapshotFile.removeStaleTemporaries(logPath: path) }
                }
                try Task.checkCancellation()
                let follower = try await executor.run {
                    try LogFollower(path: path, usesSnapshots: options.keepsSnapshots, appProjections: options.appProjections,
                                    isCancelled: isCancelled)
                }
                warnings += await follower.takeWarnings()
                try Task.checkCancellation()
                let store = DuneStore(path: path, options: options, log: log, follower: follower, warnings: [])
                if let log { await store.takeWarnings(of: log) }
                await store.warn(contentsOf: warnings)
                await store.startFollowing()
                return store
            } catch {
                await log?.close()
                if cancelled.isSet { throw CancellationError() }
                throw error
            }
        } onCancel: {
            cancelled.set()
        }
    }

    /// Throws `inputUnavailable` unless the folder that holds the log at `path` exists.
    private static func requireFolder(ofLog path: String) throws(DuneEventsError) {
        let folder = FileSystem.parentDirectory(of: path)
        let status: FileStatus?
        do throws(Errno) {
            status = try FileSystem.status(ofPath: folder)
        } catch {
            throw DuneEventsError(error, during: .open, path: folder)
        }
        guard let status, status.isDirectory else {
            let problem = status == nil ? "does not exist" : "is not a folder"
            throw DuneEventsError(.inputUnavailable, "the log's folder '\(folder)' \(problem); create it first, or open with "
                                  + "DuneStore.Options.createsMissingFolders to create it", location: .init(path: path))
        }
    }

    /// Starts the file notifications (or the polling fallback) that make an
    /// idle store fold other processes' appends.
    private func startFollowing() {
        let scheduled = followScheduled
        let onChange: @Sendable () -> Void = { [weak self] in
            guard scheduled.setIfClear() else { return }
            Task { [weak self] in
                scheduled.clear()
                await self?.follow(notified: true)
            }
        }
        let started = (try? FileChangeWatcher(path: path, onChange: onChange))
            ?? (try? FileChangeWatcher(path: path, forcePolling: true, onChange: onChange))
        if started == nil { warnings.append("warning: \(path): changes by other processes are seen only at this store's next read or write") }
        watcher.withLock { $0 = started }
    }

    /// Folds what other processes appended, and publishes it; after a file
    /// notification, or before a read.
    ///
    /// - Parameter notified: Whether a notification asked: it is skipped while
    ///   this store writes (the write folds and publishes what it finds).
    private func follow(notified: Bool = false) async {
        guard !isClosed, failure == nil, !(notified && gateBusy) else { return }
        do {
            let changed = try await follower.catchUp()
            if !changed.isEmpty { await publish(changed: changed) }
        } catch {
            fail(error)
        }
    }

    // MARK: - Appending

    /// Validates `inputs`, runs the deciders on them in order and appends
    /// what they decide as one durable batch.
    ///
    /// The call takes the writer lock (waiting as ``Options/waitForLock``
    /// says), folds what other processes appended since this store last read,
    /// decides, writes, syncs and gives the lock back. Each input gets its own
    /// outcome; a rejected or conflicting input does not stop the others. When
    /// the call returns, the appended events are durable (per
    /// ``Options/durability``) and in ``state``, and observers have been told.
    ///
    /// On iOS, wrap an append in a background-task assertion: a write in
    /// progress when the app is suspended still holds the lock.
    ///
    /// The result is deliberately not `@discardableResult`: a rejected input
    /// is an outcome, not a thrown error, so a caller that drops the outcomes
    /// drops its rejections unseen. Write `_ = try await store.append(…)`
    /// where ignoring them is meant.
    ///
    /// - Parameter inputs: What to append, in order; later inputs see the decisions on earlier ones.
    /// - Returns: One outcome per input, in order.
    /// - Throws: `CancellationError` when the task is cancelled while the write
    ///   waits for the lock (nothing was appended); otherwise a
    ///   ``DuneEventsError``: `closed` when the store is read-only, closed or
    ///   failed; `logLocked` when ``Options/waitForLock`` ran out; `io` when the
    ///   write or `fsync` failed (nothing of the batch is in the log then, and
    ///   the store fails); `corruptLog` when a line another process appended is damaged.
    public func append(_ inputs: [StoreInput]) async throws -> [AppendOutcome] {
        await enterGate()
        defer { leaveGate() }
        let log = try writableLog()
        var outcomes: [AppendOutcome] = []
        outcomes.reserveCapacity(inputs.count)
        var commands: [IngestCommand] = []
        var commandPositions: [Int] = []
        for (position, input) in inputs.enumerated() {
            do throws(Rejection) {
                commands.append(try input.command())
                commandPositions.append(position)
                outcomes.append(.alreadyAppended)  // replaced below by the decider's outcome
            } catch {
                outcomes.append(.rejected(error))
            }
        }
        guard !commands.isEmpty else { return outcomes }
        for (outcome, position) in zip(try await append(commands, on: log), commandPositions) {
            outcomes[position] = outcome
        }
        return outcomes
    }

    /// Appends commands already validated (the sync engine's pages, docs/sync-trace.md:
    /// samples, deletions and the page's `sync.anchored`) as one durable batch,
    /// like ``append(_:)-([StoreInput])``.
    ///
    /// - Returns: One outcome per command, in order.
    /// - Throws: What ``append(_:)-([StoreInput])`` throws.
    package func append(commands: [IngestCommand]) async throws -> [AppendOutcome] {
        await enterGate()
        defer { leaveGate() }
        let log = try writableLog()
        guard !commands.isEmpty else { return [] }
        return try await append(commands, on: log)
    }

    /// Decides and writes `commands` as one batch, then folds and publishes it; the caller holds the gate.
    private func append(_ commands: [IngestCommand], on log: EventLog) async throws -> [AppendOutcome] {
        let batch = try await write(on: log) { log, isCancelled in try await log.ingest(commands, isCancelled: isCancelled) }
        await takeWarnings(of: log)
        let outcomes = batch.results.map { AppendOutcome($0, appended: batch.appended) }
        do {
            let changed = try await follower.apply(batch.appended, appendedAt: batch.byteRange)
            if !changed.isEmpty { await publish(changed: changed) }
        } catch {
            fail(error)
        }
        scheduleSnapshotIfBehind()
        return outcomes
    }

    /// Appends one input; see ``append(_:)-([StoreInput])``.
    ///
    /// - Returns: Its outcome.
    /// - Throws: What ``append(_:)-([StoreInput])`` throws.
    public func append(_ input: StoreInput) async throws -> AppendOutcome {
        try await append([input])[0]
    }

    /// Adds the warnings `log` gave since the last call (a torn tail a dead writer left, moved aside by this store's write).
    private func takeWarnings(of log: EventLog) async {
        let all = await log.warnings
        warnings += all.dropFirst(logWarningsTaken)
        logWarningsTaken = all.count
    }

    /// Runs a write of the log, turning a wait for the lock that the task's
    /// cancellation ended into `CancellationError`, and an I/O or damage
    /// failure into the store's failure.
    private func write<Result: Sendable>(on log: EventLog,
                                         _ body: (EventLog, @escaping @Sendable () -> Bool) async throws -> Result) async throws -> Result {
        try Task.checkCancellation()
        let cancelled = AtomicFlag()
        do {
            return try await withTaskCancellationHandler {
                try await body(log, { cancelled.isSet })
            } onCancel: {
                cancelled.set()
            }
        } catch let error as DuneEventsError {
            let logClosed = await log.isClosed
            if cancelled.isSet, error.code == .closed, !logClosed { throw CancellationError() }
            if error.code == .corruptLog || logClosed { fail(error) }
            throw error
        }
    }

    // MARK: - Forgetting

    /// Erases samples from the log and from every file the store keeps beside
    /// it: every event of a selected sample is redacted in place (only its
    /// seq, id, type, recording time and the sample's id remain), one
    /// `data.forgotten` event records the selector kinds and counts, and later
    /// appends of a forgotten id are `alreadyAppended`.
    ///
    /// Values of one selector are OR'd, different selectors AND'd; a sample is
    /// selected when any of its versions matches. The read models are folded
    /// again from the new log; observers get the new state, and the outcome
    /// names the models whose content changed. Other stores on the same log
    /// follow the new log on their own.
    ///
    /// ```swift
    /// let outcome = try await store.forget(sources: ["Old Scale"])
    /// print("forgot \(outcome.sampleIDs.count) samples")
    /// ```
    ///
    /// - Parameters:
    ///   - sampleIDs: Samples with these ids.
    ///   - sources: Samples from these sources.
    ///   - kinds: Samples of these kinds.
    ///   - from: Samples on or after this day (the day the sample counts for).
    ///   - to: Samples on or before this day.
    ///   - deleted: Only samples whose latest event is a deletion.
    ///   - dryRun: Only report what would be forgotten.
    /// - Returns: What was (or would be) forgotten.
    /// - Throws: `CancellationError` when the task is cancelled while waiting
    ///   for the lock; otherwise a ``DuneEventsError``: `invalidInput` when no
    ///   selector is given; `corruptLog` for a damaged log and `io` for too
    ///   little free space or a failed write, before anything changed;
    ///   `closed` when the store is read-only, closed or failed. An `io`
    ///   failure after the new log replaced the old one (a directory sync or
    ///   the cleanup) fails the store: the samples are forgotten, the read
    ///   models are folded from the new log, and the next writer finishes the
    ///   cleanup; open the store again.
    /// - Complexity: O(n) in the log's bytes, then a replay of the log.
    public func forget(sampleIDs: Set<String> = [], sources: Set<String> = [], kinds: Set<SampleKind> = [],
                       from: DayKey? = nil, to: DayKey? = nil, deleted: Bool = false, dryRun: Bool = false) async throws -> ForgetOutcome {
        var selection = ForgetSelection()
        selection.sampleIDs = sampleIDs
        selection.sources = sources
        selection.kinds = kinds
        selection.from = from
        selection.to = to
        selection.deleted = deleted
        guard !selection.isEmpty else {
            throw DuneEventsError(.invalidInput, "forget needs at least one selector: sample ids, sources, kinds, a day range or deleted",
                                  location: .init(path: path))
        }
        return try await forget(selection, dryRun: dryRun)
    }

    /// ``forget(sampleIDs:sources:kinds:from:to:deleted:dryRun:)`` for a built
    /// selection; `step` is the rewrite's test hook (see `LogEraser.Step`).
    func forget(_ selection: ForgetSelection, dryRun: Bool,
                step: (@Sendable (LogEraser.Step) -> Void)? = nil) async throws -> ForgetOutcome {
        await enterGate()
        defer { leaveGate() }
        let log = try writableLog()
        let before = await follower.state()
        let report: ForgetReport
        do {
            report = try await write(on: log) { log, isCancelled in
                try await log.forget(selection, dryRun: dryRun, step: step, isCancelled: isCancelled)
            }
        } catch {
            // A failure after the rename: the new log is at the path; never show forgotten samples.
            if await log.isClosed { try? await follower.refold() }
            throw error
        }
        await takeWarnings(of: log)
        var outcome = ForgetOutcome(sampleIDs: report.sampleIDs, redactedEvents: report.redactedEvents, dryRun: dryRun, changedModels: [])
        guard !dryRun, report.forgottenSeq != nil else { return outcome }
        do {
            try await follower.refold()
        } catch {
            fail(error)
            throw error
        }
        let after = await follower.state()
        outcome.changedModels = before.changedModels(comparedWith: after)
        await publish(changed: outcome.changedModels)
        if let warning = await writeSnapshotIfBehind(by: 1) { warnings.append(warning) }
        return outcome
    }

    // MARK: - Reading

    /// The four read models at one `throughSeq`, current with every event
    /// that was durable in the log when the read began (the read checks the
    /// file's length and folds what other processes appended; it does not
    /// wait for a notification). After the store failed, the last good state.
    public var state: StoreState {
        get async { await observedState().state }
    }

    /// ``state`` and the fold generation it is of (for ``StoreStates``, which yields each generation once).
    func observedState() async -> (state: StoreState, generation: Int) {
        await follow()
        return await follower.observedState()
    }

    /// Training readiness per day; equal to `readiness.json` of a rebuild. The readiness of ``state``.
    public var readiness: ReadinessModel { get async { await state.readiness } }
    /// The eight metric trends, the HRV normal range and the training load; equal to `trends.json`. The trends of ``state``.
    public var trends: TrendsModel { get async { await state.trends } }
    /// Per-ISO-week totals; equal to `weekly-stats.json`. The weekly stats of ``state``.
    public var weeklyStats: WeeklyStatsModel { get async { await state.weeklyStats } }
    /// Refreshes and feature loading; equal to `sync-status.json`. The sync status of ``state``.
    public var syncStatus: SyncStatusModel { get async { await state.syncStatus } }

    /// The current samples of `kind` whose day lies in `days` (each
    /// sample's day is the calendar date of its start in its own offset),
    /// in time order, at the `throughSeq` of the state read at the same
    /// moment: current with every event durable when the read began, as ``state`` is.
    ///
    /// ```swift
    /// let hrv = await store.samples(of: .hrv, in: DayKey(year: 2026, month: 1, day: 1)...DayKey(year: 2026, month: 3, day: 31))
    /// ```
    /// - Parameters:
    ///   - kind: The sample kind.
    ///   - days: The first and last day, both included.
    /// - Returns: The samples and the `throughSeq` they are of.
    /// - Complexity: In proportion to the days of the range and their samples, not to the log.
    public func samples(of kind: SampleKind, in days: ClosedRange<DayKey>) async -> SampleQueryResult {
        await follow()
        do {
            return try await follower.samples(of: kind, in: days)
        } catch {
            // The snapshot's samples proved damaged: the follower folded the log again
            // without it, so the answer is still right; the store ends its observations
            // with the damage, as when it is found while following.
            fail(error)
            return (try? await follower.samples(of: kind, in: days)) ?? SampleQueryResult(throughSeq: 0, samples: [])
        }
    }

    /// The seq of the last event folded into the read models (0 for an empty log), after the read's check of the file.
    public var throughSeq: Int {
        get async {
            await follow()
            return await follower.throughSeq
        }
    }

    /// The HealthKit sync state of `type` — the anchor of its latest
    /// `sync.anchored`, where a sync resumes — current with the log, without
    /// computing the four read models (the sync engine asks it per sync).
    package func syncState(of type: SampleKind) async -> SampleTypeSyncState? {
        await follow()
        return await follower.syncState(of: type)
    }

    /// The ids of the live samples of `type` whose day lies in `days`,
    /// current with the log, in id order: what a reconcile compares with the source.
    package func liveSampleIDs(of type: SampleKind, on days: ClosedRange<DayKey>) async -> [String] {
        await follow()
        do {
            return try await follower.liveSampleIDs(of: type, on: days)
        } catch {
            fail(error)  // as in samples(of:in:)
            return (try? await follower.liveSampleIDs(of: type, on: days)) ?? []
        }
    }

    /// The seq of the snapshot the read models started from or last wrote (0: none).
    var snapshotSeq: Int { get async { await follower.snapshotSeq } }

    /// Whether the log's deciders' state is rebuilt (it is deferred until the first append or forget).
    var decidersAreLoaded: Bool { get async { await log?.hasLoadedState ?? false } }

    // MARK: - Closing and failing

    /// Stops following the log, writes a snapshot when the read models are
    /// ahead of it and the lock is free, and ends every observation. Reads
    /// keep the last state; appends throw `closed`. Releasing the store does
    /// the same, without the snapshot.
    public func close() async {
        await enterGate()
        defer { leaveGate() }
        guard !isClosed else { return }
        isClosed = true
        watcher.withLock { $0?.cancel() }
        if failure == nil, log != nil, let warning = await writeSnapshotIfBehind(by: 1) { warnings.append(warning) }
        await log?.close()
        log = nil
        hub.finish()
        stateHub.finish()
    }

    /// The log to write, or why there is none.
    private func writableLog() throws(DuneEventsError) -> EventLog {
        if let failure {
            throw DuneEventsError(.closed, "the store failed earlier and takes no more writes: \(failure.message)", location: failure.location)
        }
        if options.access == .readOnly {
            throw DuneEventsError(.closed, "the store was opened read-only; open it read-write to append or forget", location: .init(path: path))
        }
        guard !isClosed, let log else {
            throw DuneEventsError(.closed, "the store is closed; open it again to append", location: .init(path: path))
        }
        return log
    }

    /// Fails the store: writes are refused, observers end with `error`, reads keep the last good state.
    private func fail(_ error: any Error) {
        guard failure == nil, !isClosed else { return }
        let failure = error as? DuneEventsError ?? DuneEventsError(.io, "\(error)", location: .init(path: path))
        self.failure = failure
        // A snapshot whose id index proved damaged is only a damaged cache: a store that may write
        // removes it, so that the next open replays the log (a read-only store never removes a file).
        if options.access == .readWrite, failure == SnapshotFile.damageError(logPath: path) { SnapshotFile.remove(logPath: path) }
        watcher.withLock { $0?.cancel() }
        hub.finish()
        stateHub.finish(failure: failure)
    }

    /// Tells observers and update subscribers about a new state.
    private func publish(changed: Set<ProjectionName>) async {
        stateHub.signal()
        hub.publish(StoreUpdate(throughSeq: await follower.throughSeq, changedModels: changed))
    }

    private func enterGate() async {
        guard gateBusy else {
            gateBusy = true
            return
        }
        await withCheckedContinuation { gateWaiters.append($0) }
    }

    private func leaveGate() {
        if gateWaiters.isEmpty {
            gateBusy = false
        } else {
            gateWaiters.removeFirst().resume()
        }
    }

    // MARK: - Snapshots

    /// After a write: a snapshot once ``snapshotEventThreshold`` events were
    /// folded since the last one, written by a task of its own (never inside the write).
    private func scheduleSnapshotIfBehind() {
        guard options.keepsSnapshots, options.access == .readWrite else { return }
        Task { [weak self] in
            guard let self else { return }
            if let warning = await self.writeSnapshotIfBehind(by: Self.snapshotEventThreshold) { await self.warn(warning) }
        }
    }

    private func warn(_ warning: String) {
        warnings.append(warning)
    }

    private func warn(contentsOf more: [String]) {
        warnings += more
    }

    /// Writes `<log>.snapshot` when snapshots are kept, this store may write,
    /// at least `threshold` events were folded since the last one, the lock
    /// is free and the log ends where the read models do. A failure only costs
    /// the next open a longer replay, and is returned as a warning.
    private func writeSnapshotIfBehind(by threshold: Int) async -> String? {
        guard options.keepsSnapshots, options.access == .readWrite, await follower.eventsSinceSnapshot >= max(1, threshold) else {
            return nil
        }
        return await follower.writeSnapshot(protection: options.protection)
    }
}

extension AppendOutcome {
    /// The outcome of `result`, the refresh decision read from its event in `appended` (seqs in a row).
    init(_ result: EventLog.CommandResult, appended: [RecordedEvent] = []) {
        switch result.outcome {
        case .appended:
            let seq = result.seqs?.upperBound ?? 0
            let index = seq - (appended.first?.seq ?? 0)
            guard appended.indices.contains(index), case .refreshRequested(let record) = appended[index].payload else {
                self = .appended(seq: seq)
                return
            }
            self = .refreshed(seq: seq, decision: RefreshDecision(record))
        case .alreadyAppended: self = .alreadyAppended
        case .conflict: self = .conflict(reason: result.reason ?? "the content differs from what is stored")
        }
    }
}

extension ProjectionName {
    /// The read models that events of these types can change.
    static func changed(by events: [RecordedEvent]) -> Set<ProjectionName> {
        events.reduce(into: []) { changed, event in changed.formUnion(Self.changed(by: event)) }
    }

    /// The read models that `event` can change.
    static func changed(by event: RecordedEvent) -> Set<ProjectionName> {
        switch event.payload {
        case .sampleIngested, .sampleDeleted: [.readiness, .trends, .weeklyStats]
        case .profileUpdated: [.readiness]
        case .refreshRequested, .task, .syncAnchored: [.syncStatus]
        case .redacted, .dataForgotten: []
        }
    }
}

/// A flag set on one thread and read on another: a task's cancellation
/// handler and the library's thread that waits; a file notification and the
/// catch-up it schedules.
private final class AtomicFlag: Sendable {
    private let value = Atomic<Bool>(false)

    var isSet: Bool { value.load(ordering: .acquiring) }

    func set() { value.store(true, ordering: .releasing) }

    func clear() { value.store(false, ordering: .releasing) }

    /// Sets the flag; returns whether it was clear before.
    func setIfClear() -> Bool {
        value.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }
}
