@testable import DuneHealthKit
import DuneProjections
import Foundation
import Testing

/// The trace recorder writes each answer of the source it wraps, in SPEC §12's
/// trace format, and passes the answers through unchanged.
struct TraceRecordingSourceTests {
    /// A source with one scripted answer per call.
    private actor ScriptedSource: HealthSampleSource {
        var pages: [Result<SyncPage, any Error>]
        let ids: Set<String>

        init(pages: [Result<SyncPage, any Error>], ids: Set<String>) {
            self.pages = pages
            self.ids = ids
        }

        func changes(of type: SampleKind, after anchor: SyncAnchor?, limit: Int) async throws -> SyncPage {
            try pages.removeFirst().get()
        }

        func sampleIDs(of type: SampleKind, on days: ClosedRange<DayKey>) async throws -> Set<String> { ids }
        func startObserving(_ types: [SampleKind], onChange: @escaping @Sendable (ObserverWake) -> Void) async throws {}
        func stopObserving() async {}
    }

    private static func timestamp(_ text: String) throws -> Timestamp { try Timestamp(parsing: text) }

    @Test func writesPageReconcileAndFailLinesAsTheyHappen() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let hrv = SampleInput(id: "A1", start: try Self.timestamp("2026-02-28T07:12:00+09:00"),
                              end: try Self.timestamp("2026-02-28T07:12:00+09:00"), source: "Apple Watch", reading: .hrv(48.5, .milliseconds))
        let sleep = SampleInput(id: "S1", start: try Self.timestamp("2026-02-27T23:00:00+01:00"),
                                end: try Self.timestamp("2026-02-28T01:30:00+01:00"), source: "Oura", reading: .sleep(.asleepCore))
        let run = SampleInput(id: "W1", start: try Self.timestamp("2026-02-28T18:00:00Z"), end: try Self.timestamp("2026-02-28T18:45:00Z"),
                              source: "Apple Watch",
                              reading: .workout(WorkoutInput(activityType: "running", energy: 512, distance: 8200)))
        let page = SyncPage(anchor: SyncAnchor("B2"), added: [hrv, sleep, run], deletedIDs: ["D9"],
                            unmapped: [UnmappedSample(id: "U1", reason: .unknownCategoryValue("HKCategoryValueSleepAnalysis 9"))])
        let base = ScriptedSource(pages: [.success(page), .failure(SyncSourceError.databaseInaccessible)], ids: ["B", "A"])
        let source = TraceRecordingSource(recording: base, toTraceAt: path)

        let answered = try await source.changes(of: .hrv, after: SyncAnchor("B1"), limit: 100)
        #expect(answered == page)
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written.hasSuffix("\n") && written.split(separator: "\n").count == 1)  // written before the answer returned

        await #expect(throws: SyncSourceError.databaseInaccessible) {
            try await source.changes(of: .sleep, after: nil, limit: 100)
        }
        let ids = try await source.sampleIDs(of: .sleep, on: DayKey("2026-02-27")!...DayKey("2026-02-28")!)
        #expect(ids == ["A", "B"])

        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines == [
            #"{"page":{"added":[{"end":"2026-02-28T07:12:00+09:00","id":"A1","kind":"hrv","source":"Apple Watch","start":"2026-02-28T07:12:00+09:00","unit":"ms","value":48.5},"#
                + #"{"end":"2026-02-28T01:30:00+01:00","id":"S1","kind":"sleep","source":"Oura","start":"2026-02-27T23:00:00+01:00","value":"asleepCore"},"#
                + #"{"activityType":"running","distance":8200,"distanceUnit":"m","end":"2026-02-28T18:45:00Z","energy":512,"energyUnit":"kcal","id":"W1","kind":"workout","source":"Apple Watch","start":"2026-02-28T18:00:00Z"}],"#
                + #""after":"B1","anchor":"B2","deleted":["D9"],"sampleType":"hrv"}}"#,
            #"{"fail":{"error":"databaseInaccessible","sampleType":"sleep"}}"#,
            #"{"reconcile":{"from":"2026-02-27","ids":["A","B"],"sampleType":"sleep","to":"2026-02-28"}}"#,
        ])
        #expect(await source.recordingError() == nil)
    }

    @Test func anUnwritableTraceStopsRecordingButNotTheSync() async throws {
        let page = SyncPage(anchor: SyncAnchor("B1"))
        let base = ScriptedSource(pages: [.success(page), .success(page)], ids: [])
        let source = TraceRecordingSource(recording: base, toTraceAt: "/nonexistent-directory-\(UUID().uuidString)/trace.jsonl")
        #expect(try await source.changes(of: .hrv, after: nil, limit: 10) == page)
        #expect(try await source.changes(of: .hrv, after: SyncAnchor("B1"), limit: 10) == page)
        let error = try #require(await source.recordingError())
        #expect(error.message.contains("nonexistent-directory"))
    }
}
