import DuneEvents

/// Human-readable one-line descriptions of events for `history`, `show` and `tail`.
enum EventFormatting {
    /// `kind value unit  source` and similar, per event type; every character
    /// of the data a terminal would act on is escaped (``TerminalText``).
    static func detail(_ event: RecordedEvent) -> String {
        rawDetail(event).terminalSafe
    }

    private static func rawDetail(_ event: RecordedEvent) -> String {
        switch event.payload {
        case .sampleIngested(let sample):
            var text = "\(sample.kind.rawValue) "
            switch sample.reading {
            case .quantity(let quantity):
                text += "\(number(quantity.value)) \(sample.kind.canonicalUnit ?? quantity.inputUnit)"
                if quantity.inputUnit != sample.kind.canonicalUnit {
                    text += " (\(number(quantity.inputValue)) \(quantity.inputUnit))"
                }
            case .sleep(let stage):
                text += "\(stage.rawValue) \(number(sample.durationSeconds / 60)) min until \(sample.end.text) (counts for \(sample.day))"
            case .workout(let workout):
                text += "\(workout.activityType) \(number(sample.durationSeconds / 60)) min"
                if let energy = workout.energyKcal { text += ", \(number(energy)) kcal" }
                if let distance = workout.distanceMeters { text += ", \(number(distance / 1000)) km" }
                if let volume = workout.volumeKg { text += ", \(number(volume)) kg volume" }
            }
            return text + "  [\(sample.source)] id=\(sample.id)"
        case .sampleDeleted(let deletion):
            return "delete sample id=\(deletion.sampleID)"
        case .refreshRequested(let refresh):
            var text = refresh.source.rawValue
            if let kind = refresh.kind { text += " (\(kind.rawValue))" }
            switch refresh.outcome {
            case .performed: text += " → performed, refresh signal \(refresh.refreshSignal)"
            case .throttled: text += " → THROTTLED (\(refresh.reason?.rawValue ?? "throttle"))"
            case .cacheInvalidated: text += " → cache invalidated"
            }
            return text
        case .task(let task):
            var text = "\(task.feature) task \(task.task) \(task.phase.rawValue)"
            if let reason = task.reason {
                text += reason == .superseded ? " (superseded by \(task.supersededBy ?? "?"))" : " (\(reason.rawValue))"
            }
            if let error = task.error { text += ": \(error)" }
            return text
        case .profileUpdated(let profile):
            return "sleep target \(number(profile.sleepTargetMinutes)) min"
        case .redacted(let redacted):
            return "REDACTED (forgotten) sample id=\(redacted.sampleID)"
        case .syncAnchored(let record):
            var text = "sync \(record.sampleType.rawValue) page: \(Wording.count(record.added, "sample")) added, \(record.deleted) deleted"
            let rejected = record.rejected.values.reduce(0, +)
            if rejected > 0 {
                let reasons = record.rejected.keys.sorted().map { "\($0) \(record.rejected[$0] ?? 0)" }.joined(separator: ", ")
                text += ", \(rejected) not appended (\(reasons))"
            }
            return text + "; anchor \(record.anchor)"
        case .dataForgotten(let record):
            return "forget: \(Wording.count(record.samples, "sample")), \(Wording.count(record.events, "event")) redacted (selectors: \(record.selectors.joined(separator: ", ")))"
        }
    }

    /// When the event happened; `-` for a redacted line or a forget record, which have no date of their own.
    static func when(_ event: RecordedEvent) -> String {
        hasOwnDate(event) ? event.occurredAt.text : "-"
    }

    static func hasOwnDate(_ event: RecordedEvent) -> Bool {
        !event.isRedacted && event.type != .dataForgotten && event.type != .syncAnchored
    }

    /// A table row: seq, type, when, detail. With a marker: `!` after the seq (inside
    /// the SEQ column up to seq 9999), the marker's note after the detail, and the
    /// whole row in the marker's colour when `color` is on.
    static func row(_ event: RecordedEvent, marker: EventMarker? = nil, color: Bool = false) -> String {
        let seq = String(event.seq)
        let seqColumn = marker == nil ? seq.padding(7) : seq.count <= 4 ? seq.padding(5) + "! " : seq + " ! "
        let text = seqColumn + event.type.rawValue.padding(18) + when(event).padding(26) + detail(event) + (marker?.note ?? "")
        guard let marker, color else { return text }
        return marker.colored(text)
    }

    static let header = "SEQ".padding(7) + "TYPE".padding(18) + "WHEN".padding(26) + "DETAIL"

    /// A number with at most 3 decimals.
    static func number(_ value: Double) -> String {
        JSONWriter.formatNumber((value * 1000).rounded() / 1000)
    }
}
