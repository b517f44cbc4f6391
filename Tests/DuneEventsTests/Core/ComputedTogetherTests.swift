import Dispatch
import Synchronization
import Testing
@testable import DuneEvents

/// `computedTogether`: two independent computations, each run exactly once,
/// give what running them in turn gives, whichever thread runs each.
@Suite struct ComputedTogetherTests {
    private final class Runs: Sendable {
        let names = Mutex<[String]>([])
    }

    @Test func eachComputationRunsOnceAndItsResultIsReturnedInPlace() {
        let runs = Runs()
        let (sum, text) = computedTogether({
            runs.names.withLock { $0.append("first") }
            return (1...100_000).reduce(0, +)
        }, {
            runs.names.withLock { $0.append("second") }
            return (0..<1_000).map(String.init).joined(separator: ",")
        })
        #expect(sum == 5_000_050_000)
        #expect(text == (0..<1_000).map(String.init).joined(separator: ","))
        #expect(runs.names.withLock { $0.sorted() } == ["first", "second"])
    }

    @Test func nestedPairsKeepTheirOrder() {
        let (first, (second, third)) = computedTogether({ [1, 2] }, { computedTogether({ "b" }, { 3.5 }) })
        #expect(first == [1, 2] && second == "b" && third == 3.5)
    }

    @Test func callersOnEveryThreadOfThePoolEachGetTheirOwnPair() {
        // Every global-queue thread calls at once: each second computation still gets a thread.
        let results = Mutex<[(Int, Int, Int)]>([])
        DispatchQueue.concurrentPerform(iterations: 32) { index in
            let (a, b) = computedTogether({ index * 2 }, { index * 3 })
            results.withLock { $0.append((index, a, b)) }
        }
        let pairs = results.withLock { $0 }.sorted { $0.0 < $1.0 }
        #expect(pairs.map(\.0) == Array(0..<32))
        #expect(pairs.allSatisfy { $0.1 == $0.0 * 2 && $0.2 == $0.0 * 3 })
    }
}
