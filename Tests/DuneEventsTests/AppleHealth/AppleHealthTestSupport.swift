import Foundation
import Testing
@testable import DuneEvents
import DuneFixtures
@testable import DuneHealthImport

/// What one import of a fixture produced: the emitted records, the summary,
/// and the error that stopped it, if any.
struct AppleHealthImportOutcome: Sendable {
    var records: [AppleHealthRecord]
    var summary: AppleHealthImportSummary
    var error: DuneEventsError?

    /// The emitted input objects, in file order.
    var inputs: [JSONObject] { records.map(\.input) }
}

/// A fresh directory under the system's temporary directory, removed after `body`.
func withAppleHealthTestDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("dune-apple-health-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
}

/// Writes `bytes` as `export.xml` in a fresh directory and imports it.
func importAppleHealthExport(_ bytes: [UInt8], chunkSize: Int = 1 << 20, maximumElementBytes: Int = 1 << 20) throws -> AppleHealthImportOutcome {
    try withAppleHealthTestDirectory { directory in
        let path = directory.appendingPathComponent("export.xml").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return importAppleHealthFile(path, chunkSize: chunkSize, maximumElementBytes: maximumElementBytes)
    }
}

/// Imports the export text `xml`.
func importAppleHealthExport(_ xml: String, chunkSize: Int = 1 << 20) throws -> AppleHealthImportOutcome {
    try importAppleHealthExport(Array(xml.utf8), chunkSize: chunkSize)
}

/// Imports the file at `path`, catching the `DuneEventsError` that stops it.
func importAppleHealthFile(_ path: String, chunkSize: Int = 1 << 20, maximumElementBytes: Int = 1 << 20) -> AppleHealthImportOutcome {
    let importer = AppleHealthImporter(path: path, chunkSize: chunkSize, maximumElementBytes: maximumElementBytes)
    var records: [AppleHealthRecord] = []
    var summary = AppleHealthImportSummary(path: path)
    var failure: DuneEventsError?
    do {
        try importer.run(into: &summary) { records.append($0) }
    } catch let error as DuneEventsError {
        failure = error
    } catch {
        failure = DuneEventsError(.io, "unexpected error \(error)")
    }
    return AppleHealthImportOutcome(records: records, summary: summary, error: failure)
}

/// Fixture builders shared by the Apple Health tests.
enum AppleHealthFixture {
    static let exportDate = "2024-03-01 09:00:00 +0100"
    static let writer = AppleHealthExportWriter(exportDate: exportDate)

    static let device = "<<HKDevice: 0x283a1c0f0>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.2>"

    /// A quantity record with Apple's usual extra attributes.
    static func quantity(_ type: String, _ value: String, _ unit: String, source: String = "Apple Watch",
                         start: String = "2024-02-28 07:12:00 +0100", end: String = "2024-02-28 07:12:00 +0100",
                         creationDate: String = "2024-02-28 07:15:00 +0100") -> AppleHealthExportWriter.Element {
        .record(.init(type: "HKQuantityTypeIdentifier" + type, sourceName: source, sourceVersion: "10.2", device: device,
                      unit: unit, value: value, creationDate: creationDate, startDate: start, endDate: end))
    }

    /// A sleep analysis record.
    static func sleep(_ value: String, source: String = "Apple Watch",
                      start: String = "2024-02-28 01:00:00 +0100", end: String = "2024-02-28 01:30:00 +0100") -> AppleHealthExportWriter.Element {
        .record(.init(type: "HKCategoryTypeIdentifierSleepAnalysis", sourceName: source, sourceVersion: "10.2", device: device,
                      value: value, creationDate: "2024-02-28 07:00:00 +0100", startDate: start, endDate: end,
                      metadata: [.init("HKTimeZone", "Europe/Zurich")]))
    }

    /// The timestamp for RFC 3339 text (the test fails if it does not parse).
    static func timestamp(_ text: String) throws -> Timestamp {
        try Timestamp(parsing: text)
    }

    /// The input object the importer should emit for a quantity record.
    static func expectedQuantity(_ type: String, kind: SampleKind, value: Double, unit: String, source: String = "Apple Watch",
                                 start: String = "2024-02-28T07:12:00+01:00", end: String = "2024-02-28T07:12:00+01:00") throws -> JSONObject {
        let id = AppleHealthSampleID.make(recordType: "HKQuantityTypeIdentifier" + type, source: source,
                                          start: try timestamp(start), end: try timestamp(end),
                                          value: JSONWriter.formatNumber(value), unit: unit)
        return JSONObject([
            JSONMember("type", .string("sample")), JSONMember("kind", .string(kind.rawValue)), JSONMember("id", .string(id)),
            JSONMember("start", .string(start)), JSONMember("end", .string(end)), JSONMember("value", .number(value)),
            JSONMember("unit", .string(unit)), JSONMember("source", .string(source)),
        ])
    }

    /// The input object the importer should emit for a sleep record.
    static func expectedSleep(_ stage: SleepStage, source: String = "Apple Watch",
                              start: String = "2024-02-28T01:00:00+01:00", end: String = "2024-02-28T01:30:00+01:00") throws -> JSONObject {
        let id = AppleHealthSampleID.make(recordType: "HKCategoryTypeIdentifierSleepAnalysis", source: source,
                                          start: try timestamp(start), end: try timestamp(end), value: stage.rawValue, unit: nil)
        return JSONObject([
            JSONMember("type", .string("sample")), JSONMember("kind", .string("sleep")), JSONMember("id", .string(id)),
            JSONMember("start", .string(start)), JSONMember("end", .string(end)), JSONMember("value", .string(stage.rawValue)),
            JSONMember("source", .string(source)),
        ])
    }

    /// A small but complete export: every supported kind, a workout with
    /// statistics, a correlation, an activity summary, metadata and HRV beats.
    static var small: String {
        writer.document(smallElements)
    }

    /// ``small`` without the DOCTYPE: a third of the size, for exhaustive loops.
    static var compact: String {
        AppleHealthExportWriter(exportDate: exportDate, doctype: .none).document(smallElements)
    }

    static var smallElements: [AppleHealthExportWriter.Element] {
        [
            .comment("Heart rate variability"),
            .record(.init(type: "HKQuantityTypeIdentifierHeartRateVariabilitySDNN", sourceName: "Anna’s Apple Watch", sourceVersion: "10.2",
                          device: device, unit: "ms", value: "48.2", creationDate: "2024-02-28 07:15:00 +0100",
                          startDate: "2024-02-28 07:10:00 +0100", endDate: "2024-02-28 07:11:00 +0100",
                          instantaneousBeatsPerMinute: [.init(bpm: "61", time: "7:10:01.12 AM"), .init(bpm: "63", time: "7:10:02.05 AM")])),
            quantity("RestingHeartRate", "52", "count/min"),
            quantity("StepCount", "412", "count", source: "Anna’s\u{00A0}iPhone"),
            quantity("HeartRate", "71", "count/min"),
            sleep("HKCategoryValueSleepAnalysisAsleepCore"),
            .workout(.init(activityType: "HKWorkoutActivityTypeRunning", duration: "30", durationUnit: "min",
                           sourceName: "Apple Watch", startDate: "2024-02-28 18:00:00 +0100", endDate: "2024-02-28 18:30:00 +0100",
                           metadata: [.init("HKIndoorWorkout", "0")],
                           events: [.init(type: "HKWorkoutEventTypePause", date: "2024-02-28 18:10:00 +0100")],
                           statistics: [
                               .init(type: "HKQuantityTypeIdentifierHeartRate", average: "150", unit: "count/min"),
                               .init(type: "HKQuantityTypeIdentifierActiveEnergyBurned", sum: "320.5", unit: "kcal"),
                               .init(type: "HKQuantityTypeIdentifierDistanceWalkingRunning", sum: "5.1", unit: "km"),
                           ], routeFile: "/workout-routes/route_2024-02-28_6.30pm.gpx")),
            .correlation(.init(type: "HKCorrelationTypeIdentifierBloodPressure", sourceName: "Health",
                               startDate: "2024-02-27 08:00:00 +0100", endDate: "2024-02-27 08:00:00 +0100",
                               records: [
                                   .init(type: "HKQuantityTypeIdentifierBloodPressureSystolic", sourceName: "Health", unit: "mmHg", value: "120",
                                         startDate: "2024-02-27 08:00:00 +0100", endDate: "2024-02-27 08:00:00 +0100"),
                                   .init(type: "HKQuantityTypeIdentifierBodyMass", sourceName: "Health", unit: "kg", value: "70",
                                         startDate: "2024-02-27 08:00:00 +0100", endDate: "2024-02-27 08:00:00 +0100"),
                               ])),
            quantity("BodyMass", "70.4", "kg", source: "Scale"),
            .activitySummary(.init(dateComponents: "2024-02-28", activeEnergyBurned: "540", activeEnergyBurnedGoal: "600",
                                   activeEnergyBurnedUnit: "kcal", appleExerciseTime: "35", appleExerciseTimeGoal: "30",
                                   appleStandHours: "11", appleStandHoursGoal: "12")),
        ]
    }
}

/// A deterministic generator for fuzz tests (SplitMix64).
struct AppleHealthTestRandom: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension DuneEventsError {
    /// Whether the error names a line and a byte offset in `path`'s file.
    func hasLocation(inFileNamed name: String = "export.xml") -> Bool {
        location.line != nil && location.byteOffset != nil && (location.path?.hasSuffix(name) ?? false)
    }
}
