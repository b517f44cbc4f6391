import Foundation
import Testing
@testable import DuneEvents
@testable import DuneHealthImport

/// The importer on real exports published on GitHub, when they are present
/// on this machine (they are not part of the repository: see
/// /work/shared/data/real/README.md).
struct AppleHealthRealExportTests {
    static let directory = "/work/shared/data/real/"
    static let version14 = directory + "grll_export_v14_fixture.xml"
    static let older = directory + "dogsheep_export_fixture.xml"

    @Test(.enabled(if: FileManager.default.fileExists(atPath: version14)))
    func version14ExportImportsCompletely() throws {
        let outcome = importAppleHealthFile(Self.version14)
        #expect(outcome.error == nil)
        #expect(outcome.summary.isComplete)
        #expect(outcome.summary.exportDate?.text == "2025-06-17T12:00:00+01:00")
        #expect(outcome.summary.seen == 32 && outcome.summary.emitted == 13 && outcome.summary.skipped == 19 && outcome.summary.rejected == 0)
        #expect(outcome.summary.recordsInCorrelations == 2)
        let emitted = outcome.summary.recordTypes.filter { $0.emitted > 0 }.map { "\($0.kind?.rawValue ?? "-")=\($0.emitted)" }
        #expect(emitted == ["sleep=2", "bodyFatPercentage=1", "bodyMass=2", "bodyMassIndex=2", "hrv=1", "restingHeartRate=1",
                            "stepCount=2", "workout=2"])
        let workouts = outcome.inputs.filter { $0["kind"] == .string("workout") }
        #expect(workouts.map { $0["activityType"] } == [.string("walking"), .string("cycling")])
        #expect(workouts.map { $0["energyUnit"] } == [.string("Cal"), .string("Cal")])
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: older)))
    func olderExportImportsCompletely() throws {
        let outcome = importAppleHealthFile(Self.older)
        #expect(outcome.error == nil)
        #expect(outcome.summary.exportDate?.text == "2019-07-19T10:36:11-07:00")
        #expect(outcome.summary.seen == 6 && outcome.summary.emitted == 2 && outcome.summary.skipped == 4)
        #expect(outcome.summary["ActivitySummary"]?.skipped == 2)
        let workout = try #require(outcome.inputs.first { $0["kind"] == .string("workout") })
        #expect(workout["distanceUnit"] == .string("mi") && workout["energyUnit"] == .string("kcal"))
    }
}
