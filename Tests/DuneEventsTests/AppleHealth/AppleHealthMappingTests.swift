import Foundation
import Testing
@testable import DuneEvents
@testable import DuneHealthImport

/// How export records become SPEC §3 input objects.
struct AppleHealthMappingTests {
    typealias Fixture = AppleHealthFixture

    @Test func everyQuantityTypeMapsToItsKindWithValueAndUnitAsWritten() throws {
        let outcome = try importAppleHealthExport(Fixture.writer.document([
            Fixture.quantity("HeartRateVariabilitySDNN", "48.2", "ms"),
            Fixture.quantity("RestingHeartRate", "52", "count/min"),
            Fixture.quantity("StepCount", "412", "count"),
            Fixture.quantity("BodyMass", "72.5", "kg"),
            Fixture.quantity("BodyMass", "160.2", "lb"),
            Fixture.quantity("BodyMass", "72500", "g"),
            Fixture.quantity("BodyFatPercentage", "0.185", "%"),
            Fixture.quantity("BodyMassIndex", "22.4", "count"),
        ]))
        #expect(outcome.error == nil)
        #expect(outcome.inputs == [
            try Fixture.expectedQuantity("HeartRateVariabilitySDNN", kind: .hrv, value: 48.2, unit: "ms"),
            try Fixture.expectedQuantity("RestingHeartRate", kind: .restingHeartRate, value: 52, unit: "count/min"),
            try Fixture.expectedQuantity("StepCount", kind: .stepCount, value: 412, unit: "count"),
            try Fixture.expectedQuantity("BodyMass", kind: .bodyMass, value: 72.5, unit: "kg"),
            try Fixture.expectedQuantity("BodyMass", kind: .bodyMass, value: 160.2, unit: "lb"),
            try Fixture.expectedQuantity("BodyMass", kind: .bodyMass, value: 72500, unit: "g"),
            try Fixture.expectedQuantity("BodyFatPercentage", kind: .bodyFatPercentage, value: 0.185, unit: "%"),
            try Fixture.expectedQuantity("BodyMassIndex", kind: .bodyMassIndex, value: 22.4, unit: "count"),
        ])
        #expect(outcome.records.map(\.recordType) == [
            "HKQuantityTypeIdentifierHeartRateVariabilitySDNN", "HKQuantityTypeIdentifierRestingHeartRate",
            "HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierBodyMass", "HKQuantityTypeIdentifierBodyMass",
            "HKQuantityTypeIdentifierBodyMass", "HKQuantityTypeIdentifierBodyFatPercentage", "HKQuantityTypeIdentifierBodyMassIndex",
        ])
        #expect(outcome.records.map(\.kind) == [.hrv, .restingHeartRate, .stepCount, .bodyMass, .bodyMass, .bodyMass,
                                                .bodyFatPercentage, .bodyMassIndex])
    }

    @Test(arguments: [
        ("HKCategoryValueSleepAnalysisInBed", SleepStage.inBed),
        ("HKCategoryValueSleepAnalysisAsleepUnspecified", .asleepUnspecified),
        ("HKCategoryValueSleepAnalysisAsleep", .asleepUnspecified),
        ("HKCategoryValueSleepAnalysisAsleepCore", .asleepCore),
        ("HKCategoryValueSleepAnalysisAsleepDeep", .asleepDeep),
        ("HKCategoryValueSleepAnalysisAsleepREM", .asleepREM),
        ("HKCategoryValueSleepAnalysisAwake", .awake),
    ])
    func everySleepValueMapsToItsStage(value: String, stage: SleepStage) throws {
        let outcome = try importAppleHealthExport(Fixture.writer.document([Fixture.sleep(value)]))
        #expect(outcome.error == nil)
        #expect(outcome.inputs == [try Fixture.expectedSleep(stage)])
        #expect(outcome.records.map(\.kind) == [.sleep])
    }

    @Test func unknownSleepValueIsRejectedWithItsLine() throws {
        let outcome = try importAppleHealthExport(Fixture.writer.document([
            Fixture.sleep("HKCategoryValueSleepAnalysisDreaming"),
            Fixture.sleep("HKCategoryValueSleepAnalysisAwake"),
        ]))
        #expect(outcome.error == nil)
        #expect(outcome.inputs == [try Fixture.expectedSleep(.awake)])
        let sleep = try #require(outcome.summary["HKCategoryTypeIdentifierSleepAnalysis"])
        #expect(sleep.seen == 2 && sleep.emitted == 1 && sleep.rejected == 1)
        #expect(sleep.rejectionReasons == [AppleHealthRejectionCount(reason: .invalidValue, count: 1)])
        let example = try #require(sleep.examples.first)
        let xml = Fixture.writer.document([Fixture.sleep("HKCategoryValueSleepAnalysisDreaming")])
        let expectedLine = xml.split(separator: "\n", omittingEmptySubsequences: false)
            .firstIndex { $0.contains("Dreaming") }.map { $0 + 1 }
        #expect(example.line == expectedLine)
        #expect(example.reason == .invalidValue)
        #expect(example.detail.contains("HKCategoryValueSleepAnalysisDreaming"))
    }

    @Test func workoutWithTotalAttributesUsesThem() throws {
        let outcome = try importAppleHealthExport(Fixture.writer.document([
            .workout(.init(activityType: "HKWorkoutActivityTypeTraditionalStrengthTraining", duration: "45", durationUnit: "min",
                           totalDistance: "0.4971", totalDistanceUnit: "mi", totalEnergyBurned: "1200", totalEnergyBurnedUnit: "kJ",
                           sourceName: "Apple Watch", creationDate: "2024-02-28 19:00:00 +0100",
                           startDate: "2024-02-28 18:00:00 +0100", endDate: "2024-02-28 18:45:00 +0100",
                           statistics: [.init(type: "HKQuantityTypeIdentifierActiveEnergyBurned", sum: "999", unit: "kcal")])),
        ]))
        #expect(outcome.error == nil)
        let id = AppleHealthSampleID.make(recordType: "Workout", source: "Apple Watch",
                                          start: try Fixture.timestamp("2024-02-28T18:00:00+01:00"),
                                          end: try Fixture.timestamp("2024-02-28T18:45:00+01:00"),
                                          value: "traditionalStrengthTraining", unit: nil)
        #expect(outcome.inputs == [JSONObject([
            JSONMember("type", .string("sample")), JSONMember("kind", .string("workout")), JSONMember("id", .string(id)),
            JSONMember("start", .string("2024-02-28T18:00:00+01:00")), JSONMember("end", .string("2024-02-28T18:45:00+01:00")),
            JSONMember("activityType", .string("traditionalStrengthTraining")),
            JSONMember("energy", .number(1200)), JSONMember("energyUnit", .string("kJ")),
            JSONMember("distance", .number(0.4971)), JSONMember("distanceUnit", .string("mi")),
            JSONMember("source", .string("Apple Watch")),
        ])])
        #expect(outcome.records.map(\.recordType) == ["Workout"])
    }

    @Test(arguments: [
        ("HKQuantityTypeIdentifierDistanceWalkingRunning", "HKWorkoutActivityTypeRunning", "running"),
        ("HKQuantityTypeIdentifierDistanceCycling", "HKWorkoutActivityTypeCycling", "cycling"),
        ("HKQuantityTypeIdentifierDistanceSwimming", "HKWorkoutActivityTypeSwimming", "swimming"),
    ])
    func workoutWithOnlyStatisticsTakesEnergyAndDistanceFromThem(distanceType: String, activity: String, expected: String) throws {
        let outcome = try importAppleHealthExport(Fixture.writer.document([
            .workout(.init(activityType: activity, duration: "30", durationUnit: "min", sourceName: "Apple Watch",
                           startDate: "2024-02-28 18:00:00 +0100", endDate: "2024-02-28 18:30:00 +0100",
                           statistics: [
                               .init(type: "HKQuantityTypeIdentifierHeartRate", average: "150", minimum: "120", maximum: "170", unit: "count/min"),
                               .init(type: distanceType, sum: "1500", unit: "m"),
                               .init(type: "HKQuantityTypeIdentifierActiveEnergyBurned", sum: "342.5", unit: "Cal"),
                               .init(type: "HKQuantityTypeIdentifierBasalEnergyBurned", sum: "80", unit: "Cal"),
                           ])),
        ]))
        #expect(outcome.error == nil)
        let input = try #require(outcome.inputs.first)
        #expect(input["activityType"] == .string(expected))
        #expect(input["energy"] == .number(342.5))
        #expect(input["energyUnit"] == .string("Cal"))
        #expect(input["distance"] == .number(1500))
        #expect(input["distanceUnit"] == .string("m"))
    }

    @Test func workoutWithoutTotalsHasNoEnergyOrDistance() throws {
        let outcome = try importAppleHealthExport(Fixture.writer.document([
            .workout(.init(activityType: "HKWorkoutActivityTypeYoga", sourceName: "Strava",
                           startDate: "2024-02-28 18:00:00 +0100", endDate: "2024-02-28 18:30:00 +0100")),
        ]))
        let input = try #require(outcome.inputs.first)
        #expect(input["activityType"] == .string("yoga"))
        #expect(input["energy"] == nil && input["energyUnit"] == nil && input["distance"] == nil && input["distanceUnit"] == nil)
    }

    @Test(arguments: [
        ("HKWorkoutActivityTypeRunning", "running"),
        ("HKWorkoutActivityTypeHighIntensityIntervalTraining", "highIntensityIntervalTraining"),
        ("HKWorkoutActivityTypeMMAFight", "mmaFight"),
        ("HKWorkoutActivityTypeHIIT", "hiit"),
        ("Running", "running"),
    ])
    func activityTypeIsTheLowerCamelSuffix(raw: String, expected: String) {
        #expect(HealthExportMapping.activityType(raw) == expected)
    }

    @Test func recordsInsideACorrelationAreNotCountedTwice() throws {
        let outcome = try importAppleHealthExport(Fixture.small)
        #expect(outcome.error == nil)
        #expect(outcome.summary.recordsInCorrelations == 2)
        // The BodyMass record inside the correlation is neither emitted nor counted.
        #expect(outcome.summary["HKQuantityTypeIdentifierBodyMass"] == AppleHealthRecordTypeSummary(
            recordType: "HKQuantityTypeIdentifierBodyMass", kind: .bodyMass, seen: 1, emitted: 1))
        #expect(outcome.summary["HKQuantityTypeIdentifierBloodPressureSystolic"] == nil)
        #expect(outcome.summary["HKCorrelationTypeIdentifierBloodPressure"] == AppleHealthRecordTypeSummary(
            recordType: "HKCorrelationTypeIdentifierBloodPressure", kind: nil, seen: 1, skipped: 1))
    }

    @Test func smallExportGivesTheWholeSummary() throws {
        let outcome = try importAppleHealthExport(Fixture.small)
        #expect(outcome.error == nil)
        let size = Int64(Fixture.small.utf8.count)
        #expect(outcome.summary == AppleHealthImportSummary(
            path: outcome.summary.path,
            exportDate: try Fixture.timestamp("2024-03-01T09:00:00+01:00"),
            bytesRead: size, totalBytes: size, isComplete: true,
            recordTypes: [
                .init(recordType: "ActivitySummary", kind: nil, seen: 1, skipped: 1),
                .init(recordType: "HKCategoryTypeIdentifierSleepAnalysis", kind: .sleep, seen: 1, emitted: 1),
                .init(recordType: "HKCorrelationTypeIdentifierBloodPressure", kind: nil, seen: 1, skipped: 1),
                .init(recordType: "HKQuantityTypeIdentifierBodyMass", kind: .bodyMass, seen: 1, emitted: 1),
                .init(recordType: "HKQuantityTypeIdentifierHeartRate", kind: nil, seen: 1, skipped: 1),
                .init(recordType: "HKQuantityTypeIdentifierHeartRateVariabilitySDNN", kind: .hrv, seen: 1, emitted: 1),
                .init(recordType: "HKQuantityTypeIdentifierRestingHeartRate", kind: .restingHeartRate, seen: 1, emitted: 1),
                .init(recordType: "HKQuantityTypeIdentifierStepCount", kind: .stepCount, seen: 1, emitted: 1),
                .init(recordType: "Workout", kind: .workout, seen: 1, emitted: 1),
            ],
            recordsInCorrelations: 2))
        #expect(outcome.summary.seen == 9 && outcome.summary.emitted == 6 && outcome.summary.skipped == 3 && outcome.summary.rejected == 0)
    }

    @Test func activitySummaryAndUnknownElementsAreCountedAndSkipped() throws {
        let outcome = try importAppleHealthExport(Fixture.writer.document([
            .activitySummary(.init(dateComponents: "2024-02-27")),
            .activitySummary(.init(dateComponents: "2024-02-28")),
            .raw(" <ClinicalRecord type=\"HKClinicalTypeIdentifierLabResultRecord\" identifier=\"x\" sourceName=\"Clinic\" sourceURL=\"https://example.org\" fhirVersion=\"4.0.1\" receivedDate=\"2024-02-01 10:00:00 +0100\" resourceFilePath=\"/clinical-records/x.json\"/>\n"),
            .raw(" <FutureElement something=\"1\"><Child/></FutureElement>\n"),
            Fixture.quantity("AppleStandTime", "5", "min"),
        ]))
        #expect(outcome.error == nil)
        #expect(outcome.records.isEmpty)
        #expect(outcome.summary.recordTypes == [
            .init(recordType: "ActivitySummary", kind: nil, seen: 2, skipped: 2),
            .init(recordType: "ClinicalRecord", kind: nil, seen: 1, skipped: 1),
            .init(recordType: "FutureElement", kind: nil, seen: 1, skipped: 1),
            .init(recordType: "HKQuantityTypeIdentifierAppleStandTime", kind: nil, seen: 1, skipped: 1),
        ])
    }

    @Test func recordAfterTheExportDateIsRejected() throws {
        let outcome = try importAppleHealthExport(Fixture.writer.document([
            Fixture.quantity("StepCount", "100", "count", start: "2024-03-01 08:50:00 +0100", end: "2024-03-01 09:00:00 +0100"),
            Fixture.quantity("StepCount", "200", "count", start: "2024-03-01 08:55:00 +0100", end: "2024-03-01 09:00:01 +0100"),
            // Same instant as the export date, written in another offset: not after it.
            Fixture.quantity("StepCount", "300", "count", start: "2024-03-01 07:59:00 +0000", end: "2024-03-01 08:00:00 +0000"),
            .workout(.init(activityType: "HKWorkoutActivityTypeRunning", sourceName: "Apple Watch",
                           startDate: "2024-03-02 18:00:00 +0100", endDate: "2024-03-02 18:30:00 +0100")),
        ]))
        #expect(outcome.error == nil)
        #expect(outcome.inputs.compactMap { $0["value"]?.numberValue } == [100, 300])
        let steps = try #require(outcome.summary["HKQuantityTypeIdentifierStepCount"])
        #expect(steps.rejectionReasons == [AppleHealthRejectionCount(reason: .afterExportDate, count: 1)])
        #expect(steps.examples.map(\.reason) == [.afterExportDate])
        #expect(steps.examples.first?.detail.contains("2024-03-01T09:00:01+01:00") == true)
        let workouts = try #require(outcome.summary["Workout"])
        #expect(workouts.seen == 1 && workouts.rejected == 1 && workouts.emitted == 0)
    }

    @Test func unmappableRecordsAreRejectedWithReasonsAndTheImportGoesOn() throws {
        let good = Fixture.quantity("StepCount", "10", "count")
        let outcome = try importAppleHealthExport(Fixture.writer.document([
            .record(.init(type: "HKQuantityTypeIdentifierStepCount", sourceName: nil, unit: "count", value: "1",
                          startDate: "2024-02-28 07:00:00 +0100", endDate: "2024-02-28 07:01:00 +0100")),
            .record(.init(type: "HKQuantityTypeIdentifierStepCount", sourceName: "iPhone", unit: "count", value: "1",
                          startDate: "2024-02-30 07:00:00 +0100", endDate: "2024-02-28 07:01:00 +0100")),
            .record(.init(type: "HKQuantityTypeIdentifierStepCount", sourceName: "iPhone", unit: "count", value: "1",
                          startDate: "2024-02-28 07:00:00", endDate: "2024-02-28 07:01:00 +0100")),
            .record(.init(type: "HKQuantityTypeIdentifierStepCount", sourceName: "iPhone", unit: "count", value: "12,5",
                          startDate: "2024-02-28 07:00:00 +0100", endDate: "2024-02-28 07:01:00 +0100")),
            .record(.init(type: "HKQuantityTypeIdentifierStepCount", sourceName: "iPhone", unit: "count", value: "nan",
                          startDate: "2024-02-28 07:00:00 +0100", endDate: "2024-02-28 07:01:00 +0100")),
            .record(.init(type: "HKQuantityTypeIdentifierStepCount", sourceName: "iPhone", unit: nil, value: "5",
                          startDate: "2024-02-28 07:00:00 +0100", endDate: "2024-02-28 07:01:00 +0100")),
            .raw(" <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Tom &bogus; Phone\" unit=\"count\" value=\"3\" startDate=\"2024-02-28 07:00:00 +0100\" endDate=\"2024-02-28 07:01:00 +0100\"/>\n"),
            .raw(" <Record sourceName=\"iPhone\" unit=\"count\" value=\"3\" startDate=\"2024-02-28 07:00:00 +0100\" endDate=\"2024-02-28 07:01:00 +0100\"/>\n"),
            .workout(.init(activityType: nil, sourceName: "Apple Watch", startDate: "2024-02-28 18:00:00 +0100", endDate: "2024-02-28 18:30:00 +0100")),
            .workout(.init(activityType: "HKWorkoutActivityTypeRunning", totalEnergyBurned: "lots", totalEnergyBurnedUnit: "kcal",
                           sourceName: "Apple Watch", startDate: "2024-02-28 18:00:00 +0100", endDate: "2024-02-28 18:30:00 +0100")),
            good,
        ]))
        #expect(outcome.error == nil)
        #expect(outcome.inputs == [try Fixture.expectedQuantity("StepCount", kind: .stepCount, value: 10, unit: "count")])
        let steps = try #require(outcome.summary["HKQuantityTypeIdentifierStepCount"])
        #expect(steps.seen == 8 && steps.rejected == 7 && steps.emitted == 1)
        #expect(steps.rejectionReasons == [
            AppleHealthRejectionCount(reason: .invalidAttribute, count: 1),
            AppleHealthRejectionCount(reason: .invalidDate, count: 2),
            AppleHealthRejectionCount(reason: .invalidNumber, count: 2),
            AppleHealthRejectionCount(reason: .missingAttribute, count: 2),
        ])
        #expect(steps.examples.count == AppleHealthImportSummary.maximumExamplesPerType)
        #expect(steps.examples.map(\.reason) == [.missingAttribute, .invalidDate, .invalidDate])
        #expect(steps.examples.map(\.line) == steps.examples.map(\.line).sorted())
        #expect(outcome.summary["Record"]?.rejectionReasons == [AppleHealthRejectionCount(reason: .missingAttribute, count: 1)])
        #expect(outcome.summary["Workout"]?.rejectionReasons == [
            AppleHealthRejectionCount(reason: .invalidNumber, count: 1),
            AppleHealthRejectionCount(reason: .missingAttribute, count: 1),
        ])
    }

    @Test func entitiesAreDecodedAndSourceNamesKeptExactly() throws {
        let outcome = try importAppleHealthExport(Fixture.writer.document([
            .raw(" <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Tom &amp; Jerry&apos;s &lt;Watch&gt; &quot;2&quot; &#x2019;&#8217;&#160;x\" unit=\"count\" value=\"3\" startDate=\"2024-02-28 07:00:00 +0100\" endDate=\"2024-02-28 07:01:00 +0100\"/>\n"),
            Fixture.quantity("StepCount", "4", "count", source: "Anna’s\u{00A0}Apple\tWatch\n"),
            .raw(" <Record type='HKQuantityTypeIdentifierStepCount' sourceName='single \"quoted\"' unit='count' value='5' startDate='2024-02-28 07:00:00 +0100' endDate='2024-02-28 07:01:00 +0100' />\n"),
            // iOS 16 exports contain U+000B, which XML forbids; it is kept.
            .raw(" <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Watch\u{0B}\" unit=\"count\" value=\"6\" startDate=\"2024-02-28 07:00:00 +0100\" endDate=\"2024-02-28 07:01:00 +0100\"/>\n"),
        ]))
        #expect(outcome.error == nil)
        #expect(outcome.inputs.map { $0["source"] } == [
            .string("Tom & Jerry's <Watch> \"2\" ’’\u{00A0}x"),
            .string("Anna’s\u{00A0}Apple\tWatch\n"),
            .string("single \"quoted\""),
            .string("Watch\u{0B}"),
        ])
    }

    @Test func literalLineBreaksInAttributesBecomeSpaces() throws {
        let outcome = try importAppleHealthExport(Fixture.writer.document([
            .raw(" <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"two\r\nlines\ttab\" unit=\"count\" value=\"3\" startDate=\"2024-02-28 07:00:00 +0100\" endDate=\"2024-02-28 07:01:00 +0100\"/>\n"),
        ]))
        #expect(outcome.inputs.map { $0["source"] } == [.string("two lines tab")])
    }

    @Test func exportDatesKeepTheirOffset() throws {
        #expect(HealthExportMapping.timestamp("2023-01-05 07:12:00 +0100")?.text == "2023-01-05T07:12:00+01:00")
        #expect(HealthExportMapping.timestamp("2023-01-05 07:12:00 -0930")?.text == "2023-01-05T07:12:00-09:30")
        #expect(HealthExportMapping.timestamp("2023-01-05 07:12:00 +0000")?.text == "2023-01-05T07:12:00+00:00")
        #expect(HealthExportMapping.timestamp("20150616071916-0700")?.text == "2015-06-16T07:19:16-07:00")
        #expect(HealthExportMapping.timestamp("2023-01-05T07:12:00Z")?.text == "2023-01-05T07:12:00Z")
        #expect(HealthExportMapping.timestamp("2023-01-05 07:12:00") == nil)
        #expect(HealthExportMapping.timestamp("2023-02-29 07:12:00 +0100") == nil)
        #expect(HealthExportMapping.timestamp("2023-01-05 25:12:00 +0100") == nil)
        #expect(HealthExportMapping.timestamp("") == nil)
    }

    @Test func emittedRecordsCarryTheirLineAndByteOffset() throws {
        let xml = Fixture.writer.document([Fixture.quantity("StepCount", "1", "count"), Fixture.quantity("StepCount", "2", "count")])
        let outcome = try importAppleHealthExport(xml)
        let bytes = Array(xml.utf8)
        for record in outcome.records {
            let before = bytes[..<record.byteOffset]
            #expect(before.filter { $0 == 0x0A }.count + 1 == record.line)
            #expect(Array(bytes[record.byteOffset..<(record.byteOffset + 7)]) == Array("<Record".utf8))
        }
        #expect(outcome.records.count == 2)
    }

    @Test func lineNumbersCountCarriageReturnLineFeedFiles() throws {
        let xml = Fixture.writer.document([Fixture.sleep("HKCategoryValueSleepAnalysisAwake")]).replacingOccurrences(of: "\n", with: "\r\n")
        let outcome = try importAppleHealthExport(xml)
        let expected = xml.components(separatedBy: "\r\n").firstIndex { $0.contains("SleepAnalysis") }.map { $0 + 1 }
        #expect(outcome.records.map(\.line) == [try #require(expected)])
    }

    @Test func progressReportsBytesReadUpToTheFileSize() throws {
        try withAppleHealthTestDirectory { directory in
            let path = directory.appendingPathComponent("export.xml").path
            try Data(Fixture.small.utf8).write(to: URL(fileURLWithPath: path))
            var reports: [AppleHealthImportProgress] = []
            let summary = try AppleHealthImporter(path: path, chunkSize: 500).run(progress: { reports.append($0) }, emit: { _ in })
            let size = Int64(Fixture.small.utf8.count)
            #expect(reports.last == AppleHealthImportProgress(bytesRead: size, totalBytes: size))
            #expect(reports.map(\.bytesRead) == reports.map(\.bytesRead).sorted())
            #expect(reports.count > 1)
            #expect(summary.isComplete)
        }
    }

    @Test func anErrorThrownByEmitStopsTheImportAndKeepsTheCounts() throws {
        struct Stop: Error {}
        try withAppleHealthTestDirectory { directory in
            let path = directory.appendingPathComponent("export.xml").path
            try Data(Fixture.small.utf8).write(to: URL(fileURLWithPath: path))
            var summary = AppleHealthImportSummary(path: path)
            var emitted = 0
            #expect(throws: Stop.self) {
                try AppleHealthImporter(path: path).run(into: &summary) { _ in
                    emitted += 1
                    if emitted == 2 { throw Stop() }
                }
            }
            #expect(summary.emitted == 1)
            #expect(!summary.isComplete)
        }
    }
}
