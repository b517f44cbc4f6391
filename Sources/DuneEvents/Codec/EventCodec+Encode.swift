extension EventCodec {
    // MARK: - Encoding

    /// Appends the sealed, newline-terminated line for `recorded` to `output`:
    /// `{"v":V,"seq":N,"id":"…","type":"…","recordedAt":"…","data":{…},"crc":"xxxxxxxx"}`.
    ///
    /// The one line encoder: every event of every type is written member by
    /// member in canonical order (``CanonicalObjectWriter``), quantity and
    /// sleep samples through ``SampleObjectWriter``, with no JSON tree.
    /// `EventCodecTests` checks it byte for byte against a reference encoder
    /// in the tests that builds each `data` object as a tree.
    package static func appendLine(_ recorded: RecordedEvent, to output: inout [UInt8]) {
        let start = output.count
        appendEnvelope(version: recorded.storedVersion, seq: recorded.seq, id: recorded.id, type: recorded.type,
                       recordedAt: recorded.recordedAt.text, to: &output)
        appendData(of: recorded.event, version: recorded.storedVersion, to: &output)
        StoredLine.seal(&output, from: start)
    }

    /// ``appendLine(_:to:)`` into a new array.
    package static func encodeLine(_ recorded: RecordedEvent) -> [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(384)
        appendLine(recorded, to: &line)
        return line
    }

    /// Appends the line of a `sample.ingested` event whose `data` object is
    /// already written (a ``PreparedSample``): the bytes ``appendLine(_:to:)``
    /// writes for that event.
    ///
    /// - Parameter recordedAt: the UTF-8 of `recordedAt.text` (an RFC 3339 text needs no escapes).
    static func appendSampleLine(seq: Int, id: PackedUUID, recordedAt: [UInt8], data: ByteView,
                                 to output: inout [UInt8]) {
        let start = output.count
        ByteView.with(recordedAt) { recordedAt in
            appendEnvelope(version: EventVersions.current(.sampleIngested), seq: seq, id: id, type: .sampleIngested,
                           recordedAt: UnescapedJSONText(bytes: recordedAt), to: &output)
        }
        data.append(to: &output)
        StoredLine.seal(&output, from: start)
    }

    /// The envelope of a line, up to and including `"data":`:
    /// `{"v":V,"seq":N,"id":"…","type":"…","recordedAt":"…","data":`, `V` the
    /// line's version (the type's current one for a new event).
    @inline(__always)
    private static func appendEnvelope(version: Int, seq: Int, id: some JSONStringText, type: EventType,
                                       recordedAt: some JSONStringText, to output: inout [UInt8]) {
        output.appendLiteral(#"{"v":"#)
        JSONWriter.writeInteger(version, into: &output)
        output.appendLiteral(#","seq":"#)
        JSONWriter.writeInteger(seq, into: &output)
        output.appendLiteral(#","id":"#)
        id.writeQuoted(into: &output)
        output.appendLiteral(#","type":""#)
        output.append(contentsOf: type.rawValue.utf8)
        output.appendLiteral(#"","recordedAt":"#)
        recordedAt.writeQuoted(into: &output)
        output.appendLiteral(#","data":"#)
    }

    /// Appends the `data` object of `event`'s line: its members in canonical
    /// order, then `eventID` and `extra` in their places.
    ///
    /// - Parameter version: the shape to write (``RecordedEvent/storedVersion``):
    ///   `nil` is the type's current one; `sample.ingested` v1 has no `measure`.
    ///   Writing an upcast event back in its stored version gives the stored
    ///   bytes (the upcasting steps only add members derived from others).
    package static func appendData(of event: Event, version: Int? = nil, to output: inout [UInt8]) {
        var object = CanonicalObjectWriter()
        switch event.payload {
        case .sampleIngested(let sample):
            let reading: SampleObjectWriter.Reading<String>
            switch sample.reading {
            case .quantity(let quantity):
                let unit = sample.kind.canonicalUnit ?? quantity.inputUnit
                reading = .quantity(unit: unit, value: quantity.value)
                SampleObjectWriter.write(.storedData(eventID: event.eventID, extra: event.extra,
                                                     input: quantity.inputUnit != unit ? quantity : nil),
                                         end: sample.end.text, id: sample.id, kind: sample.kind.rawValue,
                                         measure: (version ?? EventVersions.current(.sampleIngested)) >= 2 ? sample.hrvMeasure : nil,
                                         source: sample.source, start: sample.start.text, reading: reading, into: &output)
                return
            case .sleep(let stage):
                SampleObjectWriter.write(.storedData(eventID: event.eventID, extra: event.extra, input: nil),
                                         end: sample.end.text, id: sample.id, kind: sample.kind.rawValue, measure: nil,
                                         source: sample.source, start: sample.start.text, reading: .sleep(stage: stage.rawValue),
                                         into: &output)
                return
            case .workout(let workout):
                object.string(#""activityType":"#, workout.activityType, into: &output)
                object.number(#""distanceM":"#, ifPresent: workout.distanceMeters, into: &output)
                object.string(#""end":"#, sample.end.text, into: &output)
                object.number(#""energyKcal":"#, ifPresent: workout.energyKcal, into: &output)
                writeEventIDAndExtra(of: event, into: &object, &output)
                object.string(#""id":"#, sample.id, into: &output)
                if let input = workout.inputDistance, input.unit != "m" {
                    object.measurement(#""inputDistance":"#, value: input.value, unit: input.unit, into: &output)
                }
                if let input = workout.inputEnergy, input.unit != "kcal" {
                    object.measurement(#""inputEnergy":"#, value: input.value, unit: input.unit, into: &output)
                }
                object.string(#""kind":"#, sample.kind.rawValue, into: &output)
                object.string(#""source":"#, sample.source, into: &output)
                object.string(#""start":"#, sample.start.text, into: &output)
                object.number(#""volumeKg":"#, ifPresent: workout.volumeKg, into: &output)
            }
        case .sampleDeleted(let deletion):
            object.string(#""at":"#, deletion.at.text, into: &output)
            writeEventIDAndExtra(of: event, into: &object, &output)
            object.string(#""id":"#, deletion.sampleID, into: &output)
        case .refreshRequested(let refresh):
            object.string(#""at":"#, refresh.at.text, into: &output)
            writeEventIDAndExtra(of: event, into: &object, &output)
            object.string(#""kind":"#, ifPresent: refresh.kind?.rawValue, into: &output)
            object.string(#""outcome":"#, refresh.outcome.rawValue, into: &output)
            object.string(#""reason":"#, ifPresent: refresh.reason?.rawValue, into: &output)
            object.number(#""refreshSignal":"#, Double(refresh.refreshSignal), into: &output)
            object.string(#""source":"#, refresh.source.rawValue, into: &output)
        case .task(let task):
            object.string(#""at":"#, task.at.text, into: &output)
            object.string(#""error":"#, ifPresent: task.error, into: &output)
            writeEventIDAndExtra(of: event, into: &object, &output)
            object.string(#""feature":"#, task.feature, into: &output)
            object.string(#""reason":"#, ifPresent: task.reason?.rawValue, into: &output)
            object.string(#""requestedPhase":"#, ifPresent: task.requestedPhase?.rawValue, into: &output)
            object.string(#""supersededBy":"#, ifPresent: task.supersededBy, into: &output)
            object.string(#""task":"#, task.task, into: &output)
        case .profileUpdated(let profile):
            object.string(#""at":"#, profile.at.text, into: &output)
            writeEventIDAndExtra(of: event, into: &object, &output)
            object.number(#""sleepTargetMinutes":"#, profile.sleepTargetMinutes, into: &output)
        case .redacted(let redacted):
            // No eventID, no extra: nothing of the sample's content remains.
            object.string(#""id":"#, redacted.sampleID, into: &output)
            object.key(#""redacted":"#, into: &output)
            output.appendLiteral("true")
        case .dataForgotten(let record):
            object.string(#""eventID":"#, ifPresent: event.eventID, into: &output)
            object.number(#""events":"#, Double(record.events), into: &output)
            if !event.extra.isEmpty { object.value(#""extra":"#, .object(event.extra), into: &output) }
            object.number(#""samples":"#, Double(record.samples), into: &output)
            object.value(#""selectors":"#, .array(record.selectors.map { .string($0) }), into: &output)
        case .syncAnchored(let record):
            object.number(#""added":"#, Double(record.added), into: &output)
            object.string(#""anchor":"#, record.anchor, into: &output)
            object.number(#""deleted":"#, Double(record.deleted), into: &output)
            object.string(#""earliestStart":"#, ifPresent: record.earliestStart?.text, into: &output)
            writeEventIDAndExtra(of: event, into: &object, &output)
            if !record.rejected.isEmpty {
                var counts = JSONObject()
                for code in record.rejected.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                    counts[code] = .number(Double(record.rejected[code] ?? 0))
                }
                object.value(#""rejected":"#, .object(counts), into: &output)
            }
            object.string(#""sampleType":"#, record.sampleType.rawValue, into: &output)
        }
        object.close(into: &output)
    }

    /// The `eventID` and `extra` members, when present (they sort together
    /// between the members of every type but the forget record).
    @inline(__always)
    private static func writeEventIDAndExtra(of event: Event, into object: inout CanonicalObjectWriter, _ output: inout [UInt8]) {
        object.string(#""eventID":"#, ifPresent: event.eventID, into: &output)
        if !event.extra.isEmpty { object.value(#""extra":"#, .object(event.extra), into: &output) }
    }
}

extension Array where Element == UInt8 {
    /// Appends the bytes of a string literal with one copy (`String.UTF8View`
    /// would be appended byte by byte).
    @inline(__always)
    mutating func appendLiteral(_ literal: StaticString) {
        ByteView(literal).append(to: &self)
    }
}
