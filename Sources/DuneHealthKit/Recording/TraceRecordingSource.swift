import DuneProjections

/// A ``HealthSampleSource`` that answers exactly as the source it wraps and
/// writes every answer to a trace file, in the format `dune-replay sync
/// --trace` replays (docs/sync-trace.md), as the answers happen.
///
/// Opt-in: wrap the HealthKit adapter in it to reproduce a user's sync bug.
/// A page becomes a `page` line (the anchor it was asked after, the new
/// anchor, its samples as §3 sample objects, its deleted ids), a reconcile's
/// answer a `reconcile` line, and a failed query a `fail` line with the
/// error's code. Cancellations are not written (HealthKit did not answer).
/// Samples the source could not map (``SyncPage/unmapped``) have no form in
/// the trace and are left out: replay counts them as nothing.
///
/// Recording never changes the sync: a trace that cannot be written stops
/// recording (``recordingError()`` says why) and the answers pass through.
///
/// ```swift
/// let source = try TraceRecordingSource(recording: HealthKitSampleSource(), toTraceAt: tracePath)
/// let engine = HealthSyncEngine(store: store, source: source)
/// ```
/// Then, on a computer: `dune-replay sync --trace trace.jsonl --log user.jsonl`.
public final class TraceRecordingSource: HealthSampleSource {
    /// The source whose answers are recorded.
    public let base: any HealthSampleSource
    private let writer: SyncTraceWriter

    /// Wraps `base`; the trace file is created (mode 0600, `protection`) or
    /// appended to on the first answer.
    /// - Parameters:
    ///   - base: The source to record.
    ///   - path: The trace file.
    ///   - protection: Its Data Protection class (default: readable after the first unlock, like the log).
    public init(recording base: any HealthSampleSource, toTraceAt path: String, protection: FileProtection = .default) {
        self.base = base
        self.writer = SyncTraceWriter(path: path, protection: protection)
    }

    /// Why recording stopped, or `nil` while it works.
    public func recordingError() async -> DuneEventsError? {
        await writer.failure
    }

    /// The base's answer, written as a `page` line (or a `fail` line when it throws).
    public func changes(of type: SampleKind, after anchor: SyncAnchor?, limit: Int) async throws -> SyncPage {
        do {
            let page = try await base.changes(of: type, after: anchor, limit: limit)
            await writer.write(SyncTraceLine.page(type, after: anchor, page))
            return page
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            await writer.write(SyncTraceLine.fail(type, error))
            throw error
        }
    }

    /// The base's answer, written as a `reconcile` line (or a `fail` line when it throws).
    public func sampleIDs(of type: SampleKind, on days: ClosedRange<DayKey>) async throws -> Set<String> {
        do {
            let ids = try await base.sampleIDs(of: type, on: days)
            await writer.write(SyncTraceLine.reconcile(type, days: days, ids: ids))
            return ids
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            await writer.write(SyncTraceLine.fail(type, error))
            throw error
        }
    }

    /// Starts the base's observers (nothing is recorded: a wake leads to `changes`).
    public func startObserving(_ types: [SampleKind], onChange: @escaping @Sendable (ObserverWake) -> Void) async throws {
        try await base.startObserving(types, onChange: onChange)
    }

    /// Stops the base's observers.
    public func stopObserving() async {
        await base.stopObserving()
    }
}
