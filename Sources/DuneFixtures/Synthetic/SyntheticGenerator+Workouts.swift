import DuneEvents

/// Workouts: a weekly plan in four-week blocks (build, build, peak, deload),
/// written with a mix of energy and distance units.
extension SyntheticGenerator {
    /// The day's workouts, by weekday: Mon strength, Tue run, Wed walk, Thu ride,
    /// Fri walk, Sat long run, Sun hike or long ride; none when ill, no bike or
    /// gym on a trip.
    func planWorkouts(_ day: SyntheticDay, _ random: inout SyntheticRandom) -> [SyntheticWorkout] {
        guard !day.ill else { return [] }
        let block = [1.0, 1.12, 1.25, 0.65][(day.index / 7) % 4]
        let evening = day.epoch(secondOfDay: random.int(64_800...70_200))  // 18:00–19:30
        let morning = day.wake + Int64(random.int(2400...4500))
        var planned: [SyntheticWorkout] = []
        switch day.weekday {
        case 1:
            if random.chance(0.85) {
                planned.append(makeWorkout(day.onTrip ? .walking : .strength, start: evening,
                                           minutes: random.uniform(40, 65) * block, &random))
            }
        case 2:
            if random.chance(0.85) {
                planned.append(makeWorkout(.running, start: morning, minutes: random.uniform(35, 55) * block, &random))
            }
        case 3:
            if random.chance(0.6) {
                let lunch = day.epoch(secondOfDay: random.int(43_800...45_600))
                planned.append(makeWorkout(.walking, start: lunch, minutes: random.uniform(30, 50), &random))
            }
        case 4:
            if random.chance(0.8) {
                planned.append(makeWorkout(day.onTrip ? .walking : .cycling, start: evening,
                                           minutes: random.uniform(45, 80) * block, &random))
            }
        case 5:
            if random.chance(0.4) {
                planned.append(makeWorkout(.walking, start: evening, minutes: random.uniform(30, 60), &random))
            }
        case 6:
            if random.chance(0.85) {
                planned.append(makeWorkout(.running, start: day.wake + Int64(random.int(3600...7200)),
                                           minutes: random.uniform(60, 100) * block, &random))
            }
        default:
            let roll = random.unit()
            if roll < 0.55 {
                let afternoon = day.epoch(secondOfDay: random.int(50_400...55_800))
                planned.append(makeWorkout(.walking, start: afternoon, minutes: random.uniform(60, 120), &random))
            } else if roll < 0.8 && !day.onTrip {
                planned.append(makeWorkout(.cycling, start: morning, minutes: random.uniform(80, 120) * block, &random))
            }
        }
        return planned.filter { $0.start >= day.wake + 600 && $0.end <= day.bedtime - 2700 }
    }

    /// A workout of `activity` with plausible pace, energy and volume for this person.
    func makeWorkout(_ activity: SyntheticWorkout.Activity, start: Int64, minutes: Double,
                     _ random: inout SyntheticRandom) -> SyntheticWorkout {
        let end = start + Int64(minutes * 60) + Int64(random.int(0...59))
        let weight = person.weightKg
        switch activity {
        case .running:
            let km = minutes / random.uniform(5.0, 6.3)
            return SyntheticWorkout(activity: activity, start: start, end: end,
                                    energyKcal: km * weight * random.uniform(0.95, 1.05), distanceKm: km,
                                    volumeKg: nil, cadence: random.uniform(160, 178), phoneCarried: random.chance(0.35),
                                    indoor: false)
        case .cycling:
            let indoor = random.chance(0.3)
            let km = minutes / 60 * random.uniform(23, 30)
            return SyntheticWorkout(activity: activity, start: start, end: end,
                                    energyKcal: minutes * random.uniform(7, 10), distanceKm: indoor ? nil : km,
                                    volumeKg: nil, cadence: 0, phoneCarried: true, indoor: indoor)
        case .strength:
            return SyntheticWorkout(activity: activity, start: start, end: end,
                                    energyKcal: minutes * random.uniform(4.5, 6.5), distanceKm: nil,
                                    volumeKg: minutes * random.uniform(90, 150), cadence: 0, phoneCarried: true,
                                    indoor: false)
        case .walking:
            let km = minutes / random.uniform(10.5, 13)
            return SyntheticWorkout(activity: activity, start: start, end: end,
                                    energyKcal: minutes * random.uniform(3.8, 5), distanceKm: km,
                                    volumeKg: nil, cadence: random.uniform(104, 120), phoneCarried: random.chance(0.9),
                                    indoor: false)
        }
    }

    // MARK: - Writing

    /// Writes the day's workouts, a few later corrections (energy recomputed),
    /// and now and then an accidental two-minute workout that is deleted again.
    func writeWorkouts(_ day: SyntheticDay, into batch: inout SyntheticLineBatch) {
        var random = stream(.workout, day: day.index)
        for workout in day.workouts {
            let id = SyntheticID(using: &random)
            let units = WorkoutUnits(workout.activity, &random)
            let key = (workout.end + Int64(random.int(30...300))) * 1000
            writeWorkout(workout, id: id, units: units, offset: day.offset, keyMillis: key, into: &batch)
            if random.chance(0.06) {
                var corrected = workout
                corrected.energyKcal *= random.chance(0.5) ? random.uniform(0.9, 0.97) : random.uniform(1.03, 1.1)
                let later = day.clampToDay(workout.end + Int64(random.int(1200...5400)))
                writeWorkout(corrected, id: id, units: units, offset: day.offset, keyMillis: later * 1000, into: &batch)
            }
        }
        if random.chance(0.03) {
            let start = day.clampToDay(day.wake + Int64(random.int(3600...36_000)))
            let accidental = SyntheticWorkout(
                activity: .walking, start: start, end: start + Int64(random.int(90...240)),
                energyKcal: random.uniform(6, 15), distanceKm: random.uniform(0.1, 0.3), volumeKg: nil,
                cadence: 0, phoneCarried: false, indoor: false)
            let id = SyntheticID(using: &random)
            let units = WorkoutUnits(.walking, &random)
            writeWorkout(accidental, id: id, units: units, offset: day.offset,
                         keyMillis: (accidental.end + 60) * 1000, into: &batch)
            let deletedAt = accidental.end + Int64(random.int(300...1800))
            batch.sampleDeleted(id: id, at: deletedAt, offset: day.offset)
        }
    }

    private func writeWorkout(_ workout: SyntheticWorkout, id: SyntheticID, units: WorkoutUnits, offset: Int32,
                              keyMillis: Int64, into batch: inout SyntheticLineBatch) {
        batch.beginSample(keyMillis: keyMillis, kind: "workout", id: id, start: workout.start, startOffset: offset,
                          end: workout.end, endOffset: offset)
        batch.string("activityType", workout.activity.name)
        switch units.energy {
        case .kcal:
            batch.decimal("energy", workout.energyKcal, places: 1)
            batch.string("energyUnit", "kcal")
        case .largeCalorie:
            batch.decimal("energy", workout.energyKcal, places: 0)
            batch.string("energyUnit", "Cal")
        case .kilojoule:
            batch.decimal("energy", workout.energyKcal * 4.184, places: 1)
            batch.string("energyUnit", "kJ")
        }
        if let km = workout.distanceKm {
            switch units.distance {
            case .kilometre:
                batch.decimal("distance", km, places: 2)
                batch.string("distanceUnit", "km")
            case .mile:
                batch.decimal("distance", km * 1000 / 1609.344, places: 2)
                batch.string("distanceUnit", "mi")
            case .metre:
                batch.decimal("distance", km * 1000, places: 0)
                batch.string("distanceUnit", "m")
            }
        }
        if let volume = workout.volumeKg { batch.decimal("volumeKg", volume, places: 0) }
        if workout.indoor { batch.bool("indoor", true) }  // not in SPEC §3: kept by ingest as an unknown field
        batch.string("source", "Apple Watch")
        batch.end()
    }
}
