import Foundation
import Testing
@testable import DuneEvents
@testable import DuneProjections

/// Every crash state the file system allows (docs/reliability.md): each
/// workload runs through a recording file system, and for every cut point
/// the states a power loss may leave (unsynced writes lost in any subset or
/// torn at sector boundaries, undurable creates, renames and unlinks undone)
/// are handed to the next opener and checked.
@Suite struct CrashStateTests {
    /// Runs every workload in a temporary directory of its own, in parallel.
    static func explore(_ workloads: [CrashWorkload], explorer: CrashStateExplorer) async throws -> CrashStateExplorer.Outcome {
        // On a memory file system where there is one: the states are many and small, their syncs cost nothing there.
        let parent = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : FileManager.default.temporaryDirectory.path
        let base = parent + "/DuneCrashStates-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: base) }
        let outcomes = try await withThrowingTaskGroup(of: (Int, CrashStateExplorer.Outcome).self) { group in
            for (index, workload) in workloads.enumerated() {
                group.addTask { (index, try await explorer.explore(workload, in: base + "/w\(index)")) }
            }
            var outcomes: [(Int, CrashStateExplorer.Outcome)] = []
            for try await outcome in group { outcomes.append(outcome) }
            return outcomes.sorted { $0.0 < $1.0 }.map(\.1)
        }
        var total = CrashStateExplorer.Outcome()
        for outcome in outcomes {
            total.explored += outcome.explored
            total.violations += outcome.violations
        }
        return total
    }

    /// The explorer, scaled by `DUNE_CRASH_STATES` (a multiplier of the sampled subsets and tears; 1 by default).
    static var explorer: CrashStateExplorer {
        var explorer = CrashStateExplorer()
        let scale = ProcessInfo.processInfo.environment["DUNE_CRASH_STATES"].flatMap(Int.init) ?? 1
        explorer.generator.samples *= max(1, scale)
        explorer.generator.tearsPerWrite *= max(1, scale)
        if scale > 1 { explorer.generator.enumerateUpTo += 2 }
        return explorer
    }

    @Test func everyCrashStateKeepsWhatWasAcknowledged() async throws {
        let workloads = CrashWorkload.all
        let outcome = try await Self.explore(workloads, explorer: Self.explorer)
        let (explored, violations) = (outcome.explored, outcome.violations.count)
        print("crash states: \(explored) explored over \(workloads.count) workloads, \(violations) violations")
        #expect(violations == 0, Comment(rawValue: outcome.violations.prefix(20).joined(separator: "\n")))
        #expect(explored >= 5000)
    }

    /// The self-check: with the append's durable sync skipped (a test-only
    /// switch on the recording witness), acknowledged events are lost in
    /// some crash states, and the explorer says so.
    @Test func skippingTheDurableSyncIsCaught() async throws {
        var explorer = CrashStateExplorer()
        explorer.skipsDurableSync = true
        // Without syncs every write stays pending: a few states per cut find the loss.
        explorer.generator.enumerateUpTo = 3
        explorer.generator.samples = 4
        explorer.generator.tearsPerWrite = 1
        let outcome = try await Self.explore([CrashWorkload.appends(.batch)], explorer: explorer)
        let violations = outcome.violations.count
        print("self-check, the append's durable sync skipped: \(outcome.explored) crash states explored, \(violations) violations")
        #expect(violations > 0)
        #expect(outcome.violations.contains { $0.contains("acknowledged bytes lost") })
    }

    /// Regression (found by the explorer): `forget` removed its journal
    /// before the deletions beside the log were durable, so a crash could
    /// bring back a torn side file holding forgotten bytes with no journal
    /// left to finish the cleanup.
    @Test func forgetNeverBringsBackAForgottenByte() async throws {
        let outcome = try await Self.explore([CrashWorkload.forget], explorer: CrashStateExplorer())
        #expect(outcome.explored > 100)
        let violations = outcome.violations.count
        #expect(violations == 0, Comment(rawValue: outcome.violations.prefix(5).joined(separator: "\n")))
    }
}
