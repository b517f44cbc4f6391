import Foundation
import Testing
import DuneEvents
@testable import DuneProjections

/// Issue 35, item 6 through the typed API: hrv 48 → 50 → 48, the last with a
/// new `eventID`, leaves the read models at 48; without one it stays at 50.
@Suite struct StoreCorrectionBackTests {
    static func hrv(_ value: Double, eventID: String? = nil) -> StoreInput {
        let start = DuneStoreTests.time("2026-03-02T06:00:00+01:00")
        return .sample(SampleInput(id: "manual-1", start: start, end: start.adding(seconds: 60), source: "Apple Watch",
                                   reading: .hrv(value, .milliseconds)), eventID: eventID)
    }

    @Test func aTypedAppendWithANewEventIDCorrectsBack() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let store = try await DuneStore.open(at: directory + "/events.jsonl")
            #expect(try await store.append([Self.hrv(48), Self.hrv(50), Self.hrv(48)]) == [.appended(seq: 1), .appended(seq: 2), .alreadyAppended])
            #expect(await store.state.readiness.days.last?.hrv == 50)
            #expect(try await store.append(Self.hrv(48, eventID: "manual-1-edit-2")) == .appended(seq: 3))
            #expect(await store.state.readiness.days.last?.hrv == 48)
            // Sent again, or the current value with another new eventID: nothing changes.
            #expect(try await store.append([Self.hrv(48, eventID: "manual-1-edit-2"), Self.hrv(48, eventID: "manual-1-edit-3"), Self.hrv(50)])
                    == [.alreadyAppended, .alreadyAppended, .alreadyAppended])
            #expect(await store.state.readiness.days.last?.hrv == 48)
            await store.close()
        }
    }
}
