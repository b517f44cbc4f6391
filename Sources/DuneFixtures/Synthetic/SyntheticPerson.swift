import DuneEvents

/// The synthetic person's physiology, carried from day to day.
///
/// Training load (workout minutes × intensity) feeds a 42-day fitness and a
/// 7-day fatigue average, like the trends projection's CTL/ATL. The night's
/// HRV (ln ms) rises with form (fitness − fatigue) and fitness, and falls after
/// a hard day, a short night, a late night out, illness and jet lag; resting HR
/// mirrors HRV. So readiness moves with training blocks, deload weeks and life.
struct SyntheticPerson {
    /// ln(ms) of the person's typical night HRV (SDNN).
    let baseLnHRV: Double
    /// The person's typical resting heart rate (beats/min).
    let baseRestingHeartRate: Double
    /// Body height in metres (for BMI).
    let heightMeters: Double

    /// 42-day average of daily load (minutes × intensity).
    private(set) var fitness: Double = 38
    /// 7-day average of daily load.
    private(set) var fatigue: Double = 38
    /// Yesterday's load.
    private(set) var lastLoad: Double = 0
    /// Underlying body mass (kg) before the day-to-day water swing.
    private(set) var weightKg: Double
    /// Days of illness still to come (0 when healthy).
    var illnessDaysLeft = 0

    init(seed: UInt64) {
        var random = SyntheticRandom(seed: seed, day: -1, stream: .person)
        baseLnHRV = random.uniform(3.75, 4.15)  // 42–63 ms
        baseRestingHeartRate = random.uniform(50, 58)
        heightMeters = random.uniform(1.72, 1.86)
        weightKg = heightMeters * heightMeters * random.uniform(22.5, 24.5)
    }

    /// The target body mass drifts down 3 % over the first 200 days (a training year).
    func targetWeightKg(day index: Int) -> Double {
        heightMeters * heightMeters * 23.8 * (1 - 0.03 * min(1, Double(index) / 200))
    }

    /// What shaped one night, for ``nightLnHRV(_:noise:)``.
    struct NightConditions {
        var dayIndex: Int
        var asleepHours: Double
        var lateNight: Bool
        var ill: Bool
        var jetLag: Bool
    }

    /// The night's mean ln HRV (ms).
    func nightLnHRV(_ night: NightConditions, noise: Double) -> Double {
        let form = SyntheticMath.clamp((fitness - fatigue) / 30, -1, 1) * 0.22
        let fitnessGain = SyntheticMath.clamp((fitness - 38) * 0.003, -0.08, 0.08)
        let hardDay = -0.0018 * lastLoad
        let shortSleep = -0.08 * max(0, 7 - night.asleepHours)
        // A slow ±0.05 swing with a 150-day period (seasons, stress at work).
        let phase = Double(night.dayIndex % 150) / 150
        let season = 0.05 * (4 * abs(phase - 0.5) - 1)
        var value = baseLnHRV + form + fitnessGain + hardDay + shortSleep + season + 0.07 * noise
        if night.lateNight { value -= 0.14 }
        if night.ill { value -= 0.35 }
        if night.jetLag { value -= 0.15 }
        return value
    }

    /// Resting HR for a night with mean ln HRV `lnHRV`.
    func restingHeartRate(lnHRV: Double, ill: Bool, lateNight: Bool, noise: Double) -> Double {
        var value = baseRestingHeartRate - 14 * (lnHRV - baseLnHRV) + 1.2 * noise
        if ill { value += 5 }
        if lateNight { value += 2 }
        return SyntheticMath.clamp(value, 38, 90)
    }

    /// Moves the underlying body mass one day towards its target with a small random walk.
    mutating func driftWeight(day index: Int, noise: Double) {
        weightKg += 0.03 * noise + 0.03 * (targetWeightKg(day: index) - weightKg)
    }

    /// Folds the finished day's training load into fitness and fatigue.
    mutating func finishDay(load: Double) {
        fitness += (load - fitness) * 0.023_528_313_347_756_735  // 1 − e^(−1/42)
        fatigue += (load - fatigue) * 0.133_122_100_249_818_4  // 1 − e^(−1/7)
        lastLoad = load
    }
}
