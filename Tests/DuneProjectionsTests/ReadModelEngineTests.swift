import Testing
import DuneEvents
import DuneProjections
import DuneTools

/// `ReadModelEngine.state()` computes each state from the last one, reusing the
/// days before the earliest changed day. These tests hold it to the state
/// computed from scratch over the same events, value for value and byte for
/// byte, after every step of varied logs.
@Suite struct ReadModelEngineTests {
    /// The state of `events` computed from scratch, by a fold that never computed one.
    static func fromScratch(_ events: ArraySlice<RecordedEvent>) -> StoreState {
        var fold = ReadModelEngine()
        fold.apply(Array(events))
        return fold.state()
    }

    static func expectSame(_ state: StoreState, _ expected: StoreState, after seq: Int,
                           sourceLocation: SourceLocation = #_sourceLocation) {
        let same = state == expected   // (a Bool, so that a failure does not print two whole states)
        #expect(same, "state after seq \(seq)", sourceLocation: sourceLocation)
        #expect(state.readiness.jsonValue == expected.readiness.jsonValue, "readiness after seq \(seq)", sourceLocation: sourceLocation)
        #expect(state.trends.jsonValue == expected.trends.jsonValue, "trends after seq \(seq)", sourceLocation: sourceLocation)
        #expect(state.weeklyStats.jsonValue == expected.weeklyStats.jsonValue, "weekly stats after seq \(seq)", sourceLocation: sourceLocation)
    }

    /// Folded in chunks of 1 to 40 events (corrections and deletions of
    /// earlier days, profile changes, refreshes and tasks among them), each
    /// state equals the one computed from scratch.
    @Test func everyStateEqualsTheStateComputedFromScratch() throws {
        let events = try SyntheticLog.make(days: 70)
        var random = SeededSequence(seed: 21)
        var fold = ReadModelEngine()
        var end = 0
        var steps = 0
        while end < events.count {
            let next = min(events.count, end + 1 + random.next(40))
            fold.apply(Array(events[end..<next]))
            end = next
            Self.expectSame(fold.state(), Self.fromScratch(events[..<end]), after: end)
            steps += 1
        }
        #expect(steps > 50)
    }

    /// The edges of "the days before the change": a sample before the first
    /// day, a workout before the first workout day, deleting the only
    /// workout, the last day, and the first day, a profile change alone,
    /// and events that change no sample.
    @Test func changesAtTheEdgesOfTheModelsEqualTheStateComputedFromScratch() throws {
        var log = LogBuilder()
        let first = try day("2026-03-02")   // a Monday
        for offset in 0..<40 {
            let date = first.adding(days: offset)
            try log.quantity(.hrv, id: "hrv-\(offset)", start: time(date), value: 40 + Double(offset % 7))
            try log.quantity(.restingHeartRate, id: "rhr-\(offset)", start: time(date), value: 50 + Double(offset % 5))
            try log.quantity(.stepCount, id: "steps-\(offset)", start: time(date, "12:00:00"), value: 5000 + Double(offset))
            try log.sleep(id: "sleep-\(offset)", .asleepCore, from: time(date, plus: -1, "23:00:00"), to: time(date, "06:30:00"))
            if offset % 9 == 4 {
                try log.workout(id: "run-\(offset)", "running", from: time(date, "18:00:00"), to: time(date, "18:40:00"),
                                energyKcal: 400, distanceMeters: 8000)
            }
        }
        var fold = ReadModelEngine()
        var folded = 0
        func step(_ change: (inout LogBuilder) throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) rethrows {
            try change(&log)
            fold.apply(Array(log.events[folded...]))
            folded = log.events.count
            Self.expectSame(fold.state(), Self.fromScratch(log.events[...]), after: folded, sourceLocation: sourceLocation)
        }
        step { _ in }
        // A day before the first, in an earlier week.
        try step { try $0.quantity(.hrv, id: "early", start: time(first, plus: -10), value: 45) }
        // A workout before the first workout day, then deleting every workout.
        try step { try $0.workout(id: "ride", "cycling", from: time(first, plus: 1, "09:00:00"), to: time(first, plus: 1, "10:00:00")) }
        try step { log in
            for offset in 0..<40 where offset % 9 == 4 { try log.delete(id: "run-\(offset)") }
            try log.delete(id: "ride")
        }
        // Deleting every sample of the last day, then of the first.
        try step { log in
            for kind in ["hrv", "rhr", "steps", "sleep"] { try log.delete(id: "\(kind)-39") }
        }
        try step { try $0.delete(id: "early") }
        // A correction that moves a sample from the middle to the end, and one back.
        try step { try $0.quantity(.hrv, id: "hrv-20", start: time(first, plus: 45), value: 70) }
        try step { try $0.quantity(.hrv, id: "hrv-20", start: time(first, plus: 20), value: 41) }
        // A profile change alone, refreshes and tasks alone.
        try step { try $0.profile(sleepTargetMinutes: 420) }
        try step { log in
            try log.refresh(.pullToRefresh, at: time(first, plus: 30), outcome: .performed, signal: 1)
            try log.task("t1", "readiness", .started, at: time(first, plus: 30))
        }
        // Appends of today's samples, one at a time.
        for minute in 0..<5 {
            try step { try $0.quantity(.hrv, id: "today-\(minute)", start: time(first, plus: 38, "07:0\(minute):00"), value: 50) }
        }
    }
}
