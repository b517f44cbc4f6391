import DuneEvents

/// The night that ends each morning: Apple Watch stages, overlapping iPhone and
/// AutoSleep records, HRV during sleep, the day's resting HR, and afternoon naps.
extension SyntheticGenerator {
    /// Writes the night ending on `day`'s morning and records its asleep minutes in `day`.
    func writeNight(_ day: inout SyntheticDay, into batch: inout SyntheticLineBatch) {
        var random = stream(.night, day: day.index)
        // Everything the watch recorded overnight reaches the phone shortly after waking.
        let syncMillis = (day.wake + Int64(random.int(90...420))) * 1000
        let index = day.index

        // Apple Watch: 80–105-minute cycles of core, deep, core, REM, sometimes a short awakening.
        var cursor = day.sleepOnset
        var cycle = 0
        var asleepSeconds: Int64 = 0
        while cursor < day.wake - 300 {
            let deep = cycle < 2 ? random.int(18...38) : cycle < 3 ? random.int(4...14) : random.int(0...5)
            let rem = cycle == 0 ? random.int(4...12) : cycle < 3 ? random.int(14...26) : random.int(20...36)
            let core = max(random.int(80...105) - deep - rem, 16)
            let firstCore = core / 2 + random.int(-4...4)
            let stages: [(stage: SleepStage, minutes: Int)] = [
                (.asleepCore, firstCore), (.asleepDeep, deep), (.asleepCore, core - firstCore), (.asleepREM, rem),
                (.awake, random.chance(0.35) ? random.int(1...6) : 0),
            ]
            for (stage, minutes) in stages where minutes > 0 && cursor < day.wake {
                let end = min(cursor + Int64(minutes * 60 + random.int(0...59)), day.wake)
                writeSleep(stage, id: SyntheticID(using: &random), from: cursor, to: end, night: index,
                           source: "Apple Watch", keyMillis: syncMillis, into: &batch)
                if stage.isAsleep { asleepSeconds += end - cursor }
                cursor = end
            }
            cycle += 1
        }
        if cursor < day.wake {
            writeSleep(.awake, id: SyntheticID(using: &random), from: cursor, to: day.wake, night: index,
                       source: "Apple Watch", keyMillis: syncMillis, into: &batch)
        }
        day.asleepMinutes = Double(asleepSeconds) / 60

        // iPhone: "in bed" from lights-off on some nights, its own asleep estimate on a few.
        if random.chance(0.45) {
            let getUp = day.wake + Int64(random.int(180...900))
            writeSleep(.inBed, id: SyntheticID(using: &random), from: day.inBedStart, to: getUp, night: index,
                       source: "iPhone", keyMillis: syncMillis, into: &batch)
        }
        if random.chance(0.18) {
            let from = day.sleepOnset + Int64(random.int(0...600))
            let to = day.wake - Int64(random.int(0...300))
            writeSleep(.asleepUnspecified, id: SyntheticID(using: &random), from: from, to: to, night: index,
                       source: "iPhone", keyMillis: syncMillis, into: &batch)
        }
        // AutoSleep: one asleep block on some nights, written in UTC.
        if random.chance(0.3) {
            let from = day.sleepOnset + Int64(random.int(-300...600))
            let to = day.wake + Int64(random.int(-300...240))
            let id = SyntheticID(using: &random)
            batch.beginSample(keyMillis: syncMillis + 60_000, kind: "sleep", id: id, start: from, startOffset: 0,
                              end: to, endOffset: 0)
            batch.string("value", "asleepUnspecified")
            batch.string("source", "AutoSleep")
            batch.end()
        }

        // HRV: two to four SDNN readings in the second part of the night.
        let conditions = SyntheticPerson.NightConditions(
            dayIndex: index, asleepHours: day.asleepMinutes / 60, lateNight: previousLateNight,
            ill: day.ill, jetLag: day.jetLag)
        let lnHRV = person.nightLnHRV(conditions, noise: random.normal())
        let span = Double(day.wake - day.sleepOnset)
        var readings: [Int64] = []
        for _ in 0..<random.int(2...4) {
            readings.append(day.sleepOnset + Int64(span * random.uniform(0.35, 0.95)))
        }
        readings.sort()
        let resend = random.chance(0.03)
        let resendMillis = day.clampToDay(day.wake + Int64(random.int(3600...10_800))) * 1000
        for start in readings {
            let value = SyntheticMath.clamp(SyntheticMath.exp(lnHRV + 0.1 * random.normal()), 10, 250)
            let offset = calendar.nightOffset(atEpoch: start, nightEndingOnDay: index)
            batch.beginSample(keyMillis: syncMillis, kind: "hrv", id: SyntheticID(using: &random),
                              start: start, startOffset: offset, end: start + 60, endOffset: offset)
            batch.decimal("value", value, places: 3)
            batch.string("unit", "ms")
            batch.string("source", "Apple Watch")
            let line = batch.end()
            if resend { batch.duplicate(line, keyMillis: resendMillis) }
        }

        // Resting heart rate, computed by the watch a little after waking.
        let restingAt = day.clampToDay(day.wake + Int64(random.int(3600...9000)))
        let resting = person.restingHeartRate(lnHRV: lnHRV, ill: day.ill, lateNight: previousLateNight,
                                              noise: random.normal())
        batch.beginSample(keyMillis: (restingAt + 60) * 1000, kind: "restingHeartRate", id: SyntheticID(using: &random),
                          start: restingAt, startOffset: day.offset, end: restingAt, endOffset: day.offset)
        batch.decimal("value", resting, places: 0)
        batch.string("unit", random.chance(0.85) ? "count/min" : "bpm")
        batch.string("source", "Apple Watch")
        batch.end()

        writeNap(day, &random, into: &batch)
    }

    /// An afternoon nap on some days (more when ill or at the weekend).
    private func writeNap(_ day: SyntheticDay, _ random: inout SyntheticRandom, into batch: inout SyntheticLineBatch) {
        let probability = day.ill ? 0.4 : day.onTrip ? 0.2 : day.weekday >= 6 ? 0.15 : 0.05
        guard random.chance(probability) else { return }
        let start = day.epoch(secondOfDay: random.int(48_000...56_400))  // 13:20–15:40
        let end = start + Int64(random.int(1080...3000))
        guard start > day.wake + 3600, end < day.bedtime - 3600,
              !day.workouts.contains(where: { $0.start < end + 600 && $0.end > start - 600 })
        else { return }
        let key = (end + Int64(random.int(60...600))) * 1000
        if random.chance(0.6) {
            writeSleep(.asleepCore, id: SyntheticID(using: &random), from: start, to: end, night: day.index,
                       source: "Apple Watch", keyMillis: key, into: &batch)
        } else {
            batch.beginSample(keyMillis: key, kind: "sleep", id: SyntheticID(using: &random), start: start,
                              startOffset: day.offset, end: end, endOffset: day.offset)
            batch.string("value", "asleepUnspecified")
            batch.string("source", "AutoSleep")
            batch.end()
        }
    }

    /// A sleep line whose timestamps carry the offset in effect at each instant.
    private func writeSleep(_ stage: SleepStage, id: SyntheticID, from: Int64, to: Int64, night index: Int,
                            source: StaticString, keyMillis: Int64, into batch: inout SyntheticLineBatch) {
        batch.beginSample(keyMillis: keyMillis, kind: "sleep", id: id,
                          start: from, startOffset: calendar.nightOffset(atEpoch: from, nightEndingOnDay: index),
                          end: to, endOffset: calendar.nightOffset(atEpoch: to, nightEndingOnDay: index))
        batch.string("value", stage.staticRawValue)
        batch.string("source", source)
        batch.end()
    }
}
