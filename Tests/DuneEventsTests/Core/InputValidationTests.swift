import Foundation
import Testing
@testable import DuneEvents
import DuneTools

@Suite struct InputValidationTests {
    static let start = "2026-02-28T07:00:00+09:00"
    static let end = "2026-02-28T07:05:00+09:00"

    /// Why `line` is rejected, or `nil` when it is accepted.
    static func rejection(of line: String) -> Rejection? {
        do throws(Rejection) {
            _ = try InputParser.parse(line)
            return nil
        } catch {
            return error
        }
    }

    /// Why `bytes` are rejected as a line, or `nil` when they are accepted.
    static func rejection(of bytes: [UInt8]) -> Rejection? {
        bytes.withUnsafeBytes { buffer in
            do throws(Rejection) {
                _ = try InputParser.parse(buffer)
                return nil
            } catch {
                return error
            }
        }
    }

    static func quantity(_ kind: String, _ value: String, _ unit: String) -> String {
        #"{"type":"sample","kind":"\#(kind)","id":"S1","start":"\#(start)","end":"\#(end)","value":\#(value),"unit":"\#(unit)","source":"Apple Watch"}"#
    }

    // MARK: - Accepted lines and unit conversion

    @Test(arguments: [
        ("hrv", "48.2", "ms", 48.2),
        ("restingHeartRate", "52", "count/min", 52),
        ("restingHeartRate", "52", "bpm", 52),
        ("stepCount", "1200", "count", 1200),
        ("bodyMass", "80", "kg", 80),
        ("bodyMass", "80000", "g", 80),
        ("bodyMass", "180", "lb", 81.6466266),
        ("bodyFatPercentage", "0.215", "%", 21.5),
        ("bodyFatPercentage", "21.5", "percent", 21.5),
        ("bodyMassIndex", "24.1", "count", 24.1),
        ("bodyMassIndex", "24.1", "kg/m2", 24.1),
    ])
    func convertsToCanonicalUnits(kind: String, value: String, unit: String, canonical: Double) throws {
        let command = try InputParser.parse(Self.quantity(kind, value, unit))
        guard case .sample(let sample) = command.intent, let quantity = sample.quantity else {
            Issue.record("expected a quantity sample")
            return
        }
        #expect(abs(quantity.value - canonical) < 1e-9)
        #expect(quantity.inputUnit == unit)
        #expect(quantity.inputValue == Double(value))
    }

    @Test func workoutConvertsEnergyAndDistance() throws {
        let command = try InputParser.parse(#"{"type":"sample","kind":"workout","id":"W1","start":"2026-02-28T07:00:00+01:00","end":"2026-02-28T08:00:00+01:00","activityType":"running","energy":2092,"energyUnit":"kJ","distance":5,"distanceUnit":"mi","source":"Apple Watch","volumeKg":0}"#)
        guard case .sample(let sample) = command.intent, let workout = sample.workout else {
            Issue.record("expected a workout")
            return
        }
        #expect(workout.activityType == "running")
        #expect(abs((workout.energyKcal ?? 0) - 500) < 1e-9)
        #expect(abs((workout.distanceMeters ?? 0) - 8046.72) < 1e-9)
        #expect(workout.volumeKg == 0)
        #expect(workout.inputEnergy == .init(value: 2092, unit: "kJ"))
        #expect(workout.inputDistance == .init(value: 5, unit: "mi"))
    }

    @Test func unknownFieldsAreKeptAndEventIDIsNotContent() throws {
        let line = #"{"eventID":"e-1","type":"refresh","source":"foreground","at":"2026-02-28T07:00:00Z","device":{"model":"iPhone"}}"#
        let command = try InputParser.parse(line)
        #expect(command.eventID == "e-1")
        #expect(command.extra == JSONObject([JSONMember("device", .object(JSONObject([JSONMember("model", .string("iPhone"))])))]))
        #expect(String(decoding: command.content, as: UTF8.self)
                == #"{"at":"2026-02-28T07:00:00Z","device":{"model":"iPhone"},"source":"foreground","type":"refresh"}"#)
    }

    @Test func contentIgnoresMemberOrderAndNumberSpelling() throws {
        let a = try InputParser.parse(#"{"type":"sample","kind":"hrv","id":"S1","start":"\#(Self.start)","end":"\#(Self.end)","value":48.20,"unit":"ms","source":"W"}"#)
        let b = try InputParser.parse(#"{"source":"W","unit":"ms","value":4.82e1,"end":"\#(Self.end)","start":"\#(Self.start)","id":"S1","kind":"hrv","type":"sample"}"#)
        #expect(a.content == b.content)
    }

    // MARK: - Every validation rule, with its exact reason

    @Test(arguments: [
        ("not json", "invalid JSON at column 1: unexpected character 'n'; expected a JSON value"),
        ("[1,2]", "expected a JSON object, got an array"),
        (#"{"type":"sample","type":"sample"}"#, "invalid JSON at column 18: duplicate key \"type\""),
        (#"{"type":"sam\xple"}"#,
         #"invalid JSON at column 14: invalid escape: a backslash followed by character 'x'; expected one of \" \\ \/ \b \f \n \r \t \uXXXX"#),
        (#"{"kind":"hrv"}"#, "missing field \"type\""),
        (#"{"type":"sampel"}"#, "unknown type \"sampel\"; expected sample, sampleDeleted, refresh, task or profile"),
        (#"{"type":"sample","kind":"vo2max","id":"S1"}"#, "field \"kind\" \"vo2max\" is not valid; expected one of hrv, restingHeartRate, stepCount, bodyMass, bodyFatPercentage, bodyMassIndex, sleep, workout"),
        (#"{"type":"sample","kind":"hrv","start":"2026-02-28T07:00:00Z"}"#, "missing field \"id\""),
        (#"{"type":"sample","kind":"hrv","id":"","start":"2026-02-28T07:00:00Z"}"#, "field \"id\" is empty"),
        (#"{"type":"sample","kind":"hrv","id":"S1","start":"2026-02-28T07:00:00","end":"2026-02-28T07:00:00Z","value":40,"unit":"ms","source":"W"}"#,
         "field \"start\": timestamp \"2026-02-28T07:00:00\" has no UTC offset; add 'Z' or '±HH:MM' (e.g. 2026-02-28T07:00:00Z)"),
        (#"{"type":"sample","kind":"hrv","id":"S1","start":"2026-02-28T07:00:00Z","end":"2026-02-28T06:00:00Z","value":40,"unit":"ms","source":"W"}"#,
         "end 2026-02-28T06:00:00Z is before start 2026-02-28T07:00:00Z"),
        (#"{"type":"sample","kind":"hrv","id":"S1","start":"2026-02-28T07:00:00Z","end":"2026-02-28T07:00:00Z","value":"40","unit":"ms","source":"W"}"#,
         "field \"value\" must be a number, got a string"),
        (#"{"type":"sample","kind":"hrv","id":"S1","start":"2026-02-28T07:00:00Z","end":"2026-02-28T07:00:00Z","value":40,"unit":"s","source":"W"}"#,
         "unit \"s\" is not accepted for hrv; use ms"),
        (#"{"type":"sample","kind":"hrv","id":"S1","start":"2026-02-28T07:00:00Z","end":"2026-02-28T07:00:00Z","value":600,"unit":"ms","source":"W"}"#,
         "hrv 600 ms is outside the plausible range 1–500 ms"),
        (#"{"type":"sample","kind":"restingHeartRate","id":"S1","start":"2026-02-28T07:00:00Z","end":"2026-02-28T07:00:00Z","value":19,"unit":"bpm","source":"W"}"#,
         "restingHeartRate 19 bpm is outside the plausible range 20–250 count/min"),
        (#"{"type":"sample","kind":"stepCount","id":"S1","start":"2026-02-28T07:00:00Z","end":"2026-02-28T07:00:00Z","value":100001,"unit":"count","source":"W"}"#,
         "stepCount 100001 count is outside the plausible range 0–100000 count"),
        (#"{"type":"sample","kind":"bodyMass","id":"S1","start":"2026-02-28T07:00:00Z","end":"2026-02-28T07:00:00Z","value":1600,"unit":"lb","source":"W"}"#,
         "bodyMass 1600 lb (725.748 kg) is outside the plausible range 1–700 kg"),
        (#"{"type":"sample","kind":"bodyFatPercentage","id":"S1","start":"2026-02-28T07:00:00Z","end":"2026-02-28T07:00:00Z","value":21.5,"unit":"%","source":"W"}"#,
         "bodyFatPercentage 21.5 % (2150 percent) is outside the plausible range 1–80 percent"),
        (#"{"type":"sample","kind":"bodyMassIndex","id":"S1","start":"2026-02-28T07:00:00Z","end":"2026-02-28T07:00:00Z","value":4,"unit":"count","source":"W"}"#,
         "bodyMassIndex 4 count is outside the plausible range 5–200 kg/m2"),
        (#"{"type":"sample","kind":"hrv","id":"S1","start":"2026-02-28T07:00:00Z","end":"2026-02-28T07:00:00Z","value":1e999,"unit":"ms","source":"W"}"#,
         "invalid JSON at column 109: number 1e999 is out of range"),
        (#"{"type":"sample","kind":"sleep","id":"S1","start":"2026-02-28T07:00:00Z","end":"2026-03-01T07:30:00Z","value":"asleepCore","source":"W"}"#,
         "sleep sample lasts 24.5 h; a sleep sample is at most 24 h"),
        (#"{"type":"sample","kind":"sleep","id":"S1","start":"2026-02-28T07:00:00Z","end":"2026-02-28T07:30:00Z","value":"napping","source":"W"}"#,
         "field \"value\" \"napping\" is not a sleep stage; expected one of inBed, asleepUnspecified, asleepCore, asleepDeep, asleepREM, awake"),
        (#"{"type":"sample","kind":"workout","id":"S1","start":"2026-02-28T07:00:00Z","end":"2026-03-02T08:00:00Z","activityType":"running","source":"W"}"#,
         "workout lasts 49 h; a workout is at most 48 h"),
        (#"{"type":"sample","kind":"workout","id":"S1","start":"2026-02-28T07:00:00Z","end":"2026-02-28T08:00:00Z","activityType":"running","energy":300,"source":"W"}"#,
         "missing field \"energyUnit\" (required because \"energy\" is given)"),
        (#"{"type":"sample","kind":"workout","id":"S1","start":"2026-02-28T07:00:00Z","end":"2026-02-28T08:00:00Z","activityType":"running","distance":3,"distanceUnit":"yd","source":"W"}"#,
         "field \"distanceUnit\" \"yd\" is not a distance unit; use m, km or mi"),
        (#"{"type":"sample","kind":"hrv","id":"S1","start":"2026-02-28T07:00:00Z","end":"2026-02-28T07:00:00Z","value":40,"unit":"ms"}"#,
         "missing field \"source\""),
        (#"{"type":"refresh","source":"healthKitObserver","at":"2026-02-28T07:00:00Z"}"#,
         "field \"kind\" is required for source healthKitObserver (the sample kind the observer fired for)"),
        (#"{"type":"refresh","source":"siri","at":"2026-02-28T07:00:00Z"}"#,
         "field \"source\" \"siri\" is not valid; expected one of foreground, healthKitObserver, backgroundDelivery, pullToRefresh"),
        (#"{"type":"task","task":"t1","feature":"readiness","phase":"running","at":"2026-02-28T07:00:00Z"}"#,
         "field \"phase\" \"running\" is not valid; expected one of started, completed, failed, cancelled"),
        (#"{"type":"profile","sleepTargetMinutes":0,"at":"2026-02-28T07:00:00Z"}"#,
         "field \"sleepTargetMinutes\" is 0; expected more than 0 and at most 1440"),
        (#"{"type":"sampleDeleted","id":"S1"}"#, "missing field \"at\""),
        (#"{"type":"refresh","source":"foreground","at":"2026-02-28T07:00:00Z","eventID":""}"#, "field \"eventID\" must be 1–256 bytes"),
    ])
    func rejectsWithAPreciseReason(line: String, reason: String) {
        #expect(Self.rejection(of: line)?.message == reason)
    }

    @Test func rejectsInvalidUTF8AndNULBytes() {
        let invalid: [UInt8] = Array(#"{"type":"profile","sleepTargetMinutes":450,"at":"2026-02-28T07:00:00Z","note":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect(Self.rejection(of: invalid) == Rejection(.invalidJSON, field: nil, "invalid JSON at column 80: invalid UTF-8 inside a string"))
        let nul: [UInt8] = Array(#"{"type":"profile","#.utf8) + [0] + Array("}".utf8)
        #expect(Self.rejection(of: nul) == Rejection(.invalidJSON, field: nil, "invalid JSON at column 19: unexpected byte 0x0; expected a quoted key"))
    }

    @Test func rejectsDeepNesting() {
        let line = #"{"type":"profile","x":"# + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}"
        #expect(Self.rejection(of: line) == Rejection(.invalidJSON, field: nil, "invalid JSON at column 54: JSON nested deeper than 32 levels"))
    }
}

extension InputValidationTests {
    @Test(arguments: [
        ("1e308", "hrv 1e+308 ms is outside the plausible range 1–500 ms"),
        ("1e-25", "hrv 1e-25 ms is outside the plausible range 1–500 ms"),
        ("0.5", "hrv 0.5 ms is outside the plausible range 1–500 ms"),
    ])
    func extremeValuesAreNamedExactly(value: String, reason: String) {
        #expect(Self.rejection(of: Self.quantity("hrv", value, "ms")) == Rejection(.outOfRange, field: "value", reason))
    }
}

// MARK: - Numbers that read right (issue 25, finding 9)

extension InputValidationTests {
    static func workout(_ members: String, hours: Int = 1) -> String {
        let end = hours < 10 ? "2026-02-28T0\(7 + hours):00:00Z" : "2026-03-02T08:00:00Z"
        return #"{"type":"sample","kind":"workout","id":"W1","start":"2026-02-28T07:00:00Z","end":"\#(end)","activityType":"running",\#(members),"source":"W"}"#
    }

    @Test func conversionsByAPowerOfTenAreExactInDecimal() throws {
        // What binary arithmetic gives: the stored numbers must not.
        #expect(0.07 * 100 != 7 && 0.57 * 100 != 57 && 1.005 * 1000 != 1005 && 7.1 / 1000 != 0.0071)
        for (value, percent) in [("0.07", 7.0), ("0.57", 57.0), ("0.215", 21.5)] {
            let command = try InputParser.parse(Self.quantity("bodyFatPercentage", value, "%"))
            guard case .sample(let sample) = command.intent else { throw Rejection(.notAnObject, field: nil, "not a sample") }
            #expect(sample.quantity?.value == percent, "\(value) %")
        }
        let workout = try InputParser.parse(Self.workout(#""distance":1.005,"distanceUnit":"km""#))
        guard case .sample(let sample) = workout.intent else { throw Rejection(.notAnObject, field: nil, "not a sample") }
        #expect(sample.workout?.distanceMeters == 1005)
        #expect(UnitConversion.shiftingDecimalPoint(of: 7.1, by: -3) == 0.0071)
        #expect(UnitConversion.shiftingDecimalPoint(of: 72_350, by: -3) == 72.35)
        #expect(UnitConversion.shiftingDecimalPoint(of: 7e-5, by: 2) == 0.007)
        #expect(UnitConversion.shiftingDecimalPoint(of: -0.29, by: 2) == -29)
        #expect(UnitConversion.shiftingDecimalPoint(of: 1e308, by: 2) == .infinity)
        // The stored event holds the decimal value.
        var data: [UInt8] = []
        let fat = try InputParser.parse(Self.quantity("bodyFatPercentage", "0.07", "%"))
        guard case .sample(let stored) = fat.intent else { return }
        EventCodec.appendData(of: Event(.sampleIngested(stored)), to: &data)
        #expect(String(decoding: data, as: UTF8.self).contains(#""unit":"percent","value":7}"#), "\(String(decoding: data, as: UTF8.self))")
    }

    @Test(arguments: [
        (#""energy":50000,"energyUnit":"kcal""#, nil),
        (#""energy":209200,"energyUnit":"kJ""#, nil),
        (#""energy":50000.5,"energyUnit":"Cal""#, "workout energy 50000.5 Cal is outside the plausible range 0–50000 kcal"),
        (#""energy":1e300,"energyUnit":"kcal""#, "workout energy 1e+300 kcal is outside the plausible range 0–50000 kcal"),
        (#""distance":2000,"distanceUnit":"km""#, nil),
        (#""distance":2000000,"distanceUnit":"m""#, nil),
        (#""distance":2000.1,"distanceUnit":"km""#, "workout distance 2000.1 km is outside the plausible range 0–2000 km"),
        (#""distance":2000001,"distanceUnit":"m""#, "workout distance 2000001 m (2000.001 km) is outside the plausible range 0–2000 km"),
        (#""volumeKg":500000"#, nil),
        (#""volumeKg":500000.25"#, "workout volume 500000.25 kg is outside the plausible range 0–500000 kg"),
    ] as [(String, String?)])
    func workoutTotalsHaveAPlausibleRange(members: String, reason: String?) {
        let rejection = Self.rejection(of: Self.workout(members))
        #expect(rejection?.message == reason)
        if reason != nil { #expect(rejection?.code == .outOfRange) }
    }

    @Test(arguments: [
        (quantity("hrv", "500.0001", "ms"), "hrv 500.0001 ms is outside the plausible range 1–500 ms"),
        (quantity("hrv", "0.9999", "ms"), "hrv 0.9999 ms is outside the plausible range 1–500 ms"),
        (quantity("bodyMassIndex", "200.0004", "kg/m2"), "bodyMassIndex 200.0004 kg/m2 is outside the plausible range 5–200 kg/m2"),
        (quantity("bodyMass", "1543.236", "lb"), "bodyMass 1543.236 lb (700.0000747093201 kg) is outside the plausible range 1–700 kg"),
        (#"{"type":"sample","kind":"sleep","id":"S1","start":"2026-02-28T07:00:00Z","end":"2026-03-01T07:00:01Z","value":"asleepCore","source":"W"}"#,
         "sleep sample lasts more than 24 h; a sleep sample is at most 24 h"),
        (workout("\"volumeKg\":1", hours: 48).replacingOccurrences(of: "2026-03-02T08:00:00Z", with: "2026-03-02T07:00:00.4Z"),
         "workout lasts more than 48 h; a workout is at most 48 h"),
    ])
    func aRejectionNamesTheValueAsGivenNeverRoundedOntoTheBound(line: String, reason: String) {
        #expect(Self.rejection(of: line)?.message == reason)
    }

    /// docs/input-format.md quotes these reasons word for word; each is what the parser says for its example.
    static let documentedRejections: [(String, String)] = [
        (quantity("hrv", "600", "ms"), "hrv 600 ms is outside the plausible range 1–500 ms"),
        (quantity("restingHeartRate", "19", "bpm"), "restingHeartRate 19 bpm is outside the plausible range 20–250 count/min"),
        (quantity("stepCount", "100001", "count"), "stepCount 100001 count is outside the plausible range 0–100000 count"),
        (quantity("bodyMass", "1600", "lb"), "bodyMass 1600 lb (725.748 kg) is outside the plausible range 1–700 kg"),
        (quantity("bodyFatPercentage", "21.5", "%"), "bodyFatPercentage 21.5 % (2150 percent) is outside the plausible range 1–80 percent"),
        (quantity("bodyMassIndex", "4", "count"), "bodyMassIndex 4 count is outside the plausible range 5–200 kg/m2"),
        (quantity("hrv", "1e308", "ms"), "hrv 1e+308 ms is outside the plausible range 1–500 ms"),
        (quantity("hrv", "500.0001", "ms"), "hrv 500.0001 ms is outside the plausible range 1–500 ms"),
        (quantity("hrv", "40", "s"), "unit \"s\" is not accepted for hrv; use ms"),
        (#"{"type":"sample","kind":"sleep","id":"S1","start":"2026-02-28T07:00:00Z","end":"2026-03-01T07:30:00Z","value":"asleepCore","source":"W"}"#,
         "sleep sample lasts 24.5 h; a sleep sample is at most 24 h"),
        (#"{"type":"sample","kind":"sleep","id":"S1","start":"2026-02-28T07:00:00Z","end":"2026-03-01T07:00:01Z","value":"asleepCore","source":"W"}"#,
         "sleep sample lasts more than 24 h; a sleep sample is at most 24 h"),
        (workout(#""energy":-1,"energyUnit":"kcal""#), "field \"energy\" is negative"),
        (workout(#""energy":60000,"energyUnit":"kcal""#), "workout energy 60000 kcal is outside the plausible range 0–50000 kcal"),
        (workout(#""energy":300000,"energyUnit":"kJ""#), "workout energy 300000 kJ (71701.721 kcal) is outside the plausible range 0–50000 kcal"),
        (workout(#""distance":2500,"distanceUnit":"km""#), "workout distance 2500 km is outside the plausible range 0–2000 km"),
        (workout(#""distance":1300,"distanceUnit":"mi""#), "workout distance 1300 mi (2092.147 km) is outside the plausible range 0–2000 km"),
        (workout(#""volumeKg":600000"#), "workout volume 600000 kg is outside the plausible range 0–500000 kg"),
        (workout(#""energyUnit":"kcal""#), "field \"energyUnit\" is given without \"energy\""),
        (workout(#""energy":1,"energyUnit":"J""#), "field \"energyUnit\" \"J\" is not an energy unit; use kcal, Cal or kJ"),
        (workout(#""distance":3,"distanceUnit":"yd""#), "field \"distanceUnit\" \"yd\" is not a distance unit; use m, km or mi"),
    ]

    @Test(arguments: documentedRejections)
    func documentedReasonsAreThoseTheParserGives(line: String, reason: String) throws {
        let doc = try String(contentsOf: ImportRulesTests.packageRoot().appendingPathComponent("docs/input-format.md"), encoding: .utf8)
        #expect(doc.contains("`\(reason)`"), "docs/input-format.md does not quote: \(reason)")
        #expect(Self.rejection(of: line)?.message == reason, "\(line)")
    }
}
