import Testing
@testable import DuneEvents
import DuneHealthImport
import DuneTools

/// The two front ends of the input rules: a typed value and the equal
/// `ingest` line are the same content and the same stored data, and are
/// refused with the same code, field and message.
@Suite struct TypedInputTests {
    static let start = Timestamp(epochSeconds: 1_772_409_600, nanoseconds: 250_000_000, offsetSeconds: 9 * 3600)  // 2026-03-02T09:00:00.250+09:00
    static let end = start.adding(seconds: 300)

    // MARK: - The equal line of a typed value

    /// `"key":"text"`.
    static func member(_ key: String, _ text: String) -> String { "\"\(key)\":\"\(text)\"" }
    /// `"key":number`, the number in its shortest form.
    static func member(_ key: String, _ number: Double) -> String { "\"\(key)\":\(JSONWriter.formatNumber(number))" }

    /// The `ingest` line an app's typed sample stands for.
    static func line(of input: SampleInput) -> String {
        var members = [member("type", "sample"), member("kind", input.kind.rawValue), member("id", input.id),
                       member("start", input.start.text), member("end", input.end.text), member("source", input.source)]
        switch input.reading {
        case .sleep(let stage): members.append(member("value", stage.rawValue))
        case .workout(let workout):
            members.append(member("activityType", workout.activityType))
            if let energy = workout.energy { members += [member("energy", energy), member("energyUnit", workout.energyUnit.rawValue)] }
            if let distance = workout.distance {
                members += [member("distance", distance), member("distanceUnit", workout.distanceUnit.rawValue)]
            }
            if let volume = workout.volumeKg { members.append(member("volumeKg", volume)) }
        default:
            if let measure = input.reading.quantity { members += [member("value", measure.value), member("unit", measure.unit)] }
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    static func sample(_ reading: SampleInput.Reading, id: String = "S-1", start: Timestamp = start, end: Timestamp = end,
                       source: String = "Apple Watch") -> SampleInput {
        SampleInput(id: id, start: start, end: end, source: source, reading: reading)
    }

    /// Every kind in every unit, with numbers a binary conversion would get wrong.
    static let everyKindAndUnit: [SampleInput] = {
        var readings: [SampleInput.Reading] = []
        readings += HRVUnit.allCases.map { .hrv(48.2, $0) }
        readings += HeartRateUnit.allCases.map { .restingHeartRate(52, $0) }
        readings += StepCountUnit.allCases.map { .stepCount(1234, $0) }
        readings += [.bodyMass(72.35, .kilograms), .bodyMass(72_350.5, .grams), .bodyMass(180.4, .pounds)]
        readings += [.bodyFatPercentage(0.07, .fraction), .bodyFatPercentage(0.215, .fraction), .bodyFatPercentage(21.5, .percent)]
        readings += BodyMassIndexUnit.allCases.map { .bodyMassIndex(24.1, $0) }
        readings += SleepStage.allCases.map { .sleep($0) }
        for energyUnit in EnergyUnit.allCases {
            for distanceUnit in DistanceUnit.allCases {
                readings.append(.workout(WorkoutInput(activityType: "running", energy: 2092.5, energyUnit: energyUnit,
                                                      distance: 1.005, distanceUnit: distanceUnit, volumeKg: 1250.5)))
            }
        }
        readings.append(.workout(WorkoutInput(activityType: "yoga")))
        return readings.enumerated().map { index, reading in sample(reading, id: "S-\(index)") }
    }()

    /// The stored `data` object of the event a command appends.
    static func storedData(_ command: IngestCommand) -> [UInt8] {
        guard case .sample(let sample) = command.intent else { return [] }
        var bytes: [UInt8] = []
        EventCodec.appendData(of: Event(.sampleIngested(sample), eventID: command.eventID, extra: command.extra), to: &bytes)
        return bytes
    }

    @Test func everyKindAndUnitCoversEveryTypedUnit() {
        let units = Set(Self.everyKindAndUnit.flatMap { input -> [String] in
            switch input.reading {
            case .workout(let workout): [workout.energyUnit.rawValue, workout.distanceUnit.rawValue]
            default: input.reading.quantity.map { ["\(input.kind.rawValue) \($0.unit)"] } ?? []
            }
        })
        let expected = HRVUnit.allCases.count + HeartRateUnit.allCases.count + StepCountUnit.allCases.count + MassUnit.allCases.count
            + BodyFatUnit.allCases.count + BodyMassIndexUnit.allCases.count + EnergyUnit.allCases.count + DistanceUnit.allCases.count
        #expect(units.count == expected)
        #expect(Set(Self.everyKindAndUnit.map(\.kind)) == Set(SampleKind.allCases))
    }

    @Test(arguments: everyKindAndUnit)
    func aTypedSampleIsTheContentAndStoredDataOfItsLine(input: SampleInput) throws {
        let typed = try IngestCommand.sample(input, eventID: "key-1")
        let line = Self.line(of: input)
        let parsed = try InputParser.parse(String(line.dropLast()) + #","eventID":"key-1"}"#)
        let reference = try InputRules.command(from: try #require(JSONParser.parse(line).objectValue))
        #expect(typed == parsed, "\(line)")
        #expect(ContentDigest(typed.content) == ContentDigest(parsed.content))
        #expect(typed.content == reference.content)
        #expect(Self.storedData(typed) == Self.storedData(parsed), "\(line)")
    }

    // MARK: - Refused the same way

    /// Typed inputs the rules refuse, each with the rejection `ingest` gives its line.
    static let refusedSamples: [(SampleInput, Rejection)] = [
        (sample(.hrv(600, .milliseconds)), Rejection(.outOfRange, field: "value", "hrv 600 ms is outside the plausible range 1–500 ms")),
        (sample(.hrv(500.0001, .milliseconds)),
         Rejection(.outOfRange, field: "value", "hrv 500.0001 ms is outside the plausible range 1–500 ms")),
        (sample(.restingHeartRate(19, .beatsPerMinute)),
         Rejection(.outOfRange, field: "value", "restingHeartRate 19 bpm is outside the plausible range 20–250 count/min")),
        (sample(.stepCount(100_001, .count)),
         Rejection(.outOfRange, field: "value", "stepCount 100001 count is outside the plausible range 0–100000 count")),
        (sample(.bodyMass(1600, .pounds)),
         Rejection(.outOfRange, field: "value", "bodyMass 1600 lb (725.748 kg) is outside the plausible range 1–700 kg")),
        (sample(.bodyMass(1543.236, .pounds)),
         Rejection(.outOfRange, field: "value", "bodyMass 1543.236 lb (700.0000747093201 kg) is outside the plausible range 1–700 kg")),
        (sample(.bodyMass(800, .grams)),
         Rejection(.outOfRange, field: "value", "bodyMass 800 g (0.8 kg) is outside the plausible range 1–700 kg")),
        (sample(.bodyFatPercentage(21.5, .fraction)),
         Rejection(.outOfRange, field: "value", "bodyFatPercentage 21.5 % (2150 percent) is outside the plausible range 1–80 percent")),
        (sample(.bodyFatPercentage(80.5, .percent)),
         Rejection(.outOfRange, field: "value", "bodyFatPercentage 80.5 percent is outside the plausible range 1–80 percent")),
        (sample(.bodyMassIndex(4, .count)),
         Rejection(.outOfRange, field: "value", "bodyMassIndex 4 count is outside the plausible range 5–200 kg/m2")),
        (sample(.hrv(48, .milliseconds), id: ""), Rejection(.emptyText, field: "id", "field \"id\" is empty")),
        (sample(.hrv(48, .milliseconds), source: String(repeating: "w", count: 257)),
         Rejection(.textTooLong, field: "source", "field \"source\" is longer than 256 bytes")),
        (sample(.hrv(48, .milliseconds), start: end, end: start),
         Rejection(.endBeforeStart, field: "end", "end 2026-03-02T09:00:00.250+09:00 is before start 2026-03-02T09:05:00.250+09:00")),
        (sample(.hrv(48, .milliseconds), end: start.adding(seconds: 25 * 3600)),
         Rejection(.durationTooLong, field: "end",
                   "hrv sample lasts 25 h (start 2026-03-02T09:00:00.250+09:00, end 2026-03-03T10:00:00.250+09:00); a sample other than sleep or a workout is at most 24 h: check start and end, or send one sample per day")),
        (sample(.sleep(.asleepCore), end: start.adding(seconds: 24 * 3600 + 1)),
         Rejection(.durationTooLong, field: "end", "sleep sample lasts more than 24 h; a sleep sample is at most 24 h")),
        (sample(.sleep(.asleepCore), end: start.adding(seconds: 24 * 3600 + 1800)),
         Rejection(.durationTooLong, field: "end", "sleep sample lasts 24.5 h; a sleep sample is at most 24 h")),
        (sample(.workout(WorkoutInput(activityType: "hiking")), end: start.adding(seconds: 49 * 3600)),
         Rejection(.durationTooLong, field: "end", "workout lasts 49 h; a workout is at most 48 h")),
        (sample(.workout(WorkoutInput(activityType: ""))), Rejection(.emptyText, field: "activityType", "field \"activityType\" is empty")),
        (sample(.workout(WorkoutInput(activityType: "running", energy: -1))),
         Rejection(.outOfRange, field: "energy", "field \"energy\" is negative")),
        (sample(.workout(WorkoutInput(activityType: "running", energy: 60_000))),
         Rejection(.outOfRange, field: "energy", "workout energy 60000 kcal is outside the plausible range 0–50000 kcal")),
        (sample(.workout(WorkoutInput(activityType: "running", energy: 300_000, energyUnit: .kilojoules))),
         Rejection(.outOfRange, field: "energy", "workout energy 300000 kJ (71701.721 kcal) is outside the plausible range 0–50000 kcal")),
        (sample(.workout(WorkoutInput(activityType: "running", energy: 1e300))),
         Rejection(.outOfRange, field: "energy", "workout energy 1e+300 kcal is outside the plausible range 0–50000 kcal")),
        (sample(.workout(WorkoutInput(activityType: "running", distance: -0.5, distanceUnit: .kilometers))),
         Rejection(.outOfRange, field: "distance", "field \"distance\" is negative")),
        (sample(.workout(WorkoutInput(activityType: "running", distance: 2500, distanceUnit: .kilometers))),
         Rejection(.outOfRange, field: "distance", "workout distance 2500 km is outside the plausible range 0–2000 km")),
        (sample(.workout(WorkoutInput(activityType: "running", distance: 2_000_000.5, distanceUnit: .meters))),
         Rejection(.outOfRange, field: "distance", "workout distance 2000000.5 m (2000.001 km) is outside the plausible range 0–2000 km")),
        (sample(.workout(WorkoutInput(activityType: "running", distance: 1300, distanceUnit: .miles))),
         Rejection(.outOfRange, field: "distance", "workout distance 1300 mi (2092.147 km) is outside the plausible range 0–2000 km")),
        (sample(.workout(WorkoutInput(activityType: "strength", volumeKg: 600_000))),
         Rejection(.outOfRange, field: "volumeKg", "workout volume 600000 kg is outside the plausible range 0–500000 kg")),
        (sample(.hrv(48, .milliseconds), start: Timestamp(epochSeconds: -5_364_662_400, offsetSeconds: 0)),
         Rejection(.timestampOutsideWindow, field: "start",
                   "field \"start\": timestamp \"1800-01-01T00:00:00Z\" is before 1900-01-01T00:00:00Z, outside the accepted window [1900-01-01T00:00:00Z, 2100-01-01T00:00:00Z); check the device clock and send the sample's real date")),
    ]

    @Test(arguments: refusedSamples.indices)
    func aRefusedTypedSampleIsRefusedAsItsLineIs(index: Int) {
        let (input, expected) = Self.refusedSamples[index]
        let typed = Result { () throws(Rejection) in try IngestCommand.sample(input, eventID: nil) }
        #expect(typed.failure == expected)
        #expect(InputValidationTests.rejection(of: Self.line(of: input)) == expected, "\(Self.line(of: input))")
    }

    @Test func refusedSignalsAreRefusedAsTheirLinesAre() {
        let at = Self.start
        let cases: [(Rejection?, String, Rejection)] = [
            (Result { () throws(Rejection) in try IngestCommand.refresh(RefreshRequest(source: .healthKitObserver, kind: nil, at: at), eventID: nil) }.failure,
             #"{"type":"refresh","source":"healthKitObserver","at":"\#(at.text)"}"#,
             Rejection(.missingField, field: "kind", "field \"kind\" is required for source healthKitObserver (the sample kind the observer fired for)")),
            (Result { () throws(Rejection) in try IngestCommand.refresh(RefreshRequest(source: .foreground, kind: nil, at: at), eventID: "") }.failure,
             #"{"type":"refresh","source":"foreground","at":"\#(at.text)","eventID":""}"#,
             Rejection(.emptyText, field: "eventID", "field \"eventID\" must be 1–256 bytes")),
            (Result { () throws(Rejection) in try IngestCommand.task(TaskCommand(task: "t1", feature: "", phase: .started, at: at), eventID: nil) }.failure,
             #"{"type":"task","task":"t1","feature":"","phase":"started","at":"\#(at.text)"}"#,
             Rejection(.emptyText, field: "feature", "field \"feature\" is empty")),
            (Result { () throws(Rejection) in try IngestCommand.profile(ProfileUpdate(sleepTargetMinutes: 1441, at: at), eventID: nil) }.failure,
             #"{"type":"profile","sleepTargetMinutes":1441,"at":"\#(at.text)"}"#,
             Rejection(.outOfRange, field: "sleepTargetMinutes", "field \"sleepTargetMinutes\" is 1441; expected more than 0 and at most 1440")),
            (Result { () throws(Rejection) in try IngestCommand.deletion(SampleDeletion(sampleID: "", at: at), eventID: nil) }.failure,
             #"{"type":"sampleDeleted","id":"","at":"\#(at.text)"}"#,
             Rejection(.emptyText, field: "id", "field \"id\" is empty")),
        ]
        for (typed, line, expected) in cases {
            #expect(typed == expected, "\(line)")
            #expect(InputValidationTests.rejection(of: line) == expected, "\(line)")
        }
    }

    // MARK: - What only a typed value can get wrong

    @Test func nonFiniteNumbersAndBadOffsetsAreRefusedWithTheirField() {
        func rejection(_ input: SampleInput) -> Rejection? {
            Result { () throws(Rejection) in try IngestCommand.sample(input, eventID: nil) }.failure
        }
        #expect(rejection(Self.sample(.hrv(.nan, .milliseconds)))
                == Rejection(.notFinite, field: "value", "field \"value\" is not a number; expected a finite number"))
        #expect(rejection(Self.sample(.workout(WorkoutInput(activityType: "run", distance: .infinity))))
                == Rejection(.notFinite, field: "distance", "field \"distance\" is infinite; expected a finite number"))
        let odd = Timestamp(epochSeconds: 1_772_409_600, offsetSeconds: 3600 + 17)
        #expect(rejection(Self.sample(.hrv(48, .milliseconds), start: odd, end: odd))?.code == .invalidTimestamp)
        #expect(rejection(Self.sample(.hrv(48, .milliseconds), start: odd, end: odd))?.field == "start")
        let profile = Result { () throws(Rejection) in
            try IngestCommand.profile(ProfileUpdate(sleepTargetMinutes: .nan, at: Self.start), eventID: nil)
        }
        #expect(profile.failure?.code == .notFinite)
    }

    // MARK: - Timestamps from a Date's numbers

    @Test func aDatesInstantIsKeptToTheMicrosecondInAWholeMinuteOffset() {
        // 2026-03-02T07:12:00.123Z as a Date holds it: seconds since 2001-01-01, a double.
        let reference = 794_128_320.123
        let timestamp = Timestamp(secondsSinceReferenceDate: reference, offsetSeconds: 9 * 3600)
        #expect(timestamp.text == "2026-03-02T16:12:00.123+09:00")
        #expect(Timestamp(secondsSinceReferenceDate: -0.5, offsetSeconds: 0).text == "2000-12-31T23:59:59.500Z")
        // Amsterdam's local mean time before 1937 was +00:19:32: written to the minute.
        #expect(Timestamp(secondsSinceReferenceDate: -3_000_000_000, offsetSeconds: 19 * 60 + 32).offsetSeconds == 20 * 60)
        #expect(!TimestampWindow.contains(Timestamp(secondsSinceReferenceDate: .infinity, offsetSeconds: 0)))
        #expect(!TimestampWindow.contains(Timestamp(secondsSinceReferenceDate: .nan, offsetSeconds: 0)))
    }
}

extension Result {
    /// The error, or `nil` on success.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
