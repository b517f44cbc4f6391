import Testing
import DuneEvents
import DuneProjections

/// Builds a log in memory: each call appends one `RecordedEvent` with the next `seq`.
///
/// Times are RFC 3339 text, as in the input format. `recordedAt` is one fixed
/// instant for every event: projections must never read it.
struct LogBuilder {
    private(set) var events: [RecordedEvent] = []

    static let recordedAt = Timestamp(epochSeconds: 1_800_000_000, offsetSeconds: 0)

    /// The seq the next event gets.
    var nextSeq: Int { events.count + 1 }

    @discardableResult
    mutating func append(_ payload: Event.Payload) -> Int {
        let seq = nextSeq
        events.append(RecordedEvent(seq: seq, id: "event-\(seq)", recordedAt: Self.recordedAt, event: Event(payload)))
        return seq
    }

    // MARK: - Samples

    @discardableResult
    mutating func quantity(_ kind: SampleKind, id: String, start: String, end: String? = nil, value: Double,
                           source: String = "Apple Watch") throws -> Int {
        let startTime = try Timestamp(parsing: start)
        let endTime = try end.map { try Timestamp(parsing: $0) } ?? startTime
        let quantity = Quantity(value: value, inputValue: value, inputUnit: kind.canonicalUnit ?? "")
        return append(.sampleIngested(Sample(id: id, kind: kind, start: startTime, end: endTime, source: source,
                                             reading: .quantity(quantity))))
    }

    @discardableResult
    mutating func sleep(id: String, _ stage: SleepStage, from start: String, to end: String,
                        source: String = "Apple Watch") throws -> Int {
        append(.sampleIngested(Sample(id: id, kind: .sleep, start: try Timestamp(parsing: start),
                                      end: try Timestamp(parsing: end), source: source, reading: .sleep(stage))))
    }

    @discardableResult
    mutating func workout(id: String, _ activityType: String, from start: String, to end: String,
                          energyKcal: Double? = nil, distanceMeters: Double? = nil, volumeKg: Double? = nil,
                          source: String = "Apple Watch") throws -> Int {
        let summary = WorkoutSummary(activityType: activityType, energyKcal: energyKcal, distanceMeters: distanceMeters,
                                     volumeKg: volumeKg)
        return append(.sampleIngested(Sample(id: id, kind: .workout, start: try Timestamp(parsing: start),
                                             end: try Timestamp(parsing: end), source: source, reading: .workout(summary))))
    }

    @discardableResult
    mutating func delete(id: String, at: String = "2026-01-01T00:00:00Z") throws -> Int {
        append(.sampleDeleted(SampleDeletion(sampleID: id, at: try Timestamp(parsing: at))))
    }

    // MARK: - Other events

    @discardableResult
    mutating func profile(sleepTargetMinutes: Double, at: String = "2026-01-01T00:00:00Z") throws -> Int {
        append(.profileUpdated(ProfileUpdate(sleepTargetMinutes: sleepTargetMinutes, at: try Timestamp(parsing: at))))
    }

    @discardableResult
    mutating func refresh(_ source: RefreshSource, kind: SampleKind? = nil, at: String, outcome: RefreshOutcome,
                          reason: ThrottleReason? = nil, signal: Int) throws -> Int {
        append(.refreshRequested(RefreshRecord(source: source, kind: kind, at: try Timestamp(parsing: at),
                                               outcome: outcome, reason: reason, refreshSignal: signal)))
    }

    @discardableResult
    mutating func task(_ task: String, _ feature: String, _ phase: TaskPhase, requestedPhase: TaskPhase? = nil,
                       error: String? = nil, reason: CancellationReason? = nil, supersededBy: String? = nil,
                       at: String = "2026-03-02T08:00:00Z") throws -> Int {
        append(.task(TaskRecord(task: task, feature: feature, phase: phase, requestedPhase: requestedPhase,
                                at: try Timestamp(parsing: at), error: error, reason: reason, supersededBy: supersededBy)))
    }
}

// MARK: - Dates

/// `YYYY-MM-DD` parsed, for test literals.
func day(_ text: String) throws -> DayKey {
    try #require(DayKey(text))
}

/// `"<date>T<time><offset>"` for `date` shifted by `days`.
func time(_ date: DayKey, plus days: Int = 0, _ clock: String = "07:00:00", offset: String = "+01:00") -> String {
    "\(date.adding(days: days))T\(clock)\(offset)"
}

/// The canonical JSON text of `value`.
func json(_ value: JSONValue) -> String {
    JSONWriter.string(value)
}

/// The file bytes as text.
func text(_ bytes: [UInt8]) -> String {
    String(decoding: bytes, as: UTF8.self)
}
