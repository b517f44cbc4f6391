import Testing
@testable import DuneEvents

/// `EventCodec.appendLine`, the product's one line encoder, against
/// `ReferenceEventEncoder` (each `data` built as a JSON tree): byte-for-byte
/// equal lines for every event type, on seeded random events whose strings,
/// numbers and timestamps reach the extremes (escapes, control characters,
/// non-ASCII, ±0, 2^53 ± 1, subnormals, the largest doubles, non-canonical
/// timestamp texts, nested `extra`).
@Suite struct EventCodecTests {
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func everyEventTypeIsWrittenAsTheReferenceWritesIt(seed: UInt64) throws {
        var random = RandomEvents(seed: seed)
        var written: Set<String> = []
        for round in 0..<3_000 {
            let recorded = random.recordedEvent()
            written.insert(recorded.type.rawValue + (recorded.event.isRedacted ? " redacted" : ""))
            var bytes: [UInt8] = Array("prefix".utf8)
            EventCodec.appendLine(recorded, to: &bytes)
            let expected = ReferenceEventEncoder.line(recorded)
            #expect(Array(bytes.dropFirst(6)) == expected,
                    "seed \(seed) round \(round): \(String(decoding: expected, as: UTF8.self))")
            // The line decodes back to the event it was written from.
            let decoded = try expected.dropLast().withUnsafeBytes { try EventCodec.decode($0) }
            #expect(EventCodec.encodeLine(decoded) == expected, "seed \(seed) round \(round)")
        }
        let everyType = Set(EventType.allCases.map(\.rawValue)).union(["sample.ingested redacted", "sample.deleted redacted"])
        #expect(written == everyType)
    }
}

/// Seeded random events of every type with extreme values.
struct RandomEvents {
    private var random: SplitMix

    init(seed: UInt64) { random = SplitMix(seed: seed) }

    mutating func recordedEvent() -> RecordedEvent {
        let seq = pick([1, 9, 10, 99_999, Int(Int32.max), (1 << 53) - 1, Int(next() % 1_000_000) + 1])
        return RecordedEvent(seq: seq, id: string(), recordedAt: timestamp(), event: event())
    }

    mutating func event() -> Event {
        let payload: Event.Payload
        switch next() % 9 {
        case 0, 1: payload = .sampleIngested(sample(kind: pick(SampleKind.allCases.filter { $0 != .sleep && $0 != .workout })))
        case 2: payload = .sampleIngested(sample(kind: .sleep))
        case 3: payload = .sampleIngested(sample(kind: .workout))
        case 4: payload = .sampleDeleted(SampleDeletion(sampleID: string(), at: timestamp()))
        case 5:
            payload = .refreshRequested(RefreshRecord(source: pick(RefreshSource.allCases), kind: (coin() ? pick(SampleKind.allCases) : nil),
                                                      at: timestamp(), outcome: pick(RefreshOutcome.allCases),
                                                      reason: (coin() ? pick(ThrottleReason.allCases) : nil),
                                                      refreshSignal: pick([0, 1, 12, Int(Int32.max), (1 << 53) - 1])))
        case 6:
            payload = .task(TaskRecord(task: string(), feature: string(), phase: pick(TaskPhase.allCases),
                                       requestedPhase: (coin() ? pick(TaskPhase.allCases) : nil), at: timestamp(), error: (coin() ? string() : nil),
                                       reason: (coin() ? pick(CancellationReason.allCases) : nil), supersededBy: (coin() ? string() : nil)))
        case 7 where next() % 4 == 0:
            payload = .syncAnchored(SyncAnchorRecord(
                sampleType: pick(SampleKind.allCases), anchor: string(), added: pick([0, 1, 1000, Int(next() % 10_000)]),
                deleted: pick([0, 2, Int(next() % 10_000)]),
                rejected: coin() ? [:] : [string(): Int(next() % 100), "outOfRange": 1],
                earliestStart: coin() ? timestamp() : nil))
        case 7:
            payload = next() % 3 == 0
                ? .profileUpdated(ProfileUpdate(sleepTargetMinutes: number(), at: timestamp()))
                : .dataForgotten(ForgetRecord(selectors: (0..<Int(next() % 4)).map { _ in string() },
                                              samples: pick([0, 1, 1 << 40, Int(next() % 10_000)]),
                                              events: pick([0, 3, Int(Int32.max), Int(next() % 10_000)])))
        default:
            // A redacted event keeps no eventID and no extra.
            return Event(.redacted(RedactedEvent(sampleID: string(), type: pick([.sampleIngested, .sampleDeleted]))))
        }
        return Event(payload, eventID: (coin() ? string() : nil), extra: next() % 4 == 0 ? object(depth: 0) : JSONObject())
    }

    private mutating func sample(kind: SampleKind) -> Sample {
        let reading: Sample.Reading
        switch kind {
        case .sleep: reading = .sleep(pick(SleepStage.allCases))
        case .workout:
            reading = .workout(WorkoutSummary(
                activityType: string(), energyKcal: (coin() ? number() : nil), distanceMeters: (coin() ? number() : nil), volumeKg: (coin() ? number() : nil),
                inputEnergy: (coin() ? .init(value: number(), unit: pick(["kcal", "kJ", "Cal", string()])) : nil),
                inputDistance: (coin() ? .init(value: number(), unit: pick(["m", "km", "mi", string()])) : nil)))
        default:
            let canonical = kind.canonicalUnit ?? "count"
            reading = .quantity(Quantity(value: number(), inputValue: number(), inputUnit: pick([canonical, canonical, "g", "%", string()])))
        }
        return Sample(id: string(), kind: kind, start: timestamp(), end: timestamp(), source: string(), reading: reading)
    }

    private mutating func string() -> String {
        switch next() % 8 {
        case 0: return ""
        case 1: return "q\"uote\\back/slash"
        case 2: return String(decoding: (0..<Int(next() % 6) + 1).map { _ in UInt8(next() % 0x20) }, as: UTF8.self) + "\u{7f}"
        case 3: return pick(["Jürgen", "Åsa’s Watch", "心拍", "👟 run", "\u{2028}\u{FEFF}", "K\u{212A}"])
        case 4: return String(repeating: pick(["a", "é", "\\"]), count: Int(next() % 2_000))
        case 5: return "01a20a72-da90-7a09-a39d-ba05882bf5ac"
        default: return "s-\(next() % 100_000)"
        }
    }

    private mutating func number() -> Double {
        switch next() % 6 {
        case 0:
            return pick([0, -0.0, 1e-7, 0.1, 1.0 / 3, -2.5, 1e308, -1e308, 9_007_199_254_740_991, 9_007_199_254_740_992,
                         -9_007_199_254_740_992, 9_007_199_254_740_994, 1e21, 123_456_789.125,
                         .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude])
        case 1:
            let bits = Double(bitPattern: next())
            return bits.isFinite ? bits : 42
        case 2: return Double(Int64(bitPattern: next()) >> Int(next() % 64))
        default: return Double(next() % 100_000) / pick([1, 10, 1000, 3])
        }
    }

    private mutating func timestamp() -> Timestamp {
        if next() % 4 == 0, let parsed = try? Timestamp(parsing: pick([
            "2026-03-01T07:00:00+00:00", "2026-03-01T07:00:00.5Z", "2026-03-01T07:00:00.123456789-09:30",
            "1970-01-01T00:00:00Z", "2199-12-31T23:59:59.999+14:00", "2026-03-01t07:00:00z",
        ])) {
            return parsed
        }
        return Timestamp(epochSeconds: Int64(next() % 7_000_000_000) - 1_000_000_000,
                         nanoseconds: pick([0, 0, 500_000_000, 1, Int32(next() % 1_000_000_000)]),
                         offsetSeconds: pick([0, 0, 3600, -34_200, 50_400, -43_200]))
    }

    private mutating func object(depth: Int) -> JSONObject {
        var object = JSONObject()
        for _ in 0..<Int(next() % 4) + 1 {
            object[pick(["a", "z", "note", "é", "eventID", "id", string()])] = value(depth: depth)
        }
        return object
    }

    private mutating func value(depth: Int) -> JSONValue {
        switch next() % (depth < 2 ? 6 : 4) {
        case 0: return .null
        case 1: return .bool(next() % 2 == 0)
        case 2: return .number(number())
        case 3: return .string(string())
        case 4: return .array((0..<Int(next() % 3)).map { _ in value(depth: depth + 1) })
        default: return .object(object(depth: depth + 1))
        }
    }

    private mutating func coin() -> Bool { next() % 2 == 0 }

    private mutating func pick<T>(_ choices: [T]) -> T { choices[Int(next() % UInt64(choices.count))] }

    private mutating func next() -> UInt64 { random.next() }
}
