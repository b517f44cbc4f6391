@testable import DuneEvents

/// The reference encoder of stored lines, kept in the tests as the oracle of
/// `EventCodec.appendLine` (`EventCodecTests`): each event's `data` built as
/// a `JSONObject` member by member as docs/log-format.md lists them, then
/// written by `JSONWriter`, which sorts the keys. It shares only the
/// envelope's fixed text and the JSON writer with the product.
enum ReferenceEventEncoder {
    /// The complete, sealed, newline-terminated line for `recorded`.
    static func line(_ recorded: RecordedEvent) -> [UInt8] {
        var line: [UInt8] = Array(#"{"v":\#(recorded.storedVersion),"seq":\#(recorded.seq),"id":"#.utf8)
        JSONWriter.write(.string(recorded.id), into: &line)
        line += Array(#","type":"\#(recorded.type.rawValue)","recordedAt":"#.utf8)
        JSONWriter.write(.string(recorded.recordedAt.text), into: &line)
        line += Array(#","data":"#.utf8)
        JSONWriter.write(.object(data(of: recorded.event, version: recorded.storedVersion)), into: &line)
        StoredLine.seal(&line)
        return line
    }

    /// The `data` member of an event, in the shape of `version` of its type
    /// (`sample.ingested` from v2 on: an hrv sample's `measure`).
    static func data(of event: Event, version: Int) -> JSONObject {
        var data = JSONObject()
        switch event.payload {
        case .sampleIngested(let sample):
            data["id"] = .string(sample.id)
            data["kind"] = .string(sample.kind.rawValue)
            data["start"] = .string(sample.start.text)
            data["end"] = .string(sample.end.text)
            data["source"] = .string(sample.source)
            if version >= 2, sample.kind == .hrv, let measure = sample.hrvMeasure { data["measure"] = .string(measure.rawValue) }
            switch sample.reading {
            case .quantity(let quantity):
                data["value"] = .number(quantity.value)
                let unit = sample.kind.canonicalUnit ?? quantity.inputUnit
                data["unit"] = .string(unit)
                if quantity.inputUnit != unit {
                    data["input"] = measurementObject(quantity.inputValue, quantity.inputUnit)
                }
            case .sleep(let stage):
                data["value"] = .string(stage.rawValue)
            case .workout(let workout):
                data["activityType"] = .string(workout.activityType)
                if let energy = workout.energyKcal { data["energyKcal"] = .number(energy) }
                if let distance = workout.distanceMeters { data["distanceM"] = .number(distance) }
                if let volume = workout.volumeKg { data["volumeKg"] = .number(volume) }
                if let input = workout.inputEnergy, input.unit != "kcal" {
                    data["inputEnergy"] = measurementObject(input.value, input.unit)
                }
                if let input = workout.inputDistance, input.unit != "m" {
                    data["inputDistance"] = measurementObject(input.value, input.unit)
                }
            }
        case .sampleDeleted(let deletion):
            data["id"] = .string(deletion.sampleID)
            data["at"] = .string(deletion.at.text)
        case .refreshRequested(let refresh):
            data["source"] = .string(refresh.source.rawValue)
            if let kind = refresh.kind { data["kind"] = .string(kind.rawValue) }
            data["at"] = .string(refresh.at.text)
            data["outcome"] = .string(refresh.outcome.rawValue)
            if let reason = refresh.reason { data["reason"] = .string(reason.rawValue) }
            data["refreshSignal"] = .number(Double(refresh.refreshSignal))
        case .task(let task):
            data["task"] = .string(task.task)
            data["feature"] = .string(task.feature)
            data["at"] = .string(task.at.text)
            if let error = task.error { data["error"] = .string(error) }
            if let reason = task.reason { data["reason"] = .string(reason.rawValue) }
            if let requested = task.requestedPhase { data["requestedPhase"] = .string(requested.rawValue) }
            if let successor = task.supersededBy { data["supersededBy"] = .string(successor) }
        case .profileUpdated(let profile):
            data["sleepTargetMinutes"] = .number(profile.sleepTargetMinutes)
            data["at"] = .string(profile.at.text)
        case .redacted(let redacted):
            data["id"] = .string(redacted.sampleID)
            data["redacted"] = .bool(true)
            return data  // no eventID, no extra: nothing of the sample's content remains
        case .dataForgotten(let record):
            data["selectors"] = .array(record.selectors.map { .string($0) })
            data["samples"] = .number(Double(record.samples))
            data["events"] = .number(Double(record.events))
        case .syncAnchored(let record):
            data["sampleType"] = .string(record.sampleType.rawValue)
            data["anchor"] = .string(record.anchor)
            data["added"] = .number(Double(record.added))
            data["deleted"] = .number(Double(record.deleted))
            if !record.rejected.isEmpty {
                data["rejected"] = .object(JSONObject(record.rejected.keys.sorted().map { JSONMember($0, .number(Double(record.rejected[$0] ?? 0))) }))
            }
            if let earliest = record.earliestStart { data["earliestStart"] = .string(earliest.text) }
        }
        if let eventID = event.eventID { data["eventID"] = .string(eventID) }
        if !event.extra.isEmpty { data["extra"] = .object(event.extra) }
        return data
    }

    private static func measurementObject(_ value: Double, _ unit: String) -> JSONValue {
        .object(JSONObject([JSONMember("unit", .string(unit)), JSONMember("value", .number(value))]))
    }
}
