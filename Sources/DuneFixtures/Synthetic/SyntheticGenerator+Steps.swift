import DuneEvents

/// Steps: walking bouts through the waking day plus the steps of runs and
/// walks, counted by the Apple Watch in short samples and — when carried — by
/// the iPhone in longer ones, so the two sources overlap as in real life.
extension SyntheticGenerator {
    /// Writes the day's step samples, plus rare re-sends, corrections and a
    /// deletion of an iPhone sample from an earlier day.
    mutating func writeSteps(_ day: SyntheticDay, into batch: inout SyntheticLineBatch) {
        var random = stream(.steps, day: day.index)
        var ids = stream(.stepIDs, day: day.index)
        // Now and then the iPhone's duplicate-source cleanup deletes one of its samples from an earlier day.
        if !deletableStepIDs.isEmpty && ids.chance(0.04) {
            let victim = deletableStepIDs.remove(at: ids.int(0...(deletableStepIDs.count - 1)))
            batch.sampleDeleted(id: victim, at: day.clampToDay(day.wake + Int64(ids.int(600...40_000))),
                                offset: day.offset)
        }
        for workout in day.workouts where workout.cadence > 0 {
            writeBout(day, from: workout.start, to: workout.end, cadence: workout.cadence,
                      phoneCarried: workout.phoneCarried, &random, &ids, into: &batch)
        }
        let activity = day.ill ? 0.35 : day.onTrip ? 1.3 : 1
        let stop = day.bedtime - 600
        var cursor = day.wake + Int64(random.int(60...600))
        while cursor < stop {
            let roll = random.unit()
            let minutes = roll < 0.6 ? random.int(1...3) : roll < 0.9 ? random.int(3...10) : random.int(10...25)
            let end = cursor + Int64(minutes * 60 + random.int(0...59))
            guard end < stop else { break }
            if let workout = day.workouts.first(where: { cursor < $0.end + 180 && end > $0.start - 180 }) {
                cursor = workout.end + Int64(random.int(120...900))
                continue
            }
            writeBout(day, from: cursor, to: end, cadence: random.uniform(68, 100), phoneCarried: random.chance(0.8),
                      &random, &ids, into: &batch)
            cursor = end + Int64(Double(random.int(600...4500)) / activity)
        }
    }

    /// One bout of walking or running: watch samples of 1–5 minutes, and iPhone samples of 2–10 minutes.
    private mutating func writeBout(_ day: SyntheticDay, from start: Int64, to end: Int64, cadence: Double,
                                    phoneCarried: Bool, _ random: inout SyntheticRandom, _ ids: inout SyntheticRandom,
                                    into batch: inout SyntheticLineBatch) {
        var cursor = start
        while cursor < end {
            let next = min(end, cursor + Int64(random.int(60...300)))
            let steps = cadence * Double(next - cursor) / 60 * random.uniform(0.93, 1.07)
            writeStepSamples(day, from: cursor, to: next, steps: Int(steps.rounded()), watch: true,
                             delay: random.int(30...600), &ids, into: &batch)
            cursor = next
        }
        guard phoneCarried else { return }
        cursor = start + Int64(random.int(0...20))
        while cursor < end - 20 {
            let next = min(end, cursor + Int64(random.int(120...600)))
            let steps = cadence * Double(next - cursor) / 60 * random.uniform(0.86, 1.0)
            writeStepSamples(day, from: cursor, to: next, steps: Int(steps.rounded()), watch: false,
                             delay: random.int(5...90), &ids, into: &batch)
            cursor = next
        }
    }

    /// One recorded step sample, split into ``density`` equal consecutive samples.
    private mutating func writeStepSamples(_ day: SyntheticDay, from start: Int64, to end: Int64, steps: Int,
                                           watch: Bool, delay: Int, _ ids: inout SyntheticRandom,
                                           into batch: inout SyntheticLineBatch) {
        let parts = Int64(density)
        for part in 0..<parts {
            let partStart = start + (end - start) * part / parts
            let partEnd = start + (end - start) * (part + 1) / parts
            let count = steps * Int(part + 1) / density - steps * Int(part) / density
            let id = SyntheticID(using: &ids)
            let key = (partEnd + Int64(delay)) * 1000
            let line = writeStepSample(id: id, from: partStart, to: partEnd, count: count, watch: watch,
                                       offset: day.offset, keyMillis: key, into: &batch)
            let roll = ids.unit()
            if roll < 0.002 {
                // Re-delivered by an anchored query: the very same line again.
                let later = day.clampToDay(partEnd + Int64(ids.int(600...7200)))
                batch.duplicate(line, keyMillis: max(later * 1000, key + 1))
            } else if roll < 0.003 && watch {
                // The watch revises its count: same id, different value.
                let adjust = max(1, count / 8)
                let revised = count > adjust ? count - adjust : count + adjust
                let later = day.clampToDay(partEnd + Int64(ids.int(900...5400)))
                writeStepSample(id: id, from: partStart, to: partEnd, count: revised, watch: watch,
                                offset: day.offset, keyMillis: max(later * 1000, key + 1), into: &batch)
            } else if roll < 0.02 && !watch {
                if deletableStepIDs.count >= 64 { deletableStepIDs.removeFirst() }
                deletableStepIDs.append(id)
            }
        }
    }

    @discardableResult
    private func writeStepSample(id: SyntheticID, from start: Int64, to end: Int64, count: Int, watch: Bool,
                                 offset: Int32, keyMillis: Int64, into batch: inout SyntheticLineBatch) -> Int {
        batch.beginSample(keyMillis: keyMillis, kind: "stepCount", id: id, start: start, startOffset: offset,
                          end: end, endOffset: offset)
        batch.int("value", count)
        batch.string("unit", "count")
        batch.string("source", watch ? "Apple Watch" : "iPhone")
        return batch.end()
    }
}
