import DuneProjections

/// Stands in for an `HKObserverQuery` + `HKAnchoredObjectQuery` pair: each
/// call hands over the new samples of one morning, as HealthKit would after
/// the watch syncs. Deterministic, so the example prints the same every run.
struct FakeHealthKitObserver {
    /// The first morning, 2026-02-01 in UTC+01:00.
    let firstMorning = Timestamp(epochSeconds: 1_769_925_600, offsetSeconds: 3600)

    /// The samples of morning `day` (0, 1, 2, …): last night's sleep, the
    /// morning HRV reading and resting heart rate.
    func samples(forMorning day: Int) -> [SampleInput] {
        let morning = firstMorning.adding(seconds: Int64(day) * 86_400)
        let wave = Double((day * 7) % 11)  // a gentle, repeating day-to-day variation
        let asleep = morning.adding(seconds: -8 * 3600 + Int64(day % 5) * 600)
        return [
            SampleInput(id: "sleep-\(day)", start: asleep, end: morning.adding(seconds: -15 * 60),
                        source: "Apple Watch", reading: .sleep(.asleepCore)),
            SampleInput(id: "hrv-\(day)", start: morning, end: morning.adding(seconds: 60),
                        source: "Apple Watch", reading: .hrv(44 + wave, .milliseconds)),
            SampleInput(id: "rhr-\(day)", start: morning, end: morning.adding(seconds: 60),
                        source: "Apple Watch", reading: .restingHeartRate(56 - wave / 2, .countPerMinute)),
        ]
    }
}
