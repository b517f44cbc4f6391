import Testing
@testable import DuneEvents

@Suite struct InputValidationTests {
    static let start = "2026-02-28T07:00:00+09:00"
    static let end = "2026-02-28T07:05:00+09:00"

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
         "restingHeartRate 19 count/min is outside the plausible range 20–250 count/min"),
        (#"{"type":"sample","kind":"stepCount","id":"S1","start":"2026-02-28T07:00:00Z","end":"2026-02-28T07:00:00Z","value":100001,"unit":"count","source":"W"}"#,
         "stepCount 100001 count is outside the plausible range 0–100000 count"),
        (#"{"type":"sample","kind":"bodyMass","id":"S1","start":"2026-02-28T07:00:00Z","end":"2026-02-28T07:00:00Z","value":1600,"unit":"lb","source":"W"}"#,
         "bodyMass 725.748 kg is outside the plausible range 1–700 kg"),
        (#"{"type":"sample","kind":"bodyFatPercentage","id":"S1","start":"2026-02-28T07:00:00Z","end":"2026-02-28T07:00:00Z","value":21.5,"unit":"%","source":"W"}"#,
         "bodyFatPercentage 2150 percent is outside the plausible range 1–80 percent"),
        (#"{"type":"sample","kind":"bodyMassIndex","id":"S1","start":"2026-02-28T07:00:00Z","end":"2026-02-28T07:00:00Z","value":4,"unit":"count","source":"W"}"#,
         "bodyMassIndex 4 kg/m2 is outside the plausible range 5–200 kg/m2"),
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
        #expect(throws: InputParser.Rejection(reason)) { try InputParser.parse(line) }
    }

    @Test func rejectsInvalidUTF8AndNULBytes() {
        let invalid: [UInt8] = Array(#"{"type":"profile","sleepTargetMinutes":450,"at":"2026-02-28T07:00:00Z","note":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect(throws: InputParser.Rejection("invalid JSON at column 80: invalid UTF-8 inside a string")) {
            try invalid.withUnsafeBytes { try InputParser.parse($0) }
        }
        let nul: [UInt8] = Array(#"{"type":"profile","#.utf8) + [0] + Array("}".utf8)
        #expect(throws: InputParser.Rejection("invalid JSON at column 19: unexpected byte 0x0; expected a quoted key")) {
            try nul.withUnsafeBytes { try InputParser.parse($0) }
        }
    }

    @Test func rejectsDeepNesting() {
        let line = #"{"type":"profile","x":"# + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}"
        #expect(throws: InputParser.Rejection("invalid JSON at column 54: JSON nested deeper than 32 levels")) { try InputParser.parse(line) }
    }
}

extension InputValidationTests {
    @Test(arguments: [
        ("1e308", "hrv 1e+308 ms is outside the plausible range 1–500 ms"),
        ("1e-25", "hrv 1e-25 ms is outside the plausible range 1–500 ms"),
        ("0.5", "hrv 0.5 ms is outside the plausible range 1–500 ms"),
    ])
    func extremeValuesAreNamedExactly(value: String, reason: String) {
        #expect(throws: InputParser.Rejection(reason)) { try InputParser.parse(Self.quantity("hrv", value, "ms")) }
    }
}
