import DuneHealthKit
import DuneProjections

/// Sixty days of samples as a watch and a phone write them: HRV and resting
/// heart rate each morning, a night of sleep stages, steps, a run every third day.
struct DemoHistory {
    static let kinds: [SampleKind] = [.hrv, .restingHeartRate, .sleep, .stepCount, .workout]

    let samples: [SampleInput]
    let lastDay: DayKey

    init(days: Int) throws {
        let first = DayKey(year: 2026, month: 1, day: 1)
        var samples: [SampleInput] = []
        for index in 0..<days {
            let day = first.adding(days: index)
            func at(_ hour: Int, _ minute: Int = 0) throws -> Timestamp {
                try Timestamp(parsing: "\(day)T\(hour < 10 ? "0" : "")\(hour):\(minute < 10 ? "0" : "")\(minute):00+01:00")
            }
            let wave = Double(index % 7)
            samples.append(SampleInput(id: "hrv-\(index)", start: try at(7), end: try at(7), source: "Apple Watch",
                                       reading: .hrv(52 + wave * 1.5, .milliseconds)))
            samples.append(SampleInput(id: "rhr-\(index)", start: try at(7, 5), end: try at(7, 5), source: "Apple Watch",
                                       reading: .restingHeartRate(58 - wave * 0.5, .countPerMinute)))
            samples.append(SampleInput(id: "night-\(index)-core", start: try at(0, 30), end: try at(4), source: "Apple Watch",
                                       reading: .sleep(.asleepCore)))
            samples.append(SampleInput(id: "night-\(index)-deep", start: try at(4), end: try at(5, 30), source: "Apple Watch",
                                       reading: .sleep(.asleepDeep)))
            samples.append(SampleInput(id: "night-\(index)-rem", start: try at(5, 30), end: try at(6, 45), source: "Apple Watch",
                                       reading: .sleep(.asleepREM)))
            samples.append(SampleInput(id: "steps-\(index)", start: try at(9), end: try at(18), source: "iPhone",
                                       reading: .stepCount(6000 + wave * 800, .count)))
            if index % 3 == 0 {
                samples.append(SampleInput(id: "run-\(index)", start: try at(18, 30), end: try at(19, 15), source: "Apple Watch",
                                           reading: .workout(WorkoutInput(activityType: "running", energy: 480, distance: 8200))))
            }
        }
        self.samples = samples
        lastDay = first.adding(days: days - 1)
    }

    /// A new HRV reading, the evening of the last day.
    func extraHRV() throws -> SampleInput {
        let at = try Timestamp(parsing: "\(lastDay)T21:00:00+01:00")
        return SampleInput(id: "hrv-evening", start: at, end: at, source: "Apple Watch", reading: .hrv(61, .milliseconds))
    }
}
