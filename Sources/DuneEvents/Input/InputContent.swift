/// The one builder of an input line's canonical content
/// (``IngestCommand/content``): what idempotency compares.
///
/// The content is the line's JSON object without `eventID`, keys in UTF-8
/// order, an hrv sample's `measure` always present (given, or by the source
/// rule, so naming the measure the rule gives is the same content as not
/// naming it), timestamps in their canonical spelling (`Z` = `+00:00`, `.5` =
/// `.500`), numbers in ``JSONWriter``'s form, strings as written — built from
/// the validated values, with the line's unknown members kept as parsed. The
/// general parser and the fast one write it for the line they read, and a
/// stored event gives it back (``Event/inputContent``) so that re-ingesting
/// a line is recognised after the process rebuilds its state from the log;
/// `ContentIdentityTests` checks all of them against the parsed object.
package enum InputContent {
    /// Writes the content of the line that asks for `intent`.
    ///
    /// - Parameter unknown: the line's members the parser did not read (``IngestCommand/extra``).
    package static func write(_ intent: IngestCommand.Intent, unknown: JSONObject, into output: inout [UInt8]) {
        var object = CanonicalObjectWriter(merging: unknown)
        switch intent {
        case .sample(let sample):
            let start = CanonicalTimestampText(timestamp: sample.start), end = CanonicalTimestampText(timestamp: sample.end)
            switch sample.reading {
            case .quantity(let quantity):
                SampleObjectWriter.write(.inputContent(unknown: unknown), end: end, id: sample.id, kind: sample.kind.rawValue,
                                         measure: sample.hrvMeasure, source: sample.source, start: start,
                                         reading: .quantity(unit: quantity.inputUnit, value: quantity.inputValue), into: &output)
                return
            case .sleep(let stage):
                SampleObjectWriter.write(.inputContent(unknown: unknown), end: end, id: sample.id, kind: sample.kind.rawValue,
                                         measure: nil, source: sample.source, start: start, reading: .sleep(stage: stage.rawValue),
                                         into: &output)
                return
            case .workout(let workout):
                object.string(#""activityType":"#, workout.activityType, into: &output)
                object.number(#""distance":"#, ifPresent: workout.inputDistance?.value, into: &output)
                object.string(#""distanceUnit":"#, ifPresent: workout.inputDistance?.unit, into: &output)
                object.string(#""end":"#, end, into: &output)
                object.number(#""energy":"#, ifPresent: workout.inputEnergy?.value, into: &output)
                object.string(#""energyUnit":"#, ifPresent: workout.inputEnergy?.unit, into: &output)
                object.string(#""id":"#, sample.id, into: &output)
                object.string(#""kind":"#, sample.kind.rawValue, into: &output)
                object.string(#""source":"#, sample.source, into: &output)
                object.string(#""start":"#, start, into: &output)
                object.string(#""type":"#, "sample", into: &output)
                object.number(#""volumeKg":"#, ifPresent: workout.volumeKg, into: &output)
            }
        case .deleteSample(let deletion):
            object.string(#""at":"#, CanonicalTimestampText(timestamp: deletion.at), into: &output)
            object.string(#""id":"#, deletion.sampleID, into: &output)
            object.string(#""type":"#, "sampleDeleted", into: &output)
        case .refresh(let refresh):
            object.string(#""at":"#, CanonicalTimestampText(timestamp: refresh.at), into: &output)
            object.string(#""kind":"#, ifPresent: refresh.kind?.rawValue, into: &output)
            object.string(#""source":"#, refresh.source.rawValue, into: &output)
            object.string(#""type":"#, "refresh", into: &output)
        case .task(let task):
            object.string(#""at":"#, CanonicalTimestampText(timestamp: task.at), into: &output)
            object.string(#""error":"#, ifPresent: task.error, into: &output)
            object.string(#""feature":"#, task.feature, into: &output)
            object.string(#""phase":"#, task.phase.rawValue, into: &output)
            object.string(#""task":"#, task.task, into: &output)
            object.string(#""type":"#, "task", into: &output)
        case .profile(let profile):
            object.string(#""at":"#, CanonicalTimestampText(timestamp: profile.at), into: &output)
            object.number(#""sleepTargetMinutes":"#, profile.sleepTargetMinutes, into: &output)
            object.string(#""type":"#, "profile", into: &output)
        case .syncAnchor(let record):
            // No input line asks for it; the content only keeps commands distinct.
            object.string(#""anchor":"#, record.anchor, into: &output)
            object.string(#""sampleType":"#, record.sampleType.rawValue, into: &output)
            object.string(#""type":"#, "syncAnchored", into: &output)
        }
        object.close(into: &output)
    }
}

extension Event {
    /// The command of the input line this event was ingested from; `nil` for
    /// events no line asks for (a superseding cancellation, a redaction, the
    /// forget record).
    var inputIntent: IngestCommand.Intent? {
        switch payload {
        case .sampleIngested(let sample): .sample(sample)
        case .sampleDeleted(let deletion): .deleteSample(deletion)
        case .refreshRequested(let refresh): .refresh(RefreshRequest(source: refresh.source, kind: refresh.kind, at: refresh.at))
        case .task(let task) where task.reason != .superseded:
            .task(TaskCommand(task: task.task, feature: task.feature, phase: task.requestedPhase ?? task.phase, at: task.at,
                              error: task.error))
        case .profileUpdated(let profile): .profile(profile)
        case .task, .redacted, .dataForgotten, .syncAnchored: nil
        }
    }

    /// The content of the input line this event was ingested from
    /// (``IngestCommand/content``), built from the stored values and `extra`;
    /// `nil` when ``inputIntent`` is.
    package var inputContent: [UInt8]? {
        var bytes: [UInt8] = []
        return writeInputContent(into: &bytes) ? bytes : nil
    }

    /// Writes ``inputContent`` into `output` (emptied first, its capacity
    /// kept: a replay digests many events through one buffer); `false`,
    /// leaving `output` empty, for an event without one.
    func writeInputContent(into output: inout [UInt8]) -> Bool {
        output.removeAll(keepingCapacity: true)
        guard let intent = inputIntent else { return false }
        InputContent.write(intent, unknown: extra, into: &output)
        return true
    }
}
