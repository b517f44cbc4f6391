import DuneProjections

/// The sync engine: brings a ``HealthSampleSource``'s samples into a
/// `DuneStore`, type by type, with the anchor of each type stored as an
/// event in the same batch as the data it stands for (docs/sync-trace.md).
///
/// - A sync of a type pages through the source's changes after the type's
///   stored anchor (the anchor of its latest `sync.anchored` event). Each
///   page is one atomic batch: its samples, a `sample.deleted` per deleted
///   id, then `sync.anchored`. A kill at any point resumes from the last
///   stored anchor; a re-delivered sample is `alreadyAppended`.
/// - A sample the input rules reject, or one the mapping could not express, is
///   not appended: the page's `sync.anchored` counts it by reason, and the
///   anchor advances.
/// - A sync is a task of feature `sync.<type>` (`task.started`, then
///   `task.completed`, `task.failed` or `task.cancelled`), so sync status shows
///   its phase. A request for a type whose sync is in flight joins it: no
///   second task.
/// - Memory is bounded by ``HealthSyncOptions/pageSize``: one page at a time.
///
/// ```swift
/// let engine = HealthSyncEngine(store: store, source: HealthKitSampleSource(healthStore))
/// let result = try await engine.sync(.hrv)
/// try await engine.startObserving([.hrv, .sleep]) // background delivery: completion handled
/// ```
public actor HealthSyncEngine {
    /// The store the engine appends to.
    public nonisolated let store: DuneStore
    /// The source it reads.
    public nonisolated let source: any HealthSampleSource
    /// Its options.
    public nonisolated let options: HealthSyncOptions

    /// Syncs in flight, by type: a second request joins the first.
    private var inFlight: [SampleKind: Task<Result<SyncResult, any Error>, Never>] = [:]
    private nonisolated let hub = ProgressHub()

    /// Creates an engine; nothing runs until a sync is asked for.
    /// - Parameters:
    ///   - store: A read-write store.
    ///   - source: Where samples come from.
    ///   - options: Page size and clock.
    public init(store: DuneStore, source: any HealthSampleSource, options: HealthSyncOptions = HealthSyncOptions()) {
        self.store = store
        self.source = source
        self.options = options
    }

    deinit {
        hub.finish()
    }

    /// The progress of every sync, after each stored page and once at its
    /// end (``SyncProgress/isFinished``): pages, samples and how far back it
    /// has reached. Each call is a new subscription; a slow subscriber keeps
    /// the newest values.
    public nonisolated var progress: AsyncStream<SyncProgress> { hub.stream() }

    // MARK: - Syncing

    /// Syncs `type` until the source has no more changes, the budget is
    /// spent, a query fails or the task is cancelled; joins a sync of `type`
    /// already in flight instead of starting a second one (no second
    /// `task.started`; the caller gets the sync in flight's result).
    ///
    /// The sync is a task of feature `sync.<type>`: `task.started`, then
    /// `task.completed` (no more changes), `task.failed` with the source's
    /// error code, or `task.cancelled` (cancelled, or budget spent: a stop, not an error).
    ///
    /// - Parameters:
    ///   - type: The sample type.
    ///   - budget: When to stop at a page boundary.
    /// - Returns: What the sync did; a failed query, a failed write or a
    ///   cancellation is an outcome (every page stored before it stays).
    /// - Throws: A `DuneEventsError` when the store cannot record the
    ///   sync's start (nothing was queried).
    public func sync(_ type: SampleKind, budget: SyncBudget = .unlimited) async throws -> SyncResult {
        let task: Task<Result<SyncResult, any Error>, Never>
        if let running = inFlight[type] {
            task = running
        } else {
            task = Task { await self.run(type, budget: budget) }
            inFlight[type] = task
        }
        return try await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }.get()
    }

    /// Whether a sync of `type` is in flight.
    /// - Parameter type: The sample type.
    /// - Returns: `true` while a sync of it runs.
    public func isSyncing(_ type: SampleKind) -> Bool { inFlight[type] != nil }

    /// One sync, from `task.started` to its last task event.
    private func run(_ type: SampleKind, budget: SyncBudget) async -> Result<SyncResult, any Error> {
        defer { inFlight[type] = nil }
        let began = ContinuousClock.now
        let deadline = budget.time.map { began.advanced(by: $0) }
        let taskID = Self.newTaskID(type)
        var result = SyncResult(type: type, outcome: .completed, task: taskID)
        do {
            try await record(taskID, type, .started)
        } catch {
            return .failure(error)
        }
        var anchor = await store.syncState(of: type).map { SyncAnchor($0.anchor) }
        result.anchor = anchor
        let writer = SyncPageWriter(type: type, deletedAt: options.now())
        let source = self.source, limit = options.pageSize
        paging: while true {
            if Task.isCancelled {
                result.outcome = .cancelled
                break
            }
            if let pages = budget.pages, result.pages >= pages {
                result.outcome = .budgetExhausted
                break
            }
            if let deadline, ContinuousClock.now >= deadline {
                result.outcome = .budgetExhausted
                break
            }
            let page: SyncPage
            let after = anchor
            do {
                page = try await QueryRace.run(deadline: deadline) { try await source.changes(of: type, after: after, limit: limit) }
            } catch is QueryDeadlinePassed {
                result.outcome = .budgetExhausted
                break
            } catch let error as CancellationError where Task.isCancelled {
                _ = error
                result.outcome = .cancelled
                break
            } catch {
                result.outcome = .failed(Self.errorCode(error))
                break
            }
            // Nothing new and the same anchor (an observer wake with nothing to fetch): no event to append.
            if page.changeCount == 0, page.anchor == anchor { break }
            do {
                let tally = try await store(page, with: writer)
                result.add(tally)
                anchor = page.anchor
                result.anchor = anchor
            } catch {
                result.outcome = .failed(Self.errorCode(error))
                break paging
            }
            hub.publish(SyncProgress(type: type, task: taskID, pages: result.pages, samples: result.samplesDelivered,
                                     earliestStart: result.earliestStart, isFinished: false))
            if page.changeCount < limit { break }
        }
        // The last task event, also when the sync's task was cancelled (in a task of its own, which is
        // not); after an I/O error the store refuses it, and the sync ends as it is.
        let phase: TaskPhase, error: String?
        switch result.outcome {
        case .completed: (phase, error) = (.completed, nil)
        case .failed(let code): (phase, error) = (.failed, code)
        case .cancelled, .budgetExhausted: (phase, error) = (.cancelled, nil)
        }
        await Task { try? await self.record(taskID, type, phase, error: error) }.value
        hub.publish(SyncProgress(type: type, task: taskID, pages: result.pages, samples: result.samplesDelivered,
                                 earliestStart: result.earliestStart, isFinished: true))
        return .success(result)
    }

    /// Appends `page` as one atomic batch and returns what it did.
    package func store(_ page: SyncPage, with writer: SyncPageWriter) async throws -> SyncPageWriter.Tally {
        let batch = writer.batch(for: page)
        let outcomes = try await store.append(commands: batch.commands)
        return writer.tally(outcomes, of: batch)
    }

    /// Appends a task event of feature `sync.<type>` (trace replay records its syncs' tasks with it).
    package func record(_ task: String, _ type: SampleKind, _ phase: TaskPhase, error: String? = nil) async throws {
        let outcome = try await store.append(.task(TaskCommand(task: task, feature: Self.feature(type), phase: phase,
                                                               at: options.now(), error: error)))
        if case .rejected(let rejection) = outcome { throw rejection }
    }

    /// The task feature of a type's syncs: `sync.<type>`.
    /// - Parameter type: The sample type.
    /// - Returns: `sync.hrv`, `sync.sleep`, …
    public nonisolated static func feature(_ type: SampleKind) -> String { "sync.\(type.rawValue)" }

    /// A task id unique in the log: `sync.<type>-` and 16 random hex digits.
    package static func newTaskID(_ type: SampleKind) -> String {
        var random = SystemRandomNumberGenerator()
        let bits = String(random.next() as UInt64, radix: 16)
        return "sync.\(type.rawValue)-" + String(repeating: "0", count: 16 - bits.count) + bits
    }

    /// What a failed sync's task records: a source error's code, a store
    /// error's code, else the error's description (at most 256 bytes).
    package static func errorCode(_ error: any Error) -> String {
        let text: String
        switch error {
        case let source as SyncSourceError: text = source.code
        case let store as DuneEventsError: text = store.code.rawValue
        default: text = String(describing: error)
        }
        var bytes = Array(text.utf8.prefix(256))
        while !bytes.isEmpty, String(validating: bytes, as: UTF8.self) == nil { bytes.removeLast() }
        return bytes.isEmpty ? "error" : String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - Reconcile

    /// Deletes the stored samples of `type` whose day lies in `days` and that
    /// the source no longer holds (docs/sync-trace.md): the deletions a purged
    /// deleted-object record would otherwise hide. The day of a sample is
    /// the local date of its start (of `end + 6 h` for sleep), each in its own offset.
    ///
    /// When to run it is the app's decision; docs/healthkit-sync.md recommends when.
    ///
    /// - Parameters:
    ///   - type: The sample type.
    ///   - days: The local days to check.
    /// - Returns: The ids deleted, in id order.
    /// - Throws: What the source's ``HealthSampleSource/sampleIDs(of:on:)`` throws (nothing is deleted then), or a `DuneEventsError`.
    public func reconcile(_ type: SampleKind, days: ClosedRange<DayKey>) async throws -> ReconcileResult {
        let source = self.source
        let held = try await QueryRace.run(deadline: nil) { try await source.sampleIDs(of: type, on: days) }
        return try await reconcile(type, days: days, held: held)
    }

    /// Deletes the stored samples of `type` on `days` whose ids are not in `held`, as one batch.
    package func reconcile(_ type: SampleKind, days: ClosedRange<DayKey>, held: Set<String>) async throws -> ReconcileResult {
        let stored = await store.liveSampleIDs(of: type, on: days)
        let gone = stored.filter { !held.contains($0) }
        guard !gone.isEmpty else { return ReconcileResult(type: type, days: days, deletedIDs: []) }
        let at = options.now()
        let commands = try gone.map { id throws(Rejection) in try IngestCommand.deletion(SampleDeletion(sampleID: id, at: at), eventID: nil) }
        let outcomes = try await store.append(commands: commands)
        var deleted: [String] = []
        for (id, outcome) in zip(gone, outcomes) {
            if case .appended = outcome { deleted.append(id) }
        }
        return ReconcileResult(type: type, days: days, deletedIDs: deleted)
    }

    // MARK: - Observers and background delivery

    /// Answers an observer notification: syncs the wake's type within
    /// `budget`, then calls the wake's completion exactly once, after what
    /// was appended is durable — on every path: success, a source error (the
    /// device is locked), an I/O error, cancellation, a spent budget.
    ///
    /// - Parameters:
    ///   - wake: The notification and its completion handler.
    ///   - budget: When to stop (background delivery: well under 30 s).
    /// - Returns: What the sync did (a failure to record it at all is `failed` with the store's error code).
    @discardableResult
    public func handle(_ wake: ObserverWake, budget: SyncBudget = .time(.seconds(20))) async -> SyncResult {
        defer { wake.complete() }
        do {
            return try await sync(wake.type, budget: budget)
        } catch {
            return SyncResult(type: wake.type, outcome: .failed(Self.errorCode(error)), task: "")
        }
    }

    /// Records an app refresh path through the coordinator (the task lifecycle, docs/input-format.md) and
    /// syncs `types`, one after another (joining syncs in flight).
    ///
    /// The coordinator's outcome decides the views' reload signal, as it
    /// does without sync; the sync runs whatever the outcome, because the
    /// data must come in (a throttled request mostly joins a sync in flight
    /// or finds nothing new).
    ///
    /// - Parameters:
    ///   - source: The refresh path: foreground return, observer, background delivery, pull-to-refresh.
    ///   - types: The sample types to sync; for an observer, the first is the type it fired for.
    ///   - budget: Each sync's budget.
    /// - Returns: The coordinator's outcome and one result per type.
    /// - Throws: A `DuneEventsError` when the store cannot record the request.
    public func refresh(_ source: RefreshSource, types: [SampleKind], budget: SyncBudget = .unlimited) async throws -> RefreshSync {
        let kind = source == .healthKitObserver ? types.first : nil
        let before = await store.syncStatus.refresh
        let outcome = try await store.append(.refresh(RefreshRequest(source: source, kind: kind, at: options.now())))
        if case .rejected(let rejection) = outcome { throw rejection }
        let after = await store.syncStatus.refresh
        let decided = RefreshOutcome.allCases.first { after.count(source, $0) > before.count(source, $0) }
        var results: [SyncResult] = []
        for type in types { results.append(try await sync(type, budget: budget)) }
        return RefreshSync(outcome: decided, results: results)
    }

    /// Starts the source's observers for `types`; every notification is
    /// answered by ``handle(_:budget:)`` (completion called once, after durability).
    /// - Parameters:
    ///   - types: The sample types to observe.
    ///   - budget: The budget of each wake's sync.
    /// - Throws: What the source's ``HealthSampleSource/startObserving(_:onChange:)`` throws.
    public func startObserving(_ types: [SampleKind], budget: SyncBudget = .time(.seconds(20))) async throws {
        try await source.startObserving(types) { [weak self] wake in
            guard let self else {
                wake.complete()
                return
            }
            Task { await self.handle(wake, budget: budget) }
        }
    }

    /// Stops the observers.
    public func stopObserving() async {
        await source.stopObserving()
    }
}

/// What ``HealthSyncEngine/refresh(_:types:budget:)`` did.
public struct RefreshSync: Sendable, Hashable {
    /// The coordinator's decision on the request (`performed` asks the views
    /// to reload); `nil` when an identical request was already stored.
    public var outcome: RefreshOutcome?
    /// One result per type synced.
    public var results: [SyncResult]

    /// Creates a value.
    /// - Parameters:
    ///   - outcome: The coordinator's decision.
    ///   - results: The syncs' results.
    public init(outcome: RefreshOutcome?, results: [SyncResult]) {
        self.outcome = outcome
        self.results = results
    }
}
