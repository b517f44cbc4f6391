import DuneProjections

/// Where the sync engine reads samples from: HealthKit on Apple platforms
/// (the adapter in this module), an in-memory source in tests, a recorded
/// trace in `dune-replay sync`.
///
/// The engine (``HealthSyncEngine``) decides everything — paging, what is
/// appended, when the anchor advances, reconcile, budgets, completion
/// handlers — and asks a source only these questions. A source translates;
/// it keeps no state of the sync (the anchor lives in the log, as
/// `sync.anchored` events, and is handed back in every call).
///
/// The contract, for an adapter's author:
/// - ``changes(of:after:limit:)`` is one anchored query (`HKAnchoredObjectQuery`
///   with `limit`): the samples of `type` added or changed after `anchor`,
///   the ids deleted after it, and the new anchor. `nil` asks from the
///   beginning of the type's history. A page with fewer than `limit` changes
///   (added + deleted + unmapped) is the last one; the engine asks again
///   until it gets one. A page's samples are the values HealthKit gave,
///   mapped to `SampleInput` (units as HealthKit gave them; timestamps in
///   the offset of `HKMetadataKeyTimeZone`, else the device's zone, at that
///   instant); a sample the mapping cannot express (an unknown category
///   value, an unknown type) goes into ``SyncPage/unmapped`` with its reason,
///   never dropped silently.
/// - ``sampleIDs(of:on:)`` answers a reconcile: the ids of every sample of
///   `type` HealthKit holds whose day (the local date of `start`; for sleep,
///   of `end + 6 h`) may lie in `days`. Query with margins (±14 h for the
///   offsets, 6 h more for sleep): the engine filters stored samples by the
///   day rule itself, so extra ids outside the range are harmless, but a
///   missing id deletes a sample.
/// - ``startObserving(_:onChange:)`` registers an observer per type
///   (`HKObserverQuery`, with `enableBackgroundDelivery`) and calls
///   `onChange` with a ``ObserverWake`` each time HealthKit fires; the engine
///   calls the wake's completion exactly once, after what the sync appended
///   is durable.
/// - Errors: throw ``SyncSourceError`` (e.g. ``SyncSourceError/databaseInaccessible``
///   while the device is locked); any other error is recorded by its description.
///   A query may never answer: the engine stops waiting when its task is
///   cancelled or its budget is spent, and cancels the query's task.
public protocol HealthSampleSource: Sendable {
    /// One anchored query: the changes of `type` after `anchor`, at most `limit` of them.
    ///
    /// - Parameters:
    ///   - type: The sample kind (`hrv`, `sleep`, `workout`, …).
    ///   - anchor: The anchor of the last stored page; `nil` for the type's whole history.
    ///   - limit: The most changes (added + deleted + unmapped) the page may hold; at least 1.
    /// - Returns: The page, with the anchor to continue from.
    /// - Throws: ``SyncSourceError`` (or any error) when the query fails; nothing of it is appended.
    func changes(of type: SampleKind, after anchor: SyncAnchor?, limit: Int) async throws -> SyncPage

    /// The ids of every sample of `type` the source holds on `days` (see the
    /// protocol's discussion for the margins).
    ///
    /// - Parameters:
    ///   - type: The sample kind.
    ///   - days: The local days, first and last included.
    /// - Returns: The ids; ids outside `days` are allowed and ignored.
    /// - Throws: ``SyncSourceError`` (or any error) when the query fails; nothing is deleted.
    func sampleIDs(of type: SampleKind, on days: ClosedRange<DayKey>) async throws -> Set<String>

    /// Starts observing `types`: `onChange` is called once per change
    /// notification, with the completion handler to answer it.
    ///
    /// - Parameters:
    ///   - types: The sample kinds to observe.
    ///   - onChange: Called for every notification (on any thread).
    /// - Throws: When the source cannot observe (e.g. background delivery is not permitted).
    func startObserving(_ types: [SampleKind], onChange: @escaping @Sendable (ObserverWake) -> Void) async throws

    /// Stops every observer ``startObserving(_:onChange:)`` started.
    func stopObserving() async
}
