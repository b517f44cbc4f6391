/// A number with the name of the unit it was given in, as the rules read it.
package struct InputMeasure: Sendable, Hashable {
    package var value: Double
    package var unit: String

    package init(value: Double, unit: String) {
        self.value = value
        self.unit = unit
    }
}

/// A sample's fields, as ``InputRules/sample(_:)`` asks for them, in the
/// order it asks: each front end answers from its own form of the input. The
/// JSON line's reader refuses a missing field or a wrong JSON type; the typed
/// value's reader has neither to refuse, and answers what the value holds.
package protocol SampleFieldReader {
    mutating func kind() throws(Rejection) -> SampleKind
    mutating func id() throws(Rejection) -> String
    mutating func start() throws(Rejection) -> Timestamp
    mutating func end() throws(Rejection) -> Timestamp
    mutating func source() throws(Rejection) -> String
    mutating func sleepStage() throws(Rejection) -> SleepStage
    mutating func quantity() throws(Rejection) -> InputMeasure
    mutating func activityType() throws(Rejection) -> String
    /// The energy and its unit; refuses a unit without the number.
    mutating func energy() throws(Rejection) -> InputMeasure?
    /// The distance and its unit; refuses a unit without the number.
    mutating func distance() throws(Rejection) -> InputMeasure?
    mutating func volumeKg() throws(Rejection) -> Double?
    /// The measure the input names, `nil` when it names none (asked of every
    /// kind, after the reading); refuses a name other than `sdnn` or `rmssd`.
    mutating func hrvMeasure() throws(Rejection) -> HRVMeasure?
}

/// The one set of input rules (docs/input-format.md): required
/// texts, timestamps, durations, units and plausible ranges, each with its
/// rejection. Input objects (`command(from:)`, in DuneHealthImport: the tools' JSON line
/// parser, its fast paths too, and the Apple Health importer) and the typed
/// values an app appends (`SampleInput` and the other commands) are two
/// front ends on these functions; neither has rules of its own.
@usableFromInline package enum InputRules {
    /// The longest text field (ids, names, `eventID`), in UTF-8 bytes.
    @usableFromInline static let maximumTextBytes = 256

    /// Whether a text of `byteCount` UTF-8 bytes has an accepted length (the
    /// check of ``identifier(_:field:)`` and ``eventID(_:)``, for the fast
    /// paths, which measure slices of the line).
    @inlinable @inline(__always)
    package static func acceptsText(byteCount: Int) -> Bool { byteCount > 0 && byteCount <= maximumTextBytes }

    // MARK: - Texts and timestamps

    /// `text` when it is 1–256 bytes (ids, sources, tasks, features, activity types).
    package static func identifier(_ text: String, field: String) throws(Rejection) -> String {
        guard !text.isEmpty else { throw Rejection(.emptyText, field: field, "field \"\(field)\" is empty") }
        guard text.utf8.count <= maximumTextBytes else {
            throw Rejection(.textTooLong, field: field, "field \"\(field)\" is longer than \(maximumTextBytes) bytes")
        }
        return text
    }

    /// The idempotency key when it is absent or 1–256 bytes.
    package static func eventID(_ text: String?) throws(Rejection) -> String? {
        guard let text else { return nil }
        if text.isEmpty || text.utf8.count > maximumTextBytes {
            throw Rejection(text.isEmpty ? .emptyText : .textTooLong, field: "eventID", "field \"eventID\" must be 1–256 bytes")
        }
        return text
    }

    /// `timestamp` when its offset is whole minutes within ±23:59, its
    /// fraction below a second, and its instant inside ``TimestampWindow``.
    /// A parsed timestamp always has such an offset and fraction; a typed
    /// one is built from numbers that may not.
    package static func timestamp(_ timestamp: Timestamp, field: String) throws(Rejection) -> Timestamp {
        if timestamp.offsetSeconds % 60 != 0 || timestamp.offsetSeconds.magnitude >= 24 * 3600 {
            throw Rejection(.invalidTimestamp, field: field,
                            "field \"\(field)\": timestamp \"\(timestamp.text)\" has a UTC offset of \(timestamp.offsetSeconds) s; expected whole minutes within ±23:59")
        }
        if !(0..<1_000_000_000).contains(timestamp.nanoseconds) {
            throw Rejection(.invalidTimestamp, field: field,
                            "field \"\(field)\": timestamp \"\(timestamp.text)\" has \(timestamp.nanoseconds) nanoseconds; expected 0–999999999")
        }
        if let reason = TimestampWindow.rejection(field: field, timestamp) {
            throw Rejection(.timestampOutsideWindow, field: field, reason)
        }
        return timestamp
    }

    // MARK: - Samples

    /// The validated sample the reader's fields describe, converted to the kind's canonical unit.
    package static func sample<Reader: SampleFieldReader>(_ reader: inout Reader) throws(Rejection) -> Sample {
        let kind = try reader.kind()
        let id = try identifier(reader.id(), field: "id")
        let start = try timestamp(reader.start(), field: "start")
        let end = try timestamp(reader.end(), field: "end")
        let source = try identifier(reader.source(), field: "source")
        guard end.seconds(since: start) >= 0 else {
            throw Rejection(.endBeforeStart, field: "end", "end \(end) is before start \(start)")
        }
        let reading: Sample.Reading
        switch kind {
        case .sleep:
            let stage = try reader.sleepStage()
            try duration(of: kind, start: start, end: end)
            reading = .sleep(stage)
        case .workout:
            try duration(of: kind, start: start, end: end)
            reading = .workout(try workout(&reader))
        default:
            try duration(of: kind, start: start, end: end)
            reading = .quantity(try quantity(reader.quantity(), kind: kind))
        }
        let measure = try reader.hrvMeasure()
        if measure != nil, kind != .hrv {
            throw Rejection(.measureNotHRV, field: "measure",
                            "field \"measure\" is given on a \(kind.rawValue) sample; only hrv samples have a measure")
        }
        // No measure on an hrv sample: the source's (docs/input-format.md), filled in by `Sample`.
        return Sample(id: id, kind: kind, start: start, end: end, source: source, reading: reading, hrvMeasure: measure)
    }

    /// The longest accepted `end − start` of a sample of `kind`, in hours.
    @inline(__always)
    static func maximumHours(of kind: SampleKind) -> Double { kind == .workout ? 48 : 24 }

    /// Whether a sample of `kind` may last `seconds` (the check of
    /// ``duration(of:start:end:)``, for the fast paths, which have no message to write).
    @inline(__always)
    package static func acceptsDuration(seconds: Double, of kind: SampleKind) -> Bool {
        seconds >= 0 && seconds / 3600 <= maximumHours(of: kind)
    }

    /// Refuses a sample of `kind` from `start` to `end` that lasts longer than its kind allows.
    static func duration(of kind: SampleKind, start: Timestamp, end: Timestamp) throws(Rejection) {
        let seconds = end.seconds(since: start)
        guard !acceptsDuration(seconds: seconds, of: kind) else { return }
        let limit = maximumHours(of: kind)
        let hours = format(seconds / 3600, beyond: limit)
        switch kind {
        case .sleep:
            throw Rejection(.durationTooLong, field: "end", "sleep sample lasts \(hours) h; a sleep sample is at most 24 h")
        case .workout:
            throw Rejection(.durationTooLong, field: "end", "workout lasts \(hours) h; a workout is at most 48 h")
        default:
            throw Rejection(.durationTooLong, field: "end",
                            "\(kind.rawValue) sample lasts \(hours) h (start \(start), end \(end)); a sample other than sleep or a workout is at most 24 h: check start and end, or send one sample per day")
        }
    }

    /// The quantity of a sample of `kind` given as `measure`: its value
    /// converted to the canonical unit, finite and inside the plausible range.
    package static func quantity(_ measure: InputMeasure, kind: SampleKind) throws(Rejection) -> Quantity {
        let value = measure.value, unit = measure.unit
        try finite(value, field: "value")
        guard let canonical = UnitConversion.canonicalValue(value, unit: unit, kind: kind) else {
            throw Rejection(.unitNotAccepted, field: "unit",
                            "unit \"\(unit)\" is not accepted for \(kind.rawValue); use \(UnitConversion.acceptedUnits(for: kind).joined(separator: " or "))")
        }
        if let range = UnitConversion.plausibleRange(for: kind), !range.contains(canonical) {
            let canonicalUnit = kind.canonicalUnit ?? unit
            throw Rejection(.outOfRange, field: "value",
                            "\(kind.rawValue) \(given(value, unit, converted: canonical, canonicalUnit, range: range)) is outside the plausible range \(format(range)) \(canonicalUnit)")
        }
        return Quantity(value: canonical, inputValue: value, inputUnit: unit)
    }

    /// Plausible workout energy, in kcal.
    static let energyRange: ClosedRange<Double> = 0...50_000
    /// Plausible workout distance, in km (the message's unit; distances are stored in metres).
    static let distanceRangeKm: ClosedRange<Double> = 0...2_000
    /// Plausible strength volume, in kg.
    static let volumeRange: ClosedRange<Double> = 0...500_000

    private static func workout<Reader: SampleFieldReader>(_ reader: inout Reader) throws(Rejection) -> WorkoutSummary {
        var summary = WorkoutSummary(activityType: try identifier(reader.activityType(), field: "activityType"))
        if let energy = try reader.energy() {
            try finite(energy.value, field: "energy")
            guard let kcal = UnitConversion.kilocalories(energy.value, unit: energy.unit) else {
                throw Rejection(.unitNotAccepted, field: "energyUnit",
                                "field \"energyUnit\" \"\(energy.unit)\" is not an energy unit; use kcal, Cal or kJ")
            }
            try notNegative(energy.value, field: "energy")
            guard energyRange.contains(kcal) else {
                throw Rejection(.outOfRange, field: "energy",
                                "workout energy \(given(energy.value, energy.unit, converted: kcal, "kcal", range: energyRange)) is outside the plausible range \(format(energyRange)) kcal")
            }
            summary.energyKcal = kcal
            summary.inputEnergy = .init(value: energy.value, unit: energy.unit)
        }
        if let distance = try reader.distance() {
            try finite(distance.value, field: "distance")
            guard let meters = UnitConversion.meters(distance.value, unit: distance.unit) else {
                throw Rejection(.unitNotAccepted, field: "distanceUnit",
                                "field \"distanceUnit\" \"\(distance.unit)\" is not a distance unit; use m, km or mi")
            }
            try notNegative(distance.value, field: "distance")
            let kilometers = distance.unit == "km" ? distance.value : UnitConversion.shiftingDecimalPoint(of: meters, by: -3)
            guard distanceRangeKm.contains(kilometers) else {
                throw Rejection(.outOfRange, field: "distance",
                                "workout distance \(given(distance.value, distance.unit, converted: kilometers, "km", range: distanceRangeKm)) is outside the plausible range \(format(distanceRangeKm)) km")
            }
            summary.distanceMeters = meters
            summary.inputDistance = .init(value: distance.value, unit: distance.unit)
        }
        if let volume = try reader.volumeKg() {
            try finite(volume, field: "volumeKg")
            try notNegative(volume, field: "volumeKg")
            guard volumeRange.contains(volume) else {
                throw Rejection(.outOfRange, field: "volumeKg",
                                "workout volume \(given(volume, "kg", converted: volume, "kg", range: volumeRange)) is outside the plausible range \(format(volumeRange)) kg")
            }
            summary.volumeKg = volume
        }
        return summary
    }

    private static func finite(_ value: Double, field: String) throws(Rejection) {
        guard value.isFinite else {
            throw Rejection(.notFinite, field: field, "field \"\(field)\" is \(value.isNaN ? "not a number" : "infinite"); expected a finite number")
        }
    }

    private static func notNegative(_ value: Double, field: String) throws(Rejection) {
        guard value >= 0 else { throw Rejection(.outOfRange, field: field, "field \"\(field)\" is negative") }
    }

    // MARK: - Other commands

    /// Refuses a refresh from `source` without the sample `kind` it needs:
    /// an observer's request names the kind it fired for.
    package static func refreshKind(_ kind: SampleKind?, for source: RefreshSource) throws(Rejection) {
        if source == .healthKitObserver, kind == nil {
            throw Rejection(.missingField, field: "kind",
                            "field \"kind\" is required for source healthKitObserver (the sample kind the observer fired for)")
        }
    }

    /// `minutes` when it is a sleep target: more than 0 and at most 1440.
    package static func sleepTarget(minutes: Double) throws(Rejection) -> Double {
        try finite(minutes, field: "sleepTargetMinutes")
        guard minutes > 0, minutes <= 1440 else {
            throw Rejection(.outOfRange, field: "sleepTargetMinutes",
                            "field \"sleepTargetMinutes\" is \(JSONWriter.formatNumber(minutes)); expected more than 0 and at most 1440")
        }
        return minutes
    }

    // MARK: - Numbers in messages

    /// A number as the input gave it: its shortest exact form (`500.0001`,
    /// `1e+308`), never rounded, so a message never shows an outside value as a bound.
    static func given(_ value: Double) -> String { JSONWriter.formatNumber(value) }

    /// `V unit`, and when the conversion changed the number ` (C canonicalUnit)`,
    /// C rounded unless the rounding would put it inside `range`.
    private static func given(_ value: Double, _ unit: String, converted: Double, _ canonicalUnit: String,
                              range: ClosedRange<Double>) -> String {
        let text = "\(given(value)) \(unit)"
        guard converted != value else { return text }
        let rounded = format(converted)
        let shown = Double(rounded).map { range.contains($0) } == true ? given(converted) : rounded
        return text + " (\(shown) \(canonicalUnit))"
    }

    /// `L–U` for a range.
    private static func format(_ range: ClosedRange<Double>) -> String {
        "\(given(range.lowerBound))–\(given(range.upperBound))"
    }

    /// `value` rounded for a message, or `more than LIMIT` when the rounding would show the limit it exceeds.
    private static func format(_ value: Double, beyond limit: Double) -> String {
        let text = format(value)
        return (Double(text) ?? value) <= limit ? "more than \(given(limit))" : text
    }

    /// A computed number for a message: 3 decimals, or Swift's exact form when that would hide it (1e308, 1e-25).
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "infinity" : "-infinity") }
        if abs(value) >= 1e12 || (value != 0 && abs(value) < 0.001) { return value.description }
        return JSONWriter.formatNumber((value * 1000).rounded() / 1000)
    }
}
