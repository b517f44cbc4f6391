import DuneEvents
import DuneFixtures

/// A deterministic, varied log: 150 days of HRV, resting HR, overlapping sleep
/// from three sources, steps from two, body measurements, workouts, corrections,
/// deletions, profile changes, refreshes and task lifecycles.
///
/// Values come from a fixed linear congruential sequence, so every run builds the same log.
enum SyntheticLog {
    static func make(days: Int = 150) throws -> [RecordedEvent] {
        var random = SeededSequence(seed: 0x5EED)
        var log = LogBuilder()
        let first = DayKey(year: 2025, month: 11, day: 1)
        var ids: [String] = []
        var task = 0
        for index in 0..<days {
            let date = first.adding(days: index)
            let offset = index % 3 == 0 ? "Z" : (index % 3 == 1 ? "+01:00" : "-05:00")
            for n in 0..<(1 + random.next(3)) {
                let id = "hrv-\(index)-\(n)"
                try log.quantity(.hrv, id: id, start: time(date, "0\(n + 5):10:00", offset: offset),
                                 value: 35 + Double(random.next(40)) + 0.37, source: n == 0 ? "Apple Watch" : "Oura")
                ids.append(id)
            }
            if random.next(10) < 8 {
                try log.quantity(.restingHeartRate, id: "rhr-\(index)", start: time(date, "06:00:00", offset: offset),
                                 value: 48 + Double(random.next(15)) + 0.5)
            }
            if random.next(10) < 9 {
                let startHour = 21 + random.next(3)
                try log.sleep(id: "sleep-w-\(index)", .asleepCore, from: time(date, plus: -1, "\(startHour):05:00", offset: offset),
                              to: time(date, "0\(4 + random.next(4)):12:00", offset: offset))
                try log.sleep(id: "sleep-p-\(index)", .asleepUnspecified,
                              from: time(date, plus: -1, "23:\(10 + random.next(40)):00", offset: offset),
                              to: time(date, "0\(5 + random.next(3)):40:00", offset: offset), source: "iPhone")
                try log.sleep(id: "sleep-a-\(index)", .inBed, from: time(date, plus: -1, "22:00:00", offset: offset),
                              to: time(date, "08:00:00", offset: offset), source: "AutoSleep")
            }
            for n in 0..<(3 + random.next(6)) {
                let id = "steps-\(index)-\(n)"
                try log.quantity(.stepCount, id: id, start: time(date, "1\(n):00:00", offset: offset),
                                 value: Double(100 + random.next(2500)), source: n % 2 == 0 ? "Apple Watch" : "iPhone")
                ids.append(id)
            }
            if random.next(4) == 0 {
                try log.quantity(.bodyMass, id: "mass-\(index)", start: time(date, "07:30:00", offset: offset),
                                 value: 78 + Double(random.next(30)) / 10)
                try log.quantity(.bodyFatPercentage, id: "fat-\(index)", start: time(date, "07:30:00", offset: offset),
                                 value: 18 + Double(random.next(40)) / 10)
                try log.quantity(.bodyMassIndex, id: "bmi-\(index)", start: time(date, "07:30:00", offset: offset),
                                 value: 24 + Double(random.next(20)) / 10)
            }
            if random.next(3) == 0 {
                let types = ["running", "cycling", "traditionalStrengthTraining", "walking"]
                let type = types[random.next(types.count)]
                try log.workout(id: "workout-\(index)", type, from: time(date, "17:00:00", offset: offset),
                                to: time(date, "17:\(10 + random.next(49)):33", offset: offset),
                                energyKcal: Double(150 + random.next(600)) + 0.25,
                                distanceMeters: type == "traditionalStrengthTraining" ? nil : Double(1000 + random.next(15000)),
                                volumeKg: type == "traditionalStrengthTraining" ? Double(2000 + random.next(8000)) : nil)
            }
            // Corrections and deletions of earlier samples.
            if !ids.isEmpty, random.next(5) == 0 {
                let id = ids[random.next(ids.count)]
                if id.hasPrefix("hrv") {
                    try log.quantity(.hrv, id: id, start: time(date, "09:00:00", offset: offset), value: 42.5)
                } else {
                    try log.quantity(.stepCount, id: id, start: time(date, "20:00:00", offset: offset), value: 777)
                }
            }
            if !ids.isEmpty, random.next(7) == 0 {
                try log.delete(id: ids[random.next(ids.count)])
            }
            if index % 40 == 5 {
                try log.profile(sleepTargetMinutes: Double(420 + random.next(90)))
            }
            // Refreshes and tasks.
            let sources = RefreshSource.allCases
            let outcomes = RefreshOutcome.allCases
            try log.refresh(sources[random.next(sources.count)], kind: .hrv, at: time(date, "08:00:00", offset: offset),
                            outcome: outcomes[random.next(outcomes.count)], signal: index)
            let feature = ["readiness", "trends", "weeklyStats"][random.next(3)]
            task += 1
            try log.task("t\(task)", feature, .started, at: time(date, "08:00:01", offset: offset))
            switch random.next(5) {
            case 0: try log.task("t\(task)", feature, .completed, at: time(date, "08:00:02", offset: offset))
            case 1: try log.task("t\(task)", feature, .failed, error: "timeout", at: time(date, "08:00:02", offset: offset))
            case 2: try log.task("t\(task)", feature, .cancelled, reason: .requested, at: time(date, "08:00:02", offset: offset))
            case 3: try log.task("t\(task - 1)", feature, .completed, at: time(date, "08:00:02", offset: offset))
            default: break
            }
        }
        return log.events
    }
}

/// A fixed pseudo-random sequence (64-bit LCG, Knuth's MMIX constants).
struct SeededSequence {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// The next value in 0..<bound.
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
}
