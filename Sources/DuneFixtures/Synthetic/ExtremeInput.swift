import DuneEvents

/// Seeded generators of extreme but valid input lines (docs/input-format.md): one case per way a
/// log can grow along something other than its number of events (issue 11).
///
/// Every line passes validation. The read models of each case are simple
/// enough to work out independently (the tests do, in a few lines each), and
/// `Benchmarks/extreme.sh` rebuilds each case next to a normal log of the same
/// size to show time and memory stay in proportion.
///
/// Package access: a benchmark and test tool, not part of what an app links
/// against (`dune-replay generate --extreme CASE` writes it).
///
/// ```swift
/// let lines = ExtremeInput.lines(.sleepOverlap, count: 50_000, seed: 1)
/// ```
package enum ExtremeInput {
    /// The extreme cases.
    package enum Case: String, Sendable, CaseIterable {
        /// HRV samples spread evenly from 1900-01-01 to 2099-12-31, a workout on
        /// both days: 200 years of weeks and of training load.
        case centuries
        /// Step samples on one day, each from a source of its own.
        case sources
        /// Task events: distinct task ids, 1 feature per 5 tasks, started then completed or failed.
        case tasks
        /// Refresh requests from every source, observer requests for every kind, 7 s apart.
        case refreshes
        /// One HRV sample corrected over and over (every version a new value).
        case corrections
        /// Every sample on one day (HRV, resting HR, steps from two sources, body
        /// mass, workouts), then a fifth of them deleted from the middle of the day.
        case oneDay
        /// Overlapping asleep intervals in one night, on whole minutes.
        case sleepOverlap
        /// Ten HRV samples, each deleted and re-ingested with a new value, round after round.
        case deleteReingest
        /// Ids, sources, eventIDs and activity types of 256 bytes (the limit) over a
        /// year, plus a few lines near the 1 MiB line limit and one with 20 000 unknown members.
        case longStrings
    }

    /// The day most cases put their data on: Monday 2026-03-02 (local, +01:00).
    package static let day = DayKey(year: 2026, month: 3, day: 2)
    /// The offset of those days.
    package static let offset: Int32 = 3600

    /// `count` input lines of `extremeCase` (about `count`; `tasks` may add a few
    /// events the decider writes), the same for the same seed on every machine.
    package static func lines(_ extremeCase: Case, count: Int, seed: UInt64) -> [String] {
        var random = SyntheticRandom(seed: seed ^ 0x6578_7472_656D_65)
        let count = max(count, 20)
        switch extremeCase {
        case .centuries: return centuries(count)
        case .sources: return sources(count, &random)
        case .tasks: return tasks(count)
        case .refreshes: return refreshes(count)
        case .corrections: return corrections(count)
        case .oneDay: return oneDay(count, &random)
        case .sleepOverlap: return sleepOverlap(count, &random)
        case .deleteReingest: return deleteReingest(count)
        case .longStrings: return longStrings(count, &random)
        }
    }

    // MARK: - Lines

    /// Seconds since the epoch of `day` at `minute` past local midnight in ``offset``.
    package static func epoch(_ day: DayKey, minute: Int, offset: Int32 = offset) -> Int64 {
        Int64(day.ordinal) * 86_400 + Int64(minute) * 60 - Int64(offset)
    }

    static func time(_ epochSeconds: Int64, offset: Int32 = offset) -> String {
        Timestamp(epochSeconds: epochSeconds, offsetSeconds: offset).text
    }

    static func quantity(_ kind: SampleKind, id: String, start: Int64, end: Int64, value: Double, unit: String,
                         source: String, offset: Int32 = offset, eventID: String? = nil) -> String {
        var members = [
            JSONMember("type", .string("sample")), JSONMember("kind", .string(kind.rawValue)), JSONMember("id", .string(id)),
            JSONMember("start", .string(time(start, offset: offset))), JSONMember("end", .string(time(end, offset: offset))),
            JSONMember("value", .number(value)), JSONMember("unit", .string(unit)), JSONMember("source", .string(source)),
        ]
        if let eventID { members.append(JSONMember("eventID", .string(eventID))) }
        return JSONWriter.string(.object(JSONObject(members)))
    }

    static func workout(id: String, start: Int64, minutes: Int, activityType: String, energy: Double, source: String,
                        offset: Int32 = offset) -> String {
        JSONWriter.string(.object(JSONObject([
            JSONMember("type", .string("sample")), JSONMember("kind", .string("workout")), JSONMember("id", .string(id)),
            JSONMember("start", .string(time(start, offset: offset))),
            JSONMember("end", .string(time(start + Int64(minutes) * 60, offset: offset))),
            JSONMember("activityType", .string(activityType)), JSONMember("energy", .number(energy)),
            JSONMember("energyUnit", .string("kcal")), JSONMember("source", .string(source)),
        ])))
    }

    // MARK: - Cases

    /// Day `index` of `count` spread evenly over 1900-01-01 … 2099-12-31.
    package static func centuriesDay(_ index: Int, of count: Int) -> DayKey {
        let first = DayKey(year: 1900, month: 1, day: 1).ordinal
        let last = DayKey(year: 2099, month: 12, day: 31).ordinal
        return DayKey(ordinal: first + Int(Int64(index) * Int64(last - first) / Int64(count - 1)))
    }

    /// The HRV value of sample `index` in `centuries`, `sources`' step value, ….
    package static func cycledValue(_ index: Int) -> Double { Double(30 + (index * 7) % 50) }

    private static func centuries(_ count: Int) -> [String] {
        let samples = count - 2
        var lines: [String] = []
        lines.reserveCapacity(count)
        lines.append(workout(id: "w-first", start: epoch(centuriesDay(0, of: samples), minute: 600, offset: 0), minutes: 60,
                             activityType: "running", energy: 500, source: "Watch", offset: 0))
        for index in 0..<samples {
            let start = epoch(centuriesDay(index, of: samples), minute: 360, offset: 0)
            lines.append(quantity(.hrv, id: uuid(index), start: start, end: start + 60, value: cycledValue(index), unit: "ms",
                                  source: "Watch", offset: 0))
        }
        lines.append(workout(id: "w-last", start: epoch(centuriesDay(samples - 1, of: samples), minute: 600, offset: 0), minutes: 30,
                             activityType: "cycling", energy: 250, source: "Watch", offset: 0))
        return lines
    }

    /// Sample `index` of `sources`: minute of the day, and its source.
    package static func sourcesSample(_ index: Int) -> (minute: Int, source: String) {
        (index % 1440, "source-\(index)")
    }

    private static func sources(_ count: Int, _ random: inout SyntheticRandom) -> [String] {
        (0..<count).map { index in
            let (minute, source) = sourcesSample(index)
            let start = epoch(day, minute: minute)
            return quantity(.stepCount, id: uuid(index), start: start, end: start + 59, value: cycledValue(index), unit: "count",
                            source: source)
        }
    }

    /// Task `index` of `tasks`: its feature, and whether it fails.
    package static func task(_ index: Int) -> (feature: String, fails: Bool) {
        ("feature-\(index / 5)", index % 3 == 2)
    }

    private static func tasks(_ count: Int) -> [String] {
        let base = epoch(day, minute: 0)
        var lines: [String] = []
        lines.reserveCapacity(count)
        for index in 0..<(count / 2) {
            let (feature, fails) = task(index)
            let at = time(base + Int64(index) * 2)
            let done = time(base + Int64(index) * 2 + 1)
            lines.append(#"{"type":"task","task":"task-\#(index)","feature":"\#(feature)","phase":"started","at":"\#(at)"}"#)
            lines.append(fails
                ? #"{"type":"task","task":"task-\#(index)","feature":"\#(feature)","phase":"failed","at":"\#(done)","error":"error \#(index)"}"#
                : #"{"type":"task","task":"task-\#(index)","feature":"\#(feature)","phase":"completed","at":"\#(done)"}"#)
        }
        return lines
    }

    /// Request `index` of `refreshes`: its source and, for the observer, its kind.
    package static func refresh(_ index: Int) -> (source: RefreshSource, kind: SampleKind?) {
        let source = RefreshSource.allCases[index % RefreshSource.allCases.count]
        let kind = source == .healthKitObserver ? SampleKind.allCases[(index / RefreshSource.allCases.count) % SampleKind.allCases.count] : nil
        return (source, kind)
    }

    /// Seconds between two requests of `refreshes`.
    package static let refreshSpacing: Int64 = 7

    private static func refreshes(_ count: Int) -> [String] {
        let base = epoch(day, minute: 0)
        return (0..<count).map { index in
            let (source, kind) = refresh(index)
            let kindMember = kind.map { #","kind":"\#($0.rawValue)""# } ?? ""
            return #"{"type":"refresh","source":"\#(source.rawValue)"\#(kindMember),"at":"\#(time(base + Int64(index) * refreshSpacing))"}"#
        }
    }

    /// Version `index` of the sample `corrections` corrects: a value no other version has.
    package static func correctionValue(_ index: Int) -> Double { 20 + Double(index) / 1000 }

    private static func corrections(_ count: Int) -> [String] {
        let start = epoch(day, minute: 360)
        return (0..<count).map { index in
            quantity(.hrv, id: "corrected", start: start, end: start + 60, value: correctionValue(index), unit: "ms", source: "Watch")
        }
    }

    /// Sample `index` of `oneDay`: its kind, minute, value and source.
    package static func oneDaySample(_ index: Int) -> (kind: SampleKind, minute: Int, value: Double, source: String) {
        let minute = (index * 13) % 1440
        switch index % 6 {
        case 0: return (.hrv, minute, cycledValue(index), "Watch")
        case 1: return (.restingHeartRate, minute, Double(45 + index % 30), "Watch")
        case 2: return (.stepCount, minute, Double(index % 200), "iPhone")
        case 3: return (.stepCount, minute, Double(index % 190), "Watch")
        case 4: return (.bodyMass, minute, 70 + Double(index % 100) / 10, "Scale")
        default: return (.workout, minute, Double(index % 50), "Watch")
        }
    }

    /// How many samples `oneDay` ingests for `count` lines; every fourth of them is then deleted.
    package static func oneDaySampleCount(_ count: Int) -> Int { count * 4 / 5 }

    /// Whether `oneDay` deletes sample `index` (after ingesting them all, in index order).
    package static func oneDayDeletes(_ index: Int) -> Bool { index % 4 == 1 }

    private static func oneDay(_ count: Int, _ random: inout SyntheticRandom) -> [String] {
        let samples = oneDaySampleCount(count)
        var lines: [String] = []
        lines.reserveCapacity(count)
        for index in 0..<samples {
            let sample = oneDaySample(index)
            let start = epoch(day, minute: sample.minute)
            if sample.kind == .workout {
                lines.append(workout(id: "d-\(index)", start: start, minutes: 1 + index % 30, activityType: (index / 6) % 3 == 0 ? "running" : "rowing",
                                     energy: sample.value, source: sample.source))
            } else {
                lines.append(quantity(sample.kind, id: "d-\(index)", start: start, end: start + 30, value: sample.value,
                                      unit: sample.kind.canonicalUnit ?? "", source: sample.source))
            }
        }
        let deletedAt = time(epoch(day, minute: 1439))
        for index in 0..<samples where oneDayDeletes(index) {
            lines.append(#"{"type":"sampleDeleted","id":"d-\#(index)","at":"\#(deletedAt)"}"#)
        }
        return lines
    }

    /// Interval `index` of `sleepOverlap`: start and end minutes after 22:00 the evening before ``day``.
    package static func sleepInterval(_ index: Int, seed: UInt64) -> (start: Int, end: Int) {
        var random = SyntheticRandom(seed: seed ^ 0x736C_6565_70, day: index, stream: .night)
        let start = random.int(0...540)
        return (start, start + random.int(1...90))
    }

    private static func sleepOverlap(_ count: Int, _ random: inout SyntheticRandom) -> [String] {
        let evening = epoch(day.adding(days: -1), minute: 22 * 60)
        let stages = ["asleepCore", "asleepDeep", "asleepREM", "asleepUnspecified"]
        let sources = ["Watch", "iPhone", "AutoSleep"]
        // One seed for the whole case: `sleepInterval` is what the tests recompute.
        let seed = random.next()
        return (0..<count).map { index in
            let (start, end) = sleepInterval(index, seed: seed)
            return JSONWriter.string(.object(JSONObject([
                JSONMember("type", .string("sample")), JSONMember("kind", .string("sleep")), JSONMember("id", .string(uuid(index))),
                JSONMember("start", .string(time(evening + Int64(start) * 60))), JSONMember("end", .string(time(evening + Int64(end) * 60))),
                JSONMember("value", .string(stages[index % stages.count])), JSONMember("source", .string(sources[index % sources.count])),
            ])))
        }
    }

    /// A canonical UUID for `index`, as HealthKit gives samples (such rows pack).
    package static func uuid(_ index: Int) -> String {
        let hex = String(index, radix: 16)
        return "00000000-0000-4000-8000-" + String(repeating: "0", count: max(0, 12 - hex.count)) + hex
    }

    /// The seed `sleepOverlap` draws its intervals with, for `seed` (see ``sleepInterval(_:seed:)``).
    package static func sleepSeed(_ seed: UInt64) -> UInt64 {
        var random = SyntheticRandom(seed: seed ^ 0x6578_7472_656D_65)
        return random.next()
    }

    /// The ten samples of `deleteReingest`; round `round` deletes `round % 10` and re-ingests it with this value.
    package static func reingestValue(_ round: Int) -> Double { 30 + Double(round) / 1000 }

    private static func deleteReingest(_ count: Int) -> [String] {
        let deletedAt = time(epoch(day, minute: 1439))
        func sample(_ id: Int, _ value: Double) -> String {
            let start = epoch(day, minute: 360 + id)
            return quantity(.hrv, id: "r-\(id)", start: start, end: start + 60, value: value, unit: "ms", source: "Watch")
        }
        var lines = (0..<10).map { sample($0, 25 + Double($0)) }
        var round = 0
        while lines.count + 2 <= count {
            lines.append(#"{"type":"sampleDeleted","id":"r-\#(round % 10)","at":"\#(deletedAt)"}"#)
            lines.append(sample(round % 10, reingestValue(round)))
            round += 1
        }
        return lines
    }

    /// A string of exactly `bytes` UTF-8 bytes starting with `prefix` (which must be shorter).
    package static func padded(_ prefix: String, to bytes: Int) -> String {
        prefix + String(repeating: "x", count: bytes - prefix.utf8.count)
    }

    /// Sample `index` of `longStrings`: its day (a year from 2026-01-05) and source.
    package static func longStringsSample(_ index: Int) -> (day: DayKey, source: String) {
        (SyntheticHealthData.defaultStart.adding(days: index % 365), padded("source-\(index % 10)-", to: 256))
    }

    private static func longStrings(_ count: Int, _ random: inout SyntheticRandom) -> [String] {
        var lines: [String] = []
        lines.reserveCapacity(count)
        // One line with 20 000 unknown members, a few near the 1 MiB line limit.
        var many = #"{"type":"profile","sleepTargetMinutes":450,"at":"2026-01-05T07:00:00+01:00""#
        for index in 0..<20_000 { many += #","u\#(index)":\#(index)"# }
        lines.append(many + "}")
        for index in 0..<4 {
            lines.append(#"{"type":"refresh","source":"backgroundDelivery","at":"2026-01-05T08:0\#(index):00+01:00","note":""#
                         + String(repeating: "n", count: (1 << 20) - 1000) + #""}"#)
        }
        var index = 0
        while lines.count < count {
            let (sampleDay, source) = longStringsSample(index)
            let start = epoch(sampleDay, minute: 360 + index % 600)
            let id = padded("id-\(index)-", to: 256)
            let eventID = padded("event-\(index)-", to: 256)
            if index % 50 == 49 {
                lines.append(JSONWriter.string(.object(JSONObject([
                    JSONMember("type", .string("sample")), JSONMember("kind", .string("workout")), JSONMember("id", .string(id)),
                    JSONMember("start", .string(time(start))), JSONMember("end", .string(time(start + 1800))),
                    JSONMember("activityType", .string(padded("activity\(index % 7)", to: 256))), JSONMember("source", .string(source)),
                    JSONMember("eventID", .string(eventID)),
                ]))))
            } else if index % 2 == 0 {
                lines.append(quantity(.hrv, id: id, start: start, end: start + 60, value: cycledValue(index), unit: "ms", source: source,
                                      eventID: eventID))
            } else {
                lines.append(quantity(.stepCount, id: id, start: start, end: start + 600, value: cycledValue(index), unit: "count",
                                      source: source, eventID: eventID))
            }
            index += 1
        }
        return lines
    }
}
