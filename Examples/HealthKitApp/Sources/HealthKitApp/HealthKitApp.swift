import DuneHealthKit
import DuneProjections
import Foundation
import Synchronization

/// An app's use of DuneHealthKit, end to end: open the store, sync every type
/// (a first backfill, page by page), answer an observer wake (the completion
/// called once, after the data is durable), reconcile a deletion HealthKit
/// purged, and record the whole sync to a trace `dune-replay sync --trace` replays.
///
/// Here the source is an in-memory stand-in for HealthKit; on a device with
/// HealthKit data it is ``HealthKitWiring`` (the adapter). Output is
/// deterministic: `.ci/run` runs it.
@main
struct HealthKitApp {
    static func main() async throws {
        // `--out DIR` keeps the log and the trace there (to replay the trace with `dune-replay sync`);
        // by default they go to a temporary folder that is removed.
        let arguments = CommandLine.arguments.dropFirst()
        let keep = arguments.first == "--out" ? arguments.dropFirst().first : nil
        let directory = keep.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("HealthKitApp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { if keep == nil { try? FileManager.default.removeItem(at: directory) } }
        let logPath = directory.appendingPathComponent("events.jsonl").path
        let tracePath = directory.appendingPathComponent("sync-trace.jsonl").path

        let store = try await DuneStore.open(at: logPath)
        let demo = DemoHealthSource()
        let source: any HealthSampleSource
        #if canImport(HealthKit)
        source = HealthKitSampleSource.isHealthDataAvailable ? HealthKitWiring.source(tracePath: tracePath)
                                                             : TraceRecordingSource(recording: demo, toTraceAt: tracePath)
        #else
        source = TraceRecordingSource(recording: demo, toTraceAt: tracePath)
        #endif
        let engine = HealthSyncEngine(store: store, source: source, options: HealthSyncOptions(pageSize: 25))

        // Sixty days of history waiting in "HealthKit", and one sleep value a later iOS added.
        let history = try DemoHistory(days: 60)
        await demo.add(history.samples)
        await demo.addUnmapped(UnmappedSample(id: "night-60-unknown", reason: .unknownCategoryValue("HKCategoryValueSleepAnalysis 9")),
                               of: .sleep)

        // First launch: a backfill of every type, one atomic batch per page ending in sync.anchored.
        for type in DemoHistory.kinds {
            let result = try await engine.sync(type)
            print("sync \(type.rawValue): \(result.outcome), \(result.pages) pages, \(result.appended) appended"
                  + (result.rejected.isEmpty ? "" : ", not appended: " + result.rejected.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")))
        }

        // Background delivery: HealthKit fires the HRV observer after a new sample.
        try await engine.startObserving(DemoHistory.kinds)
        await demo.add([try history.extraHRV()])
        let completions = Mutex(0)
        let answered = AsyncStream<Void>.makeStream()
        let delivered = await demo.notify(.hrv) {
            completions.withLock { $0 += 1 }
            answered.continuation.yield()
        }
        for await _ in answered.stream { break }  // HealthKit waits for the completion handler
        let hrvSync = await store.state.syncStatus.features.first { $0.feature == "sync.hrv" }
        print("observer wake delivered: \(delivered); completion handler called \(completions.withLock { $0 }) time(s); "
              + "task sync.hrv: \(hrvSync.map { "\($0.phase), \($0.counts.completed) completed" } ?? "none")")

        // A step sample deleted while the app was not running, its deleted-object record already purged:
        // a sync cannot see it, a reconcile of the last 14 days does.
        guard let victim = history.samples.first(where: { $0.kind == .stepCount && $0.start.localDate == history.lastDay }) else {
            print("the demo history has no step sample on its last day")
            return
        }
        await demo.delete(victim.id, of: .stepCount, keepRecord: false)
        let quiet = try await engine.sync(.stepCount)
        let reconciled = try await engine.reconcile(.stepCount, days: history.lastDay.adding(days: -13)...history.lastDay)
        print("after the purge: sync deleted \(quiet.deleted); reconcile deleted \(reconciled.deletedIDs.count) (\(reconciled.deletedIDs.joined()))")
        await engine.stopObserving()

        // What the read models say, and what the trace holds.
        let state = await store.state
        for type in state.syncStatus.sampleTypes {
            print("sync status \(type.sampleType.rawValue): \(type.pages) pages, \(type.samples) samples, \(type.deleted) deleted, "
                  + "phase \(type.phase)" + (type.rejected.isEmpty ? "" : ", rejected \(type.rejected.map { "\($0.reason)=\($0.count)" })"))
        }
        if let today = state.readiness.days.last {
            print("readiness \(today.date): \(today.score.map { String(format: "%.1f", $0) } ?? "–") (\(today.status))")
        }
        let trace = try String(contentsOfFile: tracePath, encoding: .utf8).split(separator: "\n")
        let kinds = ["page", "reconcile", "fail"].map { kind in "\(trace.filter { $0.hasPrefix("{\"\(kind)\"") }.count) \(kind)" }
        print("trace: \(trace.count) lines (\(kinds.joined(separator: ", "))); replay with: dune-replay sync --trace <trace>")
        await store.close()
    }
}
