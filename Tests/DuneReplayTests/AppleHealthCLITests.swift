import DuneEvents
import DuneFixtures
import DuneTools
import Foundation
import Testing

/// `ingest --format apple-health` as a black box.
@Suite struct AppleHealthCLITests {
    /// Forty days of one person, as export.xml elements and as the equivalent SPEC §3 lines.
    static func fixture() -> (elements: [AppleHealthExportWriter.Element], lines: [String]) {
        var elements: [AppleHealthExportWriter.Element] = []
        var lines: [String] = []
        func date(_ day: Int, _ time: String) -> (export: String, rfc: String) {
            let key = DayKey(year: 2024, month: 1, day: 1).adding(days: day).description
            return ("\(key) \(time) +0100", "\(key)T\(time)+01:00")
        }
        func record(_ type: String, _ kind: String, _ value: String, _ unit: String?, _ start: (export: String, rfc: String),
                    _ end: (export: String, rfc: String), source: String, jsonValue: String, jsonUnit: String?) {
            elements.append(.record(.init(type: type, sourceName: source, unit: unit, value: value, startDate: start.export, endDate: end.export)))
            let unitMember = jsonUnit.map { #","unit":"\#($0)""# } ?? ""
            lines.append(#"{"type":"sample","kind":"\#(kind)","id":"id-\#(lines.count)","start":"\#(start.rfc)","end":"\#(end.rfc)","value":\#(jsonValue)\#(unitMember),"source":"\#(source)"}"#)
        }
        for day in 0..<40 {
            let hrv = String(40 + (day * 7) % 23)
            record("HKQuantityTypeIdentifierHeartRateVariabilitySDNN", "hrv", hrv, "ms", date(day, "06:10:00"), date(day, "06:11:00"),
                   source: "Apple Watch", jsonValue: hrv, jsonUnit: "ms")
            let rhr = String(50 + (day * 5) % 9)
            record("HKQuantityTypeIdentifierRestingHeartRate", "restingHeartRate", rhr, "count/min", date(day, "07:00:00"), date(day, "07:00:00"),
                   source: "Apple Watch", jsonValue: rhr, jsonUnit: "count/min")
            record("HKCategoryTypeIdentifierSleepAnalysis", "sleep", "HKCategoryValueSleepAnalysisAsleepCore", nil,
                   date(day, "00:30:00"), date(day, "06:0\(day % 10):00"), source: "Apple Watch", jsonValue: #""asleepCore""#, jsonUnit: nil)
            record("HKCategoryTypeIdentifierSleepAnalysis", "sleep", "HKCategoryValueSleepAnalysisInBed", nil,
                   date(day, "00:10:00"), date(day, "06:30:00"), source: "iPhone’s Clock", jsonValue: #""inBed""#, jsonUnit: nil)
            let steps = String(3000 + day * 101)
            record("HKQuantityTypeIdentifierStepCount", "stepCount", steps, "count", date(day, "12:00:00"), date(day, "12:30:00"),
                   source: "iPhone", jsonValue: steps, jsonUnit: "count")
            if day % 3 == 0 {
                let pounds = String(170 + Double(day % 5) / 2)
                record("HKQuantityTypeIdentifierBodyMass", "bodyMass", pounds, "lb", date(day, "07:30:00"), date(day, "07:30:00"),
                       source: "Scale", jsonValue: pounds, jsonUnit: "lb")
                record("HKQuantityTypeIdentifierBodyFatPercentage", "bodyFatPercentage", "0.21", "%", date(day, "07:30:00"), date(day, "07:30:00"),
                       source: "Scale", jsonValue: "0.21", jsonUnit: "%")
            }
            if day % 2 == 0 {
                let start = date(day, "18:00:00")
                let end = date(day, "18:4\(day % 10):00")
                elements.append(.workout(.init(activityType: "HKWorkoutActivityTypeRunning", duration: "40", durationUnit: "min",
                                               totalDistance: "6.5", totalDistanceUnit: "km", totalEnergyBurned: "1800",
                                               totalEnergyBurnedUnit: "kJ", sourceName: "Apple Watch", startDate: start.export, endDate: end.export)))
                lines.append(#"{"type":"sample","kind":"workout","id":"id-\#(lines.count)","start":"\#(start.rfc)","end":"\#(end.rfc)","activityType":"running","energy":1800,"energyUnit":"kJ","distance":6.5,"distanceUnit":"km","source":"Apple Watch"}"#)
            }
        }
        return (elements, lines)
    }

    static let writer = AppleHealthExportWriter(exportDate: "2024-03-01 09:00:00 +0100")

    @Test func importingAnExportGivesTheSameReadModelsAsTheEquivalentJSONLines() throws {
        try withCLI { cli in
            let (elements, lines) = Self.fixture()
            try cli.write("export.xml", Self.writer.document(elements))
            try cli.write("input.jsonl", lines.joined(separator: "\n") + "\n")
            let imported = try cli.run(["ingest", "--log", "health.jsonl", "--format", "apple-health", "export.xml"])
            #expect(imported.status == 0, "\(imported)")
            #expect(imported.stdout.contains("HKQuantityTypeIdentifierHeartRateVariabilitySDNN  40      40        0        0        0"), "\(imported.stdout)")
            #expect(try cli.run(["ingest", "--log", "lines.jsonl", "input.jsonl"]).status == 0)
            #expect(try cli.run(["rebuild", "--log", "health.jsonl", "--out", "from-export"]).status == 0)
            #expect(try cli.run(["rebuild", "--log", "lines.jsonl", "--out", "from-lines"]).status == 0)
            for name in ["readiness.json", "trends.json", "weekly-stats.json", "sync-status.json"] {
                #expect(try cli.bytes("from-export/" + name) == cli.bytes("from-lines/" + name), "\(name)")
            }
            // Importing the same export again appends nothing.
            let before = try cli.bytes("health.jsonl")
            let again = try cli.run(["ingest", "--log", "health.jsonl", "--format", "apple-health", "--json", "export.xml"])
            #expect(again.status == 0)
            #expect(again.stdout.contains(#""appended":0"#) && again.stdout.contains(#""alreadyAppended":\#(lines.count)"#), "\(again.stdout)")
            #expect(try cli.bytes("health.jsonl") == before)
        }
    }

    @Test(arguments: ["truncated", "flipped tag", "invalid UTF-8", "unknown DTD"])
    func damagedExportsEndWithAClearMessageAndExit65(damage: String) throws {
        try withCLI { cli in
            let (elements, _) = Self.fixture()
            var bytes = Array(Self.writer.document(Array(elements.prefix(30))).utf8)
            switch damage {
            case "truncated":
                bytes = Array(bytes.prefix(bytes.count * 2 / 3))
            case "flipped tag":
                // A flipped byte in an end tag breaks the structure ("<Qecord/>" alone would be a well-formed unknown element).
                let index = try #require(bytes.indices.last { bytes[$0] == UInt8(ascii: "/") && bytes[$0 + 1] == UInt8(ascii: "H") })
                bytes[index + 2] ^= 0x01
            case "invalid UTF-8":
                let index = try #require(bytes.indices.last { bytes[$0] == UInt8(ascii: "<") && bytes[$0 + 1] == UInt8(ascii: "R") })
                bytes.insert(contentsOf: [0xC3, 0x28], at: index + 3)
            default:
                let text = String(decoding: bytes, as: UTF8.self)
                    .replacingOccurrences(of: "<HealthData", with: "<!DOCTYPE Other [\n<!ATTLIST Other x CDATA #IMPLIED\n<!ENTITY broken \"]>\n<HealthData", options: [], range: nil)
                bytes = Array(text.utf8)
            }
            try cli.writeBytes("export.xml", bytes)
            let result = try cli.run(["ingest", "--log", "events.jsonl", "--format", "apple-health", "export.xml"])
            #expect(result.status == 65, "\(damage): \(result)")
            #expect(result.stderr.contains("Error: export.xml"), "\(damage): \(result.stderr)")
            #expect(result.stderr.contains("line "), "\(damage): \(result.stderr)")
            #expect(result.stdout.contains("RECORD TYPE"), "what was read is reported: \(result.stdout)")
            #expect(try cli.run(["verify", "--log", "events.jsonl"]).status == 0)
        }
    }
}
