import DuneEvents

/// A synthetic HealthKit sync trace (docs/sync-trace.md) for tests
/// and benchmarks, with the net samples it leaves.
///
/// Pages of six sample types interleave in a seeded order. Pages carry new
/// samples, re-deliveries of current versions, corrections (same id, a value
/// never used before, so no correction ever equals an older version),
/// deletions, samples the input rules reject (out of range, an unknown sleep stage);
/// reconciles list what the source holds on a range of days after a
/// deletion whose record HealthKit purged (so only the reconcile deletes
/// it); fail lines stand for queries that failed (device locked).
/// ``netSampleLines`` are the samples live at the end, as `ingest` input
/// lines: ingesting them gives the read models the trace's replay gives.
package struct SyncTraceGenerator {
    /// The trace's JSON lines.
    package private(set) var traceLines: [String] = []
    /// The live samples at the end, as `ingest` lines, in id order.
    package private(set) var netSampleLines: [String] = []
    /// The last anchor of each type's pages.
    package private(set) var lastAnchors: [SampleKind: String] = [:]
    /// Counts of what the trace holds.
    package private(set) var pages = 0, redeliveries = 0, corrections = 0, deletions = 0, rejected = 0, reconciles = 0,
                             failures = 0, missedDeletions = 0

    /// The six synced types.
    package static let types: [SampleKind] = [.hrv, .restingHeartRate, .stepCount, .bodyMass, .sleep, .workout]

    private struct Live {
        var object: [(String, String)]  // key, JSON value text, in writing order
        var version: Int
        var day: DayKey
        var start: Timestamp
    }

    private var random: SyntheticRandom
    private var live: [SampleKind: [String: Live]] = [:]
    private var anchorNumbers: [SampleKind: Int] = [:]
    private var nextID = 0

    /// Generates a trace of about `pages` pages.
    /// - Parameters:
    ///   - pages: The number of page lines (at least one per type).
    ///   - seed: The random seed: a seed gives the same bytes on every machine.
    package init(pages: Int, seed: UInt64) {
        random = SyntheticRandom(seed: seed)
        for type in Self.types { live[type] = [:] }
        for index in 0..<max(pages, Self.types.count) {
            // Every type gets a page first; then a seeded order.
            let type = index < Self.types.count ? Self.types[index] : Self.types[random.below(Self.types.count)]
            if index >= Self.types.count, random.below(14) == 0 { fail(type) }
            page(type, day: index)
            if index >= Self.types.count, random.below(9) == 0 { reconcile(type) }
        }
        for type in Self.types { reconcile(type) }
        var net: [(String, String)] = []
        for type in Self.types {
            for (id, sample) in live[type] ?? [:] { net.append((id, Self.line(["type": "\"sample\""], sample.object))) }
        }
        netSampleLines = net.sorted { $0.0 < $1.0 }.map(\.1)
    }

    // MARK: - Lines

    private mutating func page(_ type: SampleKind, day: Int) {
        let after = anchorNumbers[type].map { "\"\(type.rawValue)-\($0)\"" } ?? "null"
        let number = (anchorNumbers[type] ?? 0) + 1
        anchorNumbers[type] = number
        var added: [String] = []
        var deleted: [String] = []
        for _ in 0..<(1 + random.below(6)) {
            let sample = newSample(type, day: day)
            live[type]?[sample.id] = sample.live
            added.append(Self.line([:], sample.live.object))
        }
        let ids = (live[type] ?? [:]).keys.sorted()
        if !ids.isEmpty, random.below(3) == 0, let id = pick(ids), let sample = live[type]?[id] {
            added.append(Self.line([:], sample.object))  // a re-delivery of the current version
            redeliveries += 1
        }
        if !ids.isEmpty, random.below(4) == 0, let id = pick(ids), var sample = live[type]?[id] {
            sample.version += 1
            sample.object = Self.corrected(sample.object, type: type, version: sample.version)
            if type == .sleep, let end = sample.object.first(where: { $0.0 == "end" }),
               let parsed = try? Timestamp(parsing: String(end.1.dropFirst().dropLast())) {
                sample.day = parsed.adding(seconds: 6 * 3600).localDate
            }
            live[type]?[id] = sample
            added.append(Self.line([:], sample.object))
            corrections += 1
        }
        if ids.count > 3, random.below(4) == 0, let id = pick(ids) {
            live[type]?[id] = nil
            deleted.append("\"\(id)\"")
            deletions += 1
        }
        if random.below(6) == 0 {
            added.append(Self.line([:], rejectedSample(type, day: day)))
            rejected += 1
        }
        traceLines.append(#"{"page":{"sampleType":"\#(type.rawValue)","after":\#(after),"anchor":"\#(type.rawValue)-\#(number)","added":[\#(added.joined(separator: ","))],"deleted":[\#(deleted.joined(separator: ","))]}}"#)
        lastAnchors[type] = "\(type.rawValue)-\(number)"
        pages += 1
    }

    /// A reconcile over the type's days so far; first a deletion whose record HealthKit purged.
    private mutating func reconcile(_ type: SampleKind) {
        let samples = live[type] ?? [:]
        guard let first = samples.values.map(\.day).min(), let last = samples.values.map(\.day).max() else { return }
        let from = first.adding(days: random.below(3)), to = max(from, last.adding(days: -random.below(3)))
        let inRange = samples.filter { (from...to).contains($0.value.day) }.keys.sorted()
        if inRange.count > 2, let id = pick(inRange) {
            live[type]?[id] = nil  // deleted in HealthKit; its deleted-object record expired before any page
            missedDeletions += 1
        }
        let held = (live[type] ?? [:]).filter { (from...to).contains($0.value.day) }.keys.sorted().map { "\"\($0)\"" }
        traceLines.append(#"{"reconcile":{"sampleType":"\#(type.rawValue)","from":"\#(from)","to":"\#(to)","ids":[\#(held.joined(separator: ","))]}}"#)
        reconciles += 1
    }

    private mutating func fail(_ type: SampleKind) {
        traceLines.append(#"{"fail":{"sampleType":"\#(type.rawValue)","error":"databaseInaccessible"}}"#)
        failures += 1
    }

    // MARK: - Samples

    private mutating func newSample(_ type: SampleKind, day: Int) -> (id: String, live: Live) {
        nextID += 1
        let id = "\(type.rawValue)-s\(nextID)"
        let offsets: [Int32] = [3600, -5 * 3600, 9 * 3600, 0, 5 * 3600 + 1800]
        let offset = offsets[random.below(offsets.count)]
        // Days from 2025-01-01, about one page per day, at a time of day that spreads over the local date.
        let base: Int64 = 1_735_689_600 + Int64(day) * 86_400 + Int64(random.below(20 * 3600))
        let start = Timestamp(epochSeconds: base, offsetSeconds: offset)
        var end = start.adding(seconds: 60)
        var object: [(String, String)] = [("kind", "\"\(type.rawValue)\""), ("id", "\"\(id)\"")]
        switch type {
        case .sleep:
            end = start.adding(seconds: Int64(3600 + random.below(6 * 3600)))
            let stages = ["asleepCore", "asleepDeep", "asleepREM", "awake", "inBed", "asleepUnspecified"]
            object.append(("value", "\"\(stages[random.below(stages.count)])\""))
        case .workout:
            end = start.adding(seconds: Int64(1200 + random.below(5400)))
            object += [("activityType", "\"running\""), ("energy", "\(200 + random.below(600))"), ("energyUnit", "\"kcal\""),
                       ("distance", "\(2 + random.below(15))"), ("distanceUnit", "\"km\"")]
        default:
            object += [("value", Self.value(type, version: 0, seed: random.below(1000))), ("unit", "\"\(Self.unit(type))\"")]
        }
        object += [("start", "\"\(start.text)\""), ("end", "\"\(end.text)\""), ("source", "\"Apple Watch\"")]
        let sampleDay = type == .sleep ? end.adding(seconds: 6 * 3600).localDate : start.localDate
        return (id, Live(object: object, version: 0, day: sampleDay, start: start))
    }

    private mutating func rejectedSample(_ type: SampleKind, day: Int) -> [(String, String)] {
        nextID += 1
        let start = Timestamp(epochSeconds: 1_735_689_600 + Int64(day) * 86_400, offsetSeconds: 0)
        var object: [(String, String)] = [("kind", "\"\(type.rawValue)\""), ("id", "\"bad-\(nextID)\"")]
        switch type {
        case .sleep: object.append(("value", "\"asleepDreaming\""))                     // a stage the mapping does not know
        case .workout: object += [("activityType", "\"running\""), ("energy", "90000"), ("energyUnit", "\"kcal\"")]  // over 50 000 kcal
        case .hrv: object += [("value", "900"), ("unit", "\"ms\"")]                      // over 500 ms
        case .restingHeartRate: object += [("value", "400"), ("unit", "\"count/min\"")]
        case .stepCount: object += [("value", "-5"), ("unit", "\"count\"")]
        default: object += [("value", "900"), ("unit", "\"kg\"")]
        }
        object += [("start", "\"\(start.text)\""), ("end", "\"\(start.adding(seconds: 60).text)\""), ("source", "\"Apple Watch\"")]
        return object
    }

    private static func unit(_ type: SampleKind) -> String {
        switch type {
        case .hrv: "ms"
        case .restingHeartRate: "count/min"
        case .stepCount: "count"
        case .bodyMass: "kg"
        case .bodyFatPercentage: "percent"
        case .bodyMassIndex: "kg/m2"
        default: ""
        }
    }

    /// A plausible value; `version` moves it by a step no earlier version used.
    private static func value(_ type: SampleKind, version: Int, seed: Int) -> String {
        let step = Double(version) * 0.25
        let value: Double
        switch type {
        case .hrv: value = 30 + Double(seed % 60) + step
        case .restingHeartRate: value = 45 + Double(seed % 25) + step
        case .stepCount: value = Double(100 + seed * 7) + Double(version)
        case .bodyMass: value = 60 + Double(seed % 300) / 10 + step
        default: value = 20 + step
        }
        return JSONWriter.formatNumber(value)
    }

    private static func corrected(_ object: [(String, String)], type: SampleKind, version: Int) -> [(String, String)] {
        object.map { key, text in
            switch (type, key) {
            case (.sleep, "end"):
                // A night one minute shorter than its last version: an end no earlier version had.
                let end = (try? Timestamp(parsing: String(text.dropFirst().dropLast()))) ?? Timestamp(epochSeconds: 0, offsetSeconds: 0)
                return (key, "\"\(end.adding(seconds: -60).text)\"")
            case (.workout, "energy"): return (key, JSONWriter.formatNumber((Double(text) ?? 300) + 1))
            case (_, "value") where type != .sleep && type != .workout:
                return (key, JSONWriter.formatNumber((Double(text) ?? 50) + 0.25))
            default: return (key, text)
            }
        }
    }

    private static func line(_ head: [String: String], _ object: [(String, String)]) -> String {
        let members = head.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } + object
        return "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    private mutating func pick(_ ids: [String]) -> String? {
        ids.isEmpty ? nil : ids[random.below(ids.count)]
    }
}

extension SyntheticRandom {
    /// A number in `0..<count` (`count` ≥ 1).
    mutating func below(_ count: Int) -> Int { int(0...(max(1, count) - 1)) }
}
