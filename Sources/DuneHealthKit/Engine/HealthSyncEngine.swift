import DuneProjections

/// The sync engine: brings a ``HealthSampleSource``'s samples into a
/// ``DuneStore``, type by type, with the anchor of each type stored as an
/// event in the same batch as the data it stands for (SPEC §12).
///
/// - A sync of a type pages through the source's changes after the type's
///   stored anchor (the anchor of its latest `sync.anchored` event). Each
///   page is one atomic batch: its samples, a `sample.deleted` per deleted
///   id, then `sync.anchored`. A kill at any point resumes from the last
///   stored anchor; a re-delivered sample is `alreadyAppended`.
/// - A sample §3's rules reject, or one the mapping could not express, is
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

    /// Syncs `type` until the source has no more changes, the budget is
    /// spent, a query fails or the task is cancelled; joins a sync of `type`
    /// already in flight instead of starting a second one.
    ///
    /// - Parameters:
    ///   - type: The sample type.
    ///   - budget: When to stop at a page boundary.
    /// - Returns: What the sync did; a failed query or a cancellation is an
    ///   outcome, not an error (every page stored before it stays).
    /// - Throws: A ``DuneEventsError`` when the store cannot record the sync's task.
    public func sync(_ type: SampleKind, budget: SyncBudget = .unlimited) async throws -> SyncResult {
        throw SyncSourceError(code: "notImplemented")
    }

    /// Deletes the stored samples of `type` whose day lies in `days` and that
    /// the source no longer holds (SPEC §12): the deletions a purged
    /// deleted-object record would otherwise hide.
    ///
    /// - Parameters:
    ///   - type: The sample type.
    ///   - days: The local days to check (the day rule of §2).
    /// - Returns: The ids deleted.
    /// - Throws: What the source's ``HealthSampleSource/sampleIDs(of:on:)`` throws (nothing is deleted then), or a ``DuneEventsError``.
    public func reconcile(_ type: SampleKind, days: ClosedRange<DayKey>) async throws -> ReconcileResult {
        throw SyncSourceError(code: "notImplemented")
    }

    /// Answers an observer notification: syncs the wake's type within
    /// `budget`, then calls the wake's completion exactly once, after what
    /// was appended is durable — on every path.
    ///
    /// - Parameters:
    ///   - wake: The notification and its completion handler.
    ///   - budget: When to stop (background delivery: well under 30 s).
    /// - Returns: What the sync did.
    @discardableResult
    public func handle(_ wake: ObserverWake, budget: SyncBudget = .time(.seconds(20))) async -> SyncResult {
        defer { wake.complete() }
        return SyncResult(type: wake.type, outcome: .failed("notImplemented"), task: "")
    }

    /// Starts the source's observers for `types`; every notification is
    /// recorded as a refresh request and answered by ``handle(_:budget:)``.
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
