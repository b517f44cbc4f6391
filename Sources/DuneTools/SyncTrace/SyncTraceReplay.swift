import DuneEvents
import DuneHealthKit
import DuneProjections

/// Runs a ``SyncTrace`` through the sync engine into a store: what
/// `dune-replay sync --trace` does (docs/sync-trace.md).
///
/// - Each `page` line is stored as the engine stores a page: one atomic
///   batch of its samples, its deletions and the `sync.anchored` that ends it.
/// - Each `reconcile` line deletes the stored samples of its type on its days
///   whose ids it does not list (one batch).
/// - Each `fail` line fails the type's sync task: nothing is appended for it
///   but `task.failed`, and the anchor stays.
/// - Tasks: a page or a failure of a type with no sync task open starts one
///   (`task.started`, feature `sync.<type>`); a failure ends it; the end of
///   the trace completes every task still open.
/// - Resume: for each type, every line up to and including the page whose
///   anchor is the type's stored anchor is skipped (reconciles and failures
///   before it too); the lines after it are applied.
package enum SyncTraceReplay {
    /// What the replay did for one sample type.
    package struct TypeSummary: Sendable, Equatable {
        package var type: SampleKind
        package var lines = 0
        package var skippedLines = 0
        package var pages = 0
        package var appended = 0
        package var alreadyAppended = 0
        package var deleted = 0
        package var rejected: [String: Int] = [:]
        package var reconciles = 0
        package var reconcileDeleted = 0
        package var failures = 0
        package var anchor: String?
        /// The anchor the log held before the run (where it resumed), if any.
        package var resumedFrom: String?
    }

    /// What the replay did, per type in kind-name order.
    package struct Summary: Sendable, Equatable {
        package var lines = 0
        package var appliedLines = 0
        package var skippedLines = 0
        package var types: [TypeSummary] = []
    }

    /// Why a trace cannot be replayed onto this log (nothing was appended).
    package struct Refusal: Error, Sendable, CustomStringConvertible {
        package var message: String
        package var description: String { message }
    }

    /// Replays `trace` into `store`.
    ///
    /// - Parameters:
    ///   - trace: The parsed trace.
    ///   - store: A read-write store on the log.
    ///   - now: The time stamped on task and deletion events.
    ///   - afterLine: Called after each applied line (progress; the kill tests).
    /// - Returns: The summary.
    /// - Throws: ``Refusal`` when a type's stored anchor is in the log but not
    ///   in the trace (before anything is appended); a ``DuneEventsError`` when a write fails.
    package static func run(_ trace: SyncTrace, into store: DuneStore, now: @escaping @Sendable () -> Timestamp,
                            afterLine: (@Sendable (Int) -> Void)? = nil) async throws -> Summary {
        let engine = HealthSyncEngine(store: store, source: TraceSource(), options: HealthSyncOptions(now: now))
        var summaries: [SampleKind: TypeSummary] = [:]
        var skipThrough: [SampleKind: Int] = [:]  // index into trace.lines
        for type in Set(trace.lines.map(\.entry.type)).sorted(by: { $0.rawValue < $1.rawValue }) {
            var summary = TypeSummary(type: type)
            if let stored = await store.syncState(of: type)?.anchor {
                summary.resumedFrom = stored
                summary.anchor = stored
                guard let index = trace.lines.firstIndex(where: {
                    if case .page(type, _, let page) = $0.entry { page.anchor.text == stored } else { false }
                }) else {
                    throw Refusal(message: "the log's \(type.rawValue) anchor \"\(stored)\" is not a page anchor of this trace: "
                                  + "the log was synced from another source or trace")
                }
                skipThrough[type] = index
            }
            summaries[type] = summary
        }
        var summary = Summary()
        var openTasks: [SampleKind: String] = [:]
        func openTask(_ type: SampleKind) async throws -> String {
            if let task = openTasks[type] { return task }
            let task = HealthSyncEngine.newTaskID(type)
            try await engine.record(task, type, .started)
            openTasks[type] = task
            return task
        }
        for (index, line) in trace.lines.enumerated() {
            let type = line.entry.type
            summary.lines += 1
            summaries[type]?.lines += 1
            if let skip = skipThrough[type], index <= skip {
                summary.skippedLines += 1
                summaries[type]?.skippedLines += 1
                continue
            }
            switch line.entry {
            case .page(_, _, let page):
                _ = try await openTask(type)
                let tally = try await engine.store(page, with: SyncPageWriter(type: type, deletedAt: now()))
                summaries[type]?.pages += 1
                summaries[type]?.appended += tally.appended
                summaries[type]?.alreadyAppended += tally.alreadyAppended
                summaries[type]?.deleted += tally.deleted
                for (reason, count) in tally.rejected { summaries[type]?.rejected[reason, default: 0] += count }
                summaries[type]?.anchor = page.anchor.text
            case .reconcile(_, let days, let ids):
                let result = try await engine.reconcile(type, days: days, held: ids)
                summaries[type]?.reconciles += 1
                summaries[type]?.reconcileDeleted += result.deletedIDs.count
            case .fail(_, let error):
                let task = try await openTask(type)
                try await engine.record(task, type, .failed, error: error)
                openTasks[type] = nil
                summaries[type]?.failures += 1
            }
            summary.appliedLines += 1
            afterLine?(line.number)
        }
        for (type, task) in openTasks.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            try await engine.record(task, type, .completed)
        }
        summary.types = summaries.values.sorted { $0.type.rawValue < $1.type.rawValue }
        return summary
    }
}

/// The engine's source during trace replay: the trace answers, never a query.
private struct TraceSource: HealthSampleSource {
    func changes(of type: SampleKind, after anchor: SyncAnchor?, limit: Int) async throws -> SyncPage {
        throw SyncSourceError(code: "traceReplay", message: "a trace replay answers from the trace")
    }

    func sampleIDs(of type: SampleKind, on days: ClosedRange<DayKey>) async throws -> Set<String> {
        throw SyncSourceError(code: "traceReplay", message: "a trace replay answers from the trace")
    }

    func startObserving(_ types: [SampleKind], onChange: @escaping @Sendable (ObserverWake) -> Void) async throws {}

    func stopObserving() async {}
}
