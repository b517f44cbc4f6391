import DuneEvents

/// Morning weigh-ins: body mass in kg, lb or g; body fat as a HealthKit
/// fraction (`%`) or as `percent`; BMI now and then; an edited reading and a
/// guest on the scale (deleted again) from time to time.
extension SyntheticGenerator {
    /// Writes the morning's scale readings, if the person weighed themselves.
    mutating func writeBody(_ day: inout SyntheticDay, into batch: inout SyntheticLineBatch) {
        var random = stream(.body, day: day.index)
        person.driftWeight(day: day.index, noise: random.normal())
        guard !day.onTrip, random.chance(0.78) else { return }
        day.weighed = true
        let at = day.clampToDay(day.wake + Int64(random.int(240...1200)))
        let afterHardDay = person.lastLoad > 60 ? 0.3 : 0
        let kg = person.weightKg + 0.25 * random.normal() - afterHardDay
        let id = SyntheticID(using: &random)
        let manual = random.chance(0.05)
        let unitRoll = random.unit()
        let key = (at + 30) * 1000
        writeMass(kg, id: id, at: at, offset: day.offset, unitRoll: unitRoll, manual: manual, keyMillis: key,
                  into: &batch)
        if random.chance(0.04) {
            // The reading is edited in the Health app later that day: same id, new value.
            let corrected = kg + (random.chance(0.5) ? -1 : 1) * random.uniform(0.2, 1.0)
            let later = day.clampToDay(at + Int64(random.int(3600...10_800)))
            writeMass(corrected, id: id, at: at, offset: day.offset, unitRoll: unitRoll, manual: true,
                      keyMillis: later * 1000, into: &batch)
        }

        if !manual && random.chance(0.65) {
            let target = person.targetWeightKg(day: day.index)
            let percent = SyntheticMath.clamp(17 + (kg - target) * 0.7 + 0.4 * random.normal(), 8, 30)
            batch.beginSample(keyMillis: key + 1, kind: "bodyFatPercentage", id: SyntheticID(using: &random),
                              start: at, startOffset: day.offset, end: at, endOffset: day.offset)
            if random.chance(0.5) {
                batch.decimal("value", percent / 100, places: 3)
                batch.string("unit", "%")
            } else {
                batch.decimal("value", percent, places: 1)
                batch.string("unit", "percent")
            }
            batch.string("source", "Withings")
            batch.end()
        }
        if random.chance(0.25) {
            let bmi = kg / (person.heightMeters * person.heightMeters)
            batch.beginSample(keyMillis: key + 2, kind: "bodyMassIndex", id: SyntheticID(using: &random),
                              start: at, startOffset: day.offset, end: at, endOffset: day.offset)
            batch.decimal("value", bmi, places: 1)
            batch.string("unit", random.chance(0.5) ? "count" : "kg/m2")
            batch.string("source", "Withings")
            batch.end()
        }
        if random.chance(0.03) {
            // A guest steps on the scale; the reading is deleted a few minutes later.
            let guestAt = at + Int64(random.int(60...600))
            let guestID = SyntheticID(using: &random)
            writeMass(random.uniform(52, 64), id: guestID, at: guestAt, offset: day.offset, unitRoll: 0.5,
                      manual: false, keyMillis: (guestAt + 30) * 1000, into: &batch)
            batch.sampleDeleted(id: guestID, at: guestAt + Int64(random.int(120...900)), offset: day.offset)
        }
    }

    /// A body-mass line: lb for 10 % of rolls, g for 5 %, else kg.
    private func writeMass(_ kg: Double, id: SyntheticID, at: Int64, offset: Int32, unitRoll: Double, manual: Bool,
                           keyMillis: Int64, into batch: inout SyntheticLineBatch) {
        batch.beginSample(keyMillis: keyMillis, kind: "bodyMass", id: id, start: at, startOffset: offset,
                          end: at, endOffset: offset)
        if unitRoll < 0.1 {
            batch.decimal("value", kg / 0.453_592_37, places: 1)
            batch.string("unit", "lb")
        } else if unitRoll < 0.15 {
            batch.decimal("value", (kg * 100).rounded() * 10, places: 0)  // scales resolve 10 g
            batch.string("unit", "g")
        } else {
            batch.decimal("value", kg, places: 2)
            batch.string("unit", "kg")
        }
        if manual {
            batch.string("source", "Health")
            batch.bool("wasUserEntered", true)  // not in SPEC §3: kept by ingest as an unknown field
        } else {
            batch.string("source", "Withings")
        }
        batch.end()
    }
}
