import Foundation
import Testing
@testable import DuneEvents
import DuneFixtures
@testable import DuneHealthImport

/// Sample ids come from a record's content, not its place in the file.
struct AppleHealthStableIDTests {
    typealias Fixture = AppleHealthFixture

    @Test func sameRecordGetsTheSameIdInAnotherExport() throws {
        let first = try importAppleHealthExport(Fixture.writer.document([
            Fixture.quantity("HeartRateVariabilitySDNN", "48.2", "ms"),
            Fixture.quantity("StepCount", "412", "count", source: "Anna’s\u{00A0}iPhone"),
            Fixture.sleep("HKCategoryValueSleepAnalysisAsleep"),
            .workout(.init(activityType: "HKWorkoutActivityTypeRunning", totalDistance: "5.1", totalDistanceUnit: "km",
                           totalEnergyBurned: "320", totalEnergyBurnedUnit: "kcal", sourceName: "Apple Watch",
                           startDate: "2024-02-28 18:00:00 +0100", endDate: "2024-02-28 18:30:00 +0100")),
        ]))
        // A later export: other records first, a new export date, other creation
        // dates and versions, the dates written in UTC, the old sleep value
        // renamed, the workout totals moved into WorkoutStatistics, values
        // written with trailing zeros.
        let later = AppleHealthExportWriter(exportDate: "2024-06-01 09:00:00 +0200")
        let second = try importAppleHealthExport(later.document([
            Fixture.quantity("StepCount", "99", "count"),
            .workout(.init(activityType: "HKWorkoutActivityTypeRunning", sourceName: "Apple Watch", sourceVersion: "11.0",
                           creationDate: "2024-05-01 10:00:00 +0200",
                           startDate: "2024-02-28 17:00:00 +0000", endDate: "2024-02-28 17:30:00 +0000",
                           statistics: [
                               .init(type: "HKQuantityTypeIdentifierActiveEnergyBurned", sum: "320", unit: "kcal"),
                               .init(type: "HKQuantityTypeIdentifierDistanceWalkingRunning", sum: "5.1", unit: "km"),
                           ])),
            Fixture.sleep("HKCategoryValueSleepAnalysisAsleepUnspecified", start: "2024-02-28 00:00:00 +0000", end: "2024-02-28 00:30:00 +0000"),
            Fixture.quantity("StepCount", "412.0", "count", source: "Anna’s\u{00A0}iPhone", creationDate: "2024-05-30 11:11:11 +0200"),
            Fixture.quantity("HeartRateVariabilitySDNN", "48.20", "ms", start: "2024-02-28 06:12:00 +0000", end: "2024-02-28 06:12:00 +0000"),
        ]))
        #expect(first.error == nil && second.error == nil)
        let firstIDs = first.inputs.compactMap { $0["id"]?.stringValue }
        let secondIDs = second.inputs.compactMap { $0["id"]?.stringValue }
        #expect(firstIDs.count == 4 && secondIDs.count == 5)
        #expect(Set(firstIDs).isSubset(of: Set(secondIDs)))
        #expect(secondIDs[0] != firstIDs[1])
        // Reimporting the same file gives the same ids.
        #expect(try importAppleHealthExport(Fixture.writer.document([
            Fixture.quantity("HeartRateVariabilitySDNN", "48.2", "ms"),
        ])).inputs.first?["id"] == .string(firstIDs[0]))
    }

    @Test func differentContentGetsDifferentIds() throws {
        let outcome = try importAppleHealthExport(Fixture.writer.document([
            Fixture.quantity("StepCount", "412", "count"),
            Fixture.quantity("StepCount", "413", "count"),
            Fixture.quantity("StepCount", "412", "count", source: "iPhone"),
            Fixture.quantity("StepCount", "412", "count", start: "2024-02-28 07:11:59 +0100"),
            Fixture.quantity("StepCount", "412", "count", end: "2024-02-28 07:12:01 +0100"),
            Fixture.quantity("BodyMass", "412", "count"),
            Fixture.quantity("BodyMass", "412", "lb"),
            Fixture.sleep("HKCategoryValueSleepAnalysisAsleepCore"),
            Fixture.sleep("HKCategoryValueSleepAnalysisAsleepDeep"),
        ]))
        let ids = outcome.inputs.compactMap { $0["id"]?.stringValue }
        #expect(ids.count == 9)
        #expect(Set(ids).count == 9)
    }

    @Test func idIsAVersion8UUID() throws {
        let id = AppleHealthSampleID.make(recordType: "HKQuantityTypeIdentifierStepCount", source: "iPhone",
                                          start: try Fixture.timestamp("2024-02-28T07:12:00+01:00"),
                                          end: try Fixture.timestamp("2024-02-28T07:12:00+01:00"), value: "412", unit: "count")
        let parts = id.split(separator: "-").map(String.init)
        #expect(parts.map(\.count) == [8, 4, 4, 4, 12])
        #expect(parts[2].first == "8")
        #expect(parts[3].first.map { "89AB".contains($0) } == true)
        #expect(id == id.uppercased())
        // The formula is fixed: this value must never change.
        #expect(id == Self.expectedStepCountID)
    }

    /// The id of the record in ``idIsAVersion8UUID()``, computed independently
    /// with Python's hashlib from the documented encoding:
    /// `20:dune-apple-health-v133:HKQuantityTypeIdentifierStepCount6:iPhone20:1709100720.00000000020:1709100720.0000000003:4125:count`.
    static let expectedStepCountID = "59DDDDA5-94CF-8EC9-98AB-4115A37BD52D"

    // MARK: - SHA-256

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ])
    func sha256MatchesTheFIPSVectors(message: String, expected: String) {
        let digest = HealthExportSHA256.digest(Array(message.utf8))
        #expect(digest.map { String(format: "%02x", $0) }.joined() == expected)
    }

    @Test func sha256OfAMillionAs() {
        var hasher = HealthExportSHA256()
        let block = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { hasher.update(block) }
        #expect(hasher.finish().map { String(format: "%02x", $0) }.joined()
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
