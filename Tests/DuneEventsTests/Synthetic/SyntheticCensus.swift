@testable import DuneEvents
import DuneFixtures

/// What a generated input contains, counted line by line as it streams.
///
/// The tests use it to show that the features ``SyntheticHealthData`` promises
/// really occur, and that every value respects SPEC §2.
struct SyntheticCensus {
    var lines = 0
    /// `type`, or `sample/<kind>`, or `task/<phase>`, or `refresh/<source>` → count.
    var byType: [String: Int] = [:]
    /// `kind:unit`, `energy:kJ`, `distance:mi` … that occurred.
    var units: Set<String> = []
    /// Written offsets: `+01:00`, `Z`, …
    var offsets: Set<String> = []
    var sources: Set<String> = []
    var activityTypes: Set<String> = []
    var sleepStages: Set<String> = []
    /// Lines byte-identical to an earlier line.
    var duplicateLines = 0
    /// Sample lines whose id was seen before with different content.
    var corrections = 0
    /// `sampleDeleted` lines for an id seen earlier.
    var deletionsOfEarlierIDs = 0
    /// iPhone or AutoSleep sleep samples overlapping an Apple Watch asleep sample.
    var overlappingSleepFromOtherSources = 0
    /// Sleep samples whose start and end are written in different offsets (a DST night).
    var sleepAcrossOffsetChange: Set<String> = []
    /// Sleep samples ending between 12:00 and 18:00 local time.
    var naps = 0
    /// Observer requests within 60 s of an observer for the same kind.
    var observerRepeatsWithin60s = 0
    /// Observer requests within 60 s of a foreground request.
    var observersRightAfterForeground = 0
    var supersededStarts = 0
    var staleCompletions = 0
    var userCancellations = 0
    var failuresWithErrorCancelled = 0
    var failuresWithOtherErrors = 0
    var linesWithEventID = 0
    var linesWithUnknownFields = 0
    var sleepTargets: [Double] = []
    /// The largest step back in time of a `refresh`/`task`/`profile` `at`, in seconds.
    var largestStepBackSeconds = 0.0
    /// Violations of SPEC §2/§3 found, as readable messages (empty when all is well).
    var problems: [String] = []

    private var seenLines: Set<[UInt8]> = []
    private var sampleLines: [String: [UInt8]] = [:]
    private var watchAsleep: [(start: Double, end: Double)] = []
    private var lastObserverAt: [String: Double] = [:]
    private var lastForegroundAt = -Double.infinity
    private var latestAt = -Double.infinity
    private var currentTask: [String: String] = [:]

    private static let knownMembers: Set<String> = [
        "type", "kind", "id", "start", "end", "value", "unit", "source", "activityType", "energy", "energyUnit",
        "distance", "distanceUnit", "volumeKg", "at", "task", "feature", "phase", "error", "sleepTargetMinutes",
        "eventID",
    ]

    /// Counts everything in the output of `data`.
    init(_ data: SyntheticHealthData) {
        data.generate { line in self.add(line) }
    }

    // MARK: - Counting

    private mutating func add(_ line: UnsafeRawBufferPointer) {
        lines += 1
        let bytes = Array(line)
        let isDuplicate = !seenLines.insert(bytes).inserted
        if isDuplicate { duplicateLines += 1 }
        guard case .object(let object)? = try? JSONParser.parse(line) else {
            return problem("not a JSON object: \(String(decoding: bytes, as: UTF8.self))")
        }
        let type = object["type"]?.stringValue ?? "?"
        if object["eventID"] != nil { linesWithEventID += 1 }
        if object.members.contains(where: { !Self.knownMembers.contains($0.key) }) { linesWithUnknownFields += 1 }
        for name in ["start", "end", "at"] {
            guard let text = object[name]?.stringValue else { continue }
            guard let stamp = try? Timestamp(parsing: text) else { return problem("\(name) \(text) has no valid offset") }
            offsets.insert(text.hasSuffix("Z") ? "Z" : String(text.suffix(6)))
            _ = stamp
        }
        switch type {
        case "sample": addSample(object, bytes: bytes, isDuplicate: isDuplicate)
        case "sampleDeleted":
            count("sampleDeleted")
            if let id = object["id"]?.stringValue, sampleLines[id] != nil { deletionsOfEarlierIDs += 1 }
        case "refresh": addRefresh(object)
        case "task": addTask(object, isDuplicate: isDuplicate)
        case "profile":
            count("profile")
            if let minutes = object["sleepTargetMinutes"]?.numberValue { sleepTargets.append(minutes) }
        default: problem("unknown type \(type)")
        }
        if let text = object["at"]?.stringValue, let at = try? Timestamp(parsing: text) {
            largestStepBackSeconds = max(largestStepBackSeconds, latestAt - at.instant)
            latestAt = max(latestAt, at.instant)
        }
    }

    private mutating func addSample(_ object: JSONObject, bytes: [UInt8], isDuplicate: Bool) {
        guard let kind = object["kind"]?.stringValue, let id = object["id"]?.stringValue,
              let startText = object["start"]?.stringValue, let endText = object["end"]?.stringValue,
              let start = try? Timestamp(parsing: startText), let end = try? Timestamp(parsing: endText),
              let source = object["source"]?.stringValue
        else { return problem("incomplete sample \(object)") }
        count("sample/\(kind)")
        sources.insert(source)
        if let earlier = sampleLines[id], earlier != bytes { corrections += 1 }
        sampleLines[id] = bytes
        let seconds = end.seconds(since: start)
        if seconds < 0 { problem("end before start: \(id)") }
        if let unit = object["unit"]?.stringValue { units.insert("\(kind):\(unit)") }
        let value = object["value"]?.numberValue
        let unit = object["unit"]?.stringValue
        switch kind {
        case "hrv": checkRange(value, unit: unit, ["ms": 1], 1...500, kind)
        case "restingHeartRate": checkRange(value, unit: unit, ["count/min": 1, "bpm": 1], 20...250, kind)
        case "stepCount": checkRange(value, unit: unit, ["count": 1], 0...100_000, kind)
        case "bodyMass": checkRange(value, unit: unit, ["kg": 1, "g": 0.001, "lb": 0.453_592_37], 1...700, kind)
        case "bodyFatPercentage": checkRange(value, unit: unit, ["%": 100, "percent": 1], 1...80, kind)
        case "bodyMassIndex": checkRange(value, unit: unit, ["count": 1, "kg/m2": 1], 5...200, kind)
        case "sleep": addSleep(object, start: start, end: end, source: source, isDuplicate: isDuplicate)
        case "workout":
            if seconds > 48 * 3600 { problem("workout longer than 48 h: \(id)") }
            activityTypes.insert(object["activityType"]?.stringValue ?? "?")
            if let energyUnit = object["energyUnit"]?.stringValue {
                units.insert("energy:\(energyUnit)")
                if !["kcal", "Cal", "kJ"].contains(energyUnit) { problem("energy unit \(energyUnit)") }
            }
            if let distanceUnit = object["distanceUnit"]?.stringValue {
                units.insert("distance:\(distanceUnit)")
                if !["m", "km", "mi"].contains(distanceUnit) { problem("distance unit \(distanceUnit)") }
            }
        default: problem("unknown kind \(kind)")
        }
    }

    private mutating func addSleep(_ object: JSONObject, start: Timestamp, end: Timestamp, source: String,
                                   isDuplicate: Bool) {
        let stage = object["value"]?.stringValue ?? "?"
        sleepStages.insert(stage)
        guard SleepStage(rawValue: stage) != nil else { return problem("sleep stage \(stage)") }
        if end.seconds(since: start) > 24 * 3600 { problem("sleep longer than 24 h") }
        if start.offsetSeconds != end.offsetSeconds, start.offsetSeconds != 0 {
            sleepAcrossOffsetChange.insert("\(start.text.suffix(6))→\(end.text.suffix(6))")
        }
        let endHour = (end.epochSeconds + Int64(end.offsetSeconds)) % 86_400 / 3600
        if (12..<18).contains(endHour) && end.seconds(since: start) < 3 * 3600 { naps += 1 }
        guard !isDuplicate else { return }
        if source == "Apple Watch" {
            if stage.hasPrefix("asleep") {
                watchAsleep.append((start.instant, end.instant))
                if watchAsleep.count > 200 { watchAsleep.removeFirst(100) }
            }
        } else if watchAsleep.contains(where: { $0.start < end.instant && $0.end > start.instant }) {
            overlappingSleepFromOtherSources += 1
        }
    }

    private mutating func addRefresh(_ object: JSONObject) {
        let source = object["source"]?.stringValue ?? "?"
        count("refresh/\(source)")
        guard let text = object["at"]?.stringValue, let at = try? Timestamp(parsing: text) else { return }
        switch source {
        case "foreground": lastForegroundAt = at.instant
        case "healthKitObserver":
            guard let kind = object["kind"]?.stringValue, SampleKind(rawValue: kind) != nil else {
                return problem("observer without a valid kind")
            }
            if let last = lastObserverAt[kind], at.instant - last < 60 { observerRepeatsWithin60s += 1 }
            if at.instant - lastForegroundAt < 60 { observersRightAfterForeground += 1 }
            lastObserverAt[kind] = at.instant
        case "backgroundDelivery", "pullToRefresh": break
        default: problem("refresh source \(source)")
        }
    }

    private mutating func addTask(_ object: JSONObject, isDuplicate: Bool) {
        let phase = object["phase"]?.stringValue ?? "?"
        count("task/\(phase)")
        guard let task = object["task"]?.stringValue, let feature = object["feature"]?.stringValue else {
            return problem("task without id or feature")
        }
        let isCurrent = currentTask[feature] == task
        switch phase {
        case "started":
            if currentTask[feature] != nil { supersededStarts += 1 }
            currentTask[feature] = task
        case "completed":
            if isCurrent { currentTask[feature] = nil } else { staleCompletions += 1 }
        case "cancelled":
            if isCurrent { currentTask[feature] = nil }
            userCancellations += 1
        case "failed":
            if isCurrent { currentTask[feature] = nil }
            if object["error"]?.stringValue?.lowercased() == "cancelled" {
                failuresWithErrorCancelled += 1
            } else {
                failuresWithOtherErrors += 1
            }
        default: problem("task phase \(phase)")
        }
    }

    // MARK: - Helpers

    private mutating func count(_ key: String) {
        byType[key, default: 0] += 1
    }

    private mutating func checkRange(_ value: Double?, unit: String?, _ factors: [String: Double],
                                     _ range: ClosedRange<Double>, _ kind: String) {
        guard let value, value.isFinite, let unit, let factor = factors[unit] else {
            return problem("\(kind): value \(String(describing: value)) unit \(String(describing: unit))")
        }
        if !range.contains(value * factor) { problem("\(kind): \(value) \(unit) outside \(range)") }
    }

    private mutating func problem(_ message: String) {
        if problems.count < 20 { problems.append(message) }
    }
}
