import Synchronization
import Testing
@testable import DuneEvents

/// `computedTogether`: two independent computations, each run exactly once,
/// give what running them in turn gives, whichever thread runs each.
@Suite struct ComputedTogetherTests {
    @Test func eachComputationRunsOnceAndItsResultIsReturnedInPlace() {
        let runs = Mutex<[String]>([])
        let (sum, text) = computedTogether({
            runs.withLock { $0.append("first") }
            return (1...100_000).reduce(0, +)
        }, {
            runs.withLock { $0.append("second") }
            return (0..<1_000).map(String.init).joined(separator: ",")
        })
        #expect(sum == 5_000_050_000)
        #expect(text == (0..<1_000).map(String.init).joined(separator: ","))
        #expect(runs.withLock { $0.sorted() } == ["first", "second"])
    }

    @Test func nestedPairsKeepTheirOrder() {
        let (first, (second, third)) = computedTogether({ [1, 2] }, { computedTogether({ "b" }, { 3.5 }) })
        #expect(first == [1, 2] && second == "b" && third == 3.5)
    }
}
