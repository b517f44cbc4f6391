import Foundation
import Testing
import DuneEvents
@testable import DuneProjections

/// Issue 35, item 5: README's snippet, as written, ends — its observer loop
/// ends when the store is closed — and a day with only steps has no score
/// (the SwiftUI example says "not enough data", never "Readiness 0").
@Suite struct ReadmeSnippetTests {
    @Test func theReadmeSnippetsObserverEndsWhenTheStoreCloses() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let store = try await DuneStore.open(at: directory + "/events.jsonl")
            let observer = Task {
                var seen = 0
                for try await _ in store.states { seen += 1 }
                return seen
            }
            let start = Timestamp(Date(timeIntervalSince1970: 1_772_431_960), in: TimeZone(secondsFromGMT: 3600)!)
            let outcomes = try await store.append([.sample(SampleInput(
                id: "uuid-1", start: start, end: start.adding(seconds: 600),
                source: "iPhone", reading: .stepCount(1200, .count)))])
            #expect(outcomes == [.appended(seq: 1)])
            let today = try #require(await store.state.readiness.days.last)
            #expect(today.score == nil)  // only steps: "not enough data", not 0
            await store.close()
            #expect(try await observer.value >= 1)
        }
    }
}
