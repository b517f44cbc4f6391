import DuneEvents
import Synchronization

/// The front door for an app: one log, its deciders and its four read
/// models, kept current after every append.
///
/// A store takes the log's writer lock when it opens and holds it until
/// ``close()`` (or ``suspend()``). Appends are typed values (``StoreInput``),
/// validated by the same rules as `dune-replay ingest`; each returns once its
/// events are durable and folded into the read models, and then
/// ``updates`` tells every subscriber which models changed.
///
/// ```swift
/// let store = try await DuneStore.open(at: logURL.path)
/// let outcomes = try await store.append([.sample(hrv), .sample(restingHeartRate)])
/// let today = await store.readiness.days.last
/// await store.close()
/// ```
///
/// Read models are computed when read and cached until the next append, so an
/// append costs only the fold of its own events. Every read model equals what
/// `dune-replay rebuild` writes for the same log.
///
/// Blocking work — opening and replaying the log, `write` and `fsync` — runs
/// on threads the library owns and is awaited, never on Swift's cooperative
/// pool.
public actor DuneStore {
    /// How a store opens and writes its log.
    public struct Options: Sendable {
        /// When appended events are flushed to disk; `.batch` (one flush per append call) by default.
        public var durability: Durability
        /// Wait for another writer (another process) to release the log
        /// instead of failing with ``DuneEventsError/Code/logLocked``.
        public var waitForLock: Bool
        /// Start from `<log>.snapshot` when it is valid, and keep it current
        /// (see ``DuneStore``); `true` by default. Without it every open
        /// replays the whole log.
        public var keepsSnapshots: Bool
        /// The Data Protection class of the files the store creates (the log,
        /// its checkpoint and snapshot); applied on iOS, ignored on macOS and
        /// Linux. The default, ``FileProtection/completeUntilFirstUserAuthentication``,
        /// lets HealthKit background delivery append while the phone is locked.
        public var protection: FileProtection

        /// Creates options; every default suits an app on iOS.
        /// - Parameters:
        ///   - durability: When appends are flushed to disk.
        ///   - waitForLock: Whether to wait for another writer instead of failing.
        ///   - keepsSnapshots: Whether to start from and keep `<log>.snapshot`.
        ///   - protection: The Data Protection class of the files the store creates.
        public init(durability: Durability = .batch, waitForLock: Bool = false, keepsSnapshots: Bool = true,
                    protection: FileProtection = .default) {
            self.durability = durability
            self.waitForLock = waitForLock
            self.keepsSnapshots = keepsSnapshots
            self.protection = protection
        }
    }

    /// A snapshot is written when this many events were folded since the
    /// last one, on open or resume (after the replay) and on suspend and
    /// close; 100 000 events take about 0.1 s to replay on a laptop core.
    public static let snapshotEventThreshold = 100_000

    /// The log file's path.
    public nonisolated let path: String
    /// The options the store was opened with.
    public nonisolated let options: Options
    /// One element per append that made events durable; see ``StoreUpdates`` for the delivery policy.
    public nonisolated var updates: StoreUpdates { StoreUpdates(hub: hub) }
    /// Warnings from opening or resuming, e.g. a torn last line that was moved aside.
    public private(set) var warnings: [String]

    private nonisolated let hub = UpdateHub()
    private var log: EventLog?
    private var lifecycle = Lifecycle.open
    private var models: StoreProjections
    /// The seq of the snapshot beside the log (0: none this store knows of).
    private(set) var snapshotSeq: Int
    /// Appends, suspend, resume and close run one after another, first come
    /// first served: each folds its events before the next starts, so the
    /// projections see batches in `seq` order even though every call awaits.
    private var gateBusy = false
    private var gateWaiters: [CheckedContinuation<Void, Never>] = []

    private enum Lifecycle {
        case open, suspended, closed
    }

    private init(path: String, options: Options, log: EventLog, models: StoreProjections, snapshotSeq: Int, warnings: [String]) {
        self.path = path
        self.options = options
        self.log = log
        self.models = models
        self.snapshotSeq = snapshotSeq
        self.warnings = warnings
    }

    // MARK: - Opening

    /// Opens the log at `path` (creating it, mode 0600, when missing), takes
    /// its writer lock and folds it into the read models.
    ///
    /// - Parameters:
    ///   - path: The log file.
    ///   - options: Durability and locking.
    /// - Returns: The open store, its read models current with the log.
    /// - Throws: `CancellationError` when the calling task is cancelled (the
    ///   lock is released and nothing is kept); otherwise a
    ///   ``DuneEventsError``: `logLocked` when another process writes the log,
    ///   `corruptLog` when a line it reads is damaged (before the last line;
    ///   damage between the deciders' checkpoint and the snapshot shows at
    ///   the first append or forget instead), `io` or `inputUnavailable` when
    ///   the file cannot be opened.
    /// - Complexity: O(n) in the log's events.
    public static func open(at path: String, options: Options = Options()) async throws -> DuneStore {
        try Task.checkCancellation()
        let log = try await openLog(at: path, options: options)
        do {
            // Holding the lock: no snapshot is being written, so any temporary one is a killed writer's.
            SnapshotFile.removeStaleTemporaries(logPath: path)
            let restored = try await StoreProjections.restore(logPath: path, usingSnapshot: options.keepsSnapshots)
            let store = DuneStore(path: path, options: options, log: log, models: restored.models, snapshotSeq: restored.snapshotSeq,
                                  warnings: await log.warnings + restored.warnings)
            await store.snapshotIfBehind(by: snapshotEventThreshold)
            return store
        } catch {
            await log.close()
            throw error
        }
    }

    /// Opens the log on a thread of its own: the open may wait for the lock
    /// (and, were the state not deferred, replay the deciders' state), neither
    /// of which may hold a cooperative thread.
    private static func openLog(at path: String, options: Options) async throws -> EventLog {
        // The deciders' state is rebuilt by the first append or forget, not here:
        // opening to read the models does not pay for it (see `EventLog.Options.defersState`).
        let logOptions = EventLog.Options(durability: options.durability, waitForLock: options.waitForLock, create: true,
                                          protection: options.protection, defersState: true)
        // The replay of the deciders' state asks between batches whether the task was cancelled.
        let cancelled = CancellationFlag()
        let log: EventLog
        do {
            log = try await withTaskCancellationHandler {
                try await DispatchQueueExecutor(label: "dune.store-open").run {
                    try EventLog(path: path, options: logOptions, isCancelled: { cancelled.isSet })
                }
            } onCancel: {
                cancelled.set()
            }
        } catch where cancelled.isSet {
            throw CancellationError()
        }
        if Task.isCancelled {
            await log.close()
            throw CancellationError()
        }
        return log
    }

    // MARK: - Appending

    /// Validates `inputs`, runs the deciders on them in order and appends
    /// what they decide as one durable batch.
    ///
    /// Each input gets its own outcome; a rejected or conflicting input does
    /// not stop the others. When the call returns, the appended events are
    /// durable (per ``Options/durability``) and folded into the read models,
    /// and ``updates`` has been told.
    ///
    /// - Parameter inputs: What to append, in order; later inputs see the decisions on earlier ones.
    /// - Returns: One outcome per input, in order.
    /// - Throws: ``DuneEventsError`` `closed` when the store is closed or
    ///   suspended; `io` when the write or `fsync` failed (nothing of the
    ///   batch is in the log then, and the store must be opened again);
    ///   `corruptLog` when the first append after opening rebuilds the
    ///   deciders' state and finds a damaged line (see ``open(at:options:)``).
    public func append(_ inputs: [StoreInput]) async throws -> [AppendOutcome] {
        await enterGate()
        defer { leaveGate() }
        let log = try openLog()
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
        let batch = try await log.ingest(commands)
        for (result, position) in zip(batch.results, commandPositions) {
            outcomes[position] = AppendOutcome(result)
        }
        if let last = batch.appended.last {
            await models.set.apply(batch.appended)
            hub.publish(StoreUpdate(throughSeq: last.seq, changedModels: ProjectionName.changed(by: batch.appended)))
        }
        return outcomes
    }

    /// Appends one input; see ``append(_:)-([StoreInput])``.
    ///
    /// - Returns: Its outcome.
    /// - Throws: What ``append(_:)-([StoreInput])`` throws.
    public func append(_ input: StoreInput) async throws -> AppendOutcome {
        try await append([input])[0]
    }

    // MARK: - Forgetting

    /// Erases samples from the log and from every file the store keeps beside
    /// it: every event of a selected sample is redacted in place (only its
    /// seq, id, type, recording time and the sample's id remain), one
    /// `data.forgotten` event records the selector kinds and counts, and later
    /// appends of a forgotten id are `alreadyAppended`.
    ///
    /// Values of one selector are OR'd, different selectors AND'd; a sample is
    /// selected when any of its versions matches. The read models are rebuilt
    /// from the new log and ``updates`` names the ones whose content changed.
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
    ///   - from: Samples on or after this day (the sample's local day).
    ///   - to: Samples on or before this day.
    ///   - deleted: Only samples whose latest event is a deletion.
    ///   - dryRun: Only report what would be forgotten.
    /// - Returns: What was (or would be) forgotten.
    /// - Throws: ``DuneEventsError``: `invalidInput` when no selector is
    ///   given; `corruptLog` for a damaged log and `io` for too little free
    ///   space or a failed write, before anything changed; `closed` when the
    ///   store is closed or suspended. An `io` failure after the new log
    ///   replaced the old one (a directory sync or the cleanup) closes the
    ///   store: the samples are forgotten, the read models are folded from the
    ///   new log, and the next writer finishes the cleanup; open the store again.
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
        let log = try openLog()
        let report: ForgetReport
        do {
            report = try await log.forget(selection, dryRun: dryRun, step: step)
        } catch {
            if await log.isClosed { await closeAfterFailedForget() }
            throw error
        }
        var outcome = ForgetOutcome(sampleIDs: report.sampleIDs, redactedEvents: report.redactedEvents, dryRun: dryRun, changedModels: [])
        guard !dryRun, let forgottenSeq = report.forgottenSeq else { return outcome }
        let before = await models.set.files()
        let rebuilt = try await StoreProjections.restore(logPath: path, usingSnapshot: false)
        let after = await rebuilt.models.set.files()
        models = rebuilt.models
        snapshotSeq = 0
        for (old, new) in zip(before, after) where Self.content(old.bytes) != Self.content(new.bytes) {
            outcome.changedModels.insert(new.projection)
        }
        await snapshotIfBehind(by: 1)
        hub.publish(StoreUpdate(throughSeq: forgottenSeq, changedModels: outcome.changedModels))
        return outcome
    }

    /// A forget failed after its rename (a directory sync or the cleanup): the
    /// new log is at the path and the old samples are gone from it, but the log
    /// closed its writer. The store closes too, and its read models are folded
    /// again from the new log, so reads never show forgotten samples; if that
    /// fold fails as well, they are emptied.
    private func closeAfterFailedForget() async {
        await log?.close()
        log = nil
        lifecycle = .closed
        models = (try? await StoreProjections.restore(logPath: path, usingSnapshot: false).models) ?? StoreProjections()
        hub.finish()
    }

    /// A read model's bytes without its `"throughSeq":N` member, which every forget moves.
    private static func content(_ bytes: [UInt8]) -> [UInt8] {
        let key = Array(#""throughSeq":"#.utf8)
        guard bytes.count >= key.count,
              let start = (0...(bytes.count - key.count)).first(where: { bytes[$0..<($0 + key.count)].elementsEqual(key) })
        else { return bytes }
        var end = start + key.count
        while end < bytes.count, bytes[end] >= UInt8(ascii: "0"), bytes[end] <= UInt8(ascii: "9") { end += 1 }
        return Array(bytes[..<start]) + Array(bytes[end...])
    }

    private func openLog() throws(DuneEventsError) -> EventLog {
        switch lifecycle {
        case .open:
            guard let log else { break }
            return log
        case .suspended:
            throw DuneEventsError(.closed, "the store is suspended; call resume() before appending", location: .init(path: path))
        case .closed:
            break
        }
        throw DuneEventsError(.closed, "the store is closed; open it again to append", location: .init(path: path))
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

    // MARK: - Read models

    /// Training readiness per day; equal to `readiness.json` of a rebuild.
    public var readiness: ReadinessModel { get async { await models.readiness.readModel() } }
    /// The eight metric trends, the HRV normal range and the training load; equal to `trends.json`.
    public var trends: TrendsModel { get async { await models.trends.readModel() } }
    /// Per-ISO-week totals; equal to `weekly-stats.json`.
    public var weeklyStats: WeeklyStatsModel { get async { await models.weeklyStats.readModel() } }
    /// Refreshes and feature loading; equal to `sync-status.json`.
    public var syncStatus: SyncStatusModel { get async { await models.syncStatus.readModel() } }

    /// The seq of the last event folded into the read models (0 for an empty log).
    public var throughSeq: Int { get async { await models.set.throughSeq() } }

    /// Whether the log's deciders' state is rebuilt (it is deferred until the first append or forget).
    var decidersAreLoaded: Bool { get async { await log?.hasLoadedState ?? false } }

    // MARK: - Suspending and closing

    /// Releases the writer lock and keeps the read models, for an app about
    /// to be suspended (iOS does not let a suspended app hold a file lock in
    /// a shared container). Appends throw `closed` until ``resume()``.
    ///
    /// Reads keep working. Another process may append meanwhile; ``resume()``
    /// folds what it added.
    public func suspend() async {
        await enterGate()
        defer { leaveGate() }
        guard lifecycle == .open else { return }
        await snapshotIfBehind(by: 1)
        await log?.close()
        log = nil
        lifecycle = .suspended
    }

    /// Takes the writer lock again after ``suspend()`` and folds whatever
    /// another process appended meanwhile (publishing an update if it did).
    ///
    /// - Throws: `CancellationError` when the task is cancelled (the store
    ///   stays suspended, its read models as before); otherwise what
    ///   ``open(at:options:)`` throws.
    public func resume() async throws {
        await enterGate()
        defer { leaveGate() }
        guard lifecycle == .suspended else { return }
        let log = try await Self.openLog(at: path, options: options)
        do {
            let before = await models.set.throughSeq()
            // Folded into copies, swapped in only when whole: a cancelled
            // catch-up leaves the models exactly as they were.
            let next = await models.copy()
            let summary = try await next.catchUp(logPath: path)
            models = next
            self.log = log
            lifecycle = .open
            warnings += await log.warnings
            if summary.throughSeq > before {
                hub.publish(StoreUpdate(throughSeq: summary.throughSeq, changedModels: Set(ProjectionName.allCases)))
            }
            await snapshotIfBehind(by: Self.snapshotEventThreshold)
        } catch {
            await log.close()
            throw error
        }
    }

    /// Releases the writer lock (writing the deciders' checkpoint when the log
    /// has grown enough) and ends every iteration of ``updates``. Reads keep
    /// the last values; appends throw `closed`.
    public func close() async {
        await enterGate()
        defer { leaveGate() }
        guard lifecycle != .closed else { return }
        if lifecycle == .open { await snapshotIfBehind(by: 1) }
        await log?.close()
        log = nil
        lifecycle = .closed
        hub.finish()
    }

    // MARK: - Snapshots

    /// Writes `<log>.snapshot` when snapshots are kept and at least
    /// `threshold` events were folded since the last one. Called with the
    /// writer lock held and no append running, so the projections and the
    /// log end at the same seq. A failure only costs the next open a longer
    /// replay, and is kept as a warning.
    private func snapshotIfBehind(by threshold: Int) async {
        guard options.keepsSnapshots, let log else { return }
        let throughSeq = await models.set.throughSeq()
        guard throughSeq - snapshotSeq >= max(1, threshold), let stamp = await log.stampAtEnd(expectedSeq: throughSeq),
              stamp.lastSeq == throughSeq else {
            return
        }
        let (readiness, trends, syncStatus) = (await models.readiness.state, await models.trends.state, await models.syncStatus.state)
        let path = path
        let protection = options.protection
        do {
            // Building the snapshot walks every day and sample: on the snapshot's own thread, not the actor's.
            try await DispatchQueueExecutor(label: "dune.store-snapshot").run {
                let snapshot = ProjectionSnapshot(readiness: readiness, trends: trends, syncStatus: syncStatus)
                try SnapshotFile.write(snapshot, at: stamp, logPath: path, protection: protection)
            }
            snapshotSeq = throughSeq
        } catch {
            warnings.append("warning: \(SnapshotFile.path(forLog: path)): not written (\(error)); the next open replays more of the log")
        }
    }
}

extension AppendOutcome {
    init(_ result: EventLog.CommandResult) {
        switch result.outcome {
        case .appended: self = .appended(seq: result.seqs?.upperBound ?? 0)
        case .alreadyAppended: self = .alreadyAppended
        case .conflict: self = .conflict(reason: result.reason ?? "the content differs from what is stored")
        }
    }
}

extension ProjectionName {
    /// The read models that events of these types can change.
    static func changed(by events: [RecordedEvent]) -> Set<ProjectionName> {
        var changed: Set<ProjectionName> = []
        for event in events {
            switch event.payload {
            case .sampleIngested, .sampleDeleted: changed.formUnion([.readiness, .trends, .weeklyStats])
            case .profileUpdated: changed.insert(.readiness)
            case .refreshRequested, .task: changed.insert(.syncStatus)
            case .redacted, .dataForgotten: break
            }
        }
        return changed
    }
}

/// A flag a task's cancellation handler sets and a thread of the library reads.
private final class CancellationFlag: Sendable {
    private let value = Atomic<Bool>(false)

    var isSet: Bool { value.load(ordering: .acquiring) }

    func set() { value.store(true, ordering: .releasing) }
}
