import DuneEvents

/// App activity: refresh requests and the load tasks they start.
///
/// Every morning the app comes to the foreground while HealthKit observers
/// fire for several kinds within seconds (so both refresh throttles fire);
/// later visits, background deliveries, observer bursts after workouts and the
/// odd pull-to-refresh follow. Each visit loads features as `task` lines that
/// mostly complete, sometimes fail, are cancelled by the user, fail with error
/// "cancelled", or are superseded by a pull-to-refresh — whose stale
/// completions may still arrive.
extension SyntheticGenerator {
    /// Writes the day's `refresh`, `task` and (on the first day) `profile` lines.
    mutating func writeAppActivity(_ day: SyntheticDay, into batch: inout SyntheticLineBatch) {
        var random = stream(.app, day: day.index)
        let offset = day.offset
        let lastMillis = (day.bedtime - 900) * 1000

        // Morning: the night has synced; open the app.
        let morning = (day.wake + Int64(random.int(480...1500))) * 1000 + Int64(random.int(0...999))
        batch.refresh(atMillis: morning, offset: offset, source: "foreground")
        var kinds: [StaticString] = ["sleep", "hrv", "restingHeartRate", "stepCount"]
        if day.weighed { kinds.append("bodyMass") }
        var at = morning + Int64(random.int(200...1500))
        for (position, kind) in kinds.enumerated() {
            batch.refresh(atMillis: at, offset: offset, source: "healthKitObserver", kind: kind)
            if position == 1 || random.chance(0.25) {  // HRV always fires twice: a type throttle
                batch.refresh(atMillis: at + Int64(random.int(150...2500)), offset: offset,
                              source: "healthKitObserver", kind: kind)
            }
            at += Int64(random.int(150...4000))
        }
        loadFeatures(at: morning, features: SyntheticFeature.allCases, supersedeChance: 0.18, offset: offset,
                     &random, into: &batch)
        if day.index == 0 {
            let line = batch.profile(atMillis: morning + Int64(random.int(20_000...60_000)), offset: offset,
                                     sleepTargetMinutes: 450, eventID: SyntheticID(using: &random))
            batch.duplicate(line, keyMillis: morning + 61_000 + Int64(random.int(1000...4000)))
        }

        // Later visits, spread over the day.
        let visits = random.int(1...3)
        let firstMillis = morning + 7_200_000
        let slot = (lastMillis - firstMillis) / Int64(visits)
        if slot > 1_200_000 {
            for visit in 0..<Int64(visits) {
                let visitAt = firstMillis + slot * visit + Int64(random.int(0...Int(slot - 600_000)))
                batch.refresh(atMillis: visitAt, offset: offset, source: "foreground")
                var features: [SyntheticFeature] = [.readiness, .trends]
                if random.chance(0.4) { features.append(.weeklyStats) }
                loadFeatures(at: visitAt, features: features, supersedeChance: 0.05, offset: offset, &random,
                             into: &batch)
            }
        }

        // Background deliveries: caches go stale, nothing reloads.
        let dayMillis = Int(lastMillis - day.wake * 1000)
        if dayMillis > 0 {
            let backgroundKinds: [StaticString] = ["stepCount", "hrv", "workout", "bodyMass", "sleep"]
            for _ in 0..<random.int(1...4) {
                batch.refresh(atMillis: day.wake * 1000 + Int64(random.int(0...dayMillis)), offset: offset,
                              source: "backgroundDelivery", kind: random.pick(backgroundKinds))
            }
        }

        // After a workout the watch syncs: observers fire for workouts and steps, twice each.
        for workout in day.workouts {
            let first = (workout.end + Int64(random.int(60...240))) * 1000 + Int64(random.int(0...999))
            guard first + 120_000 < lastMillis else { continue }
            batch.refresh(atMillis: first, offset: offset, source: "healthKitObserver", kind: "workout")
            batch.refresh(atMillis: first + Int64(random.int(200...1500)), offset: offset,
                          source: "healthKitObserver", kind: "stepCount")
            batch.refresh(atMillis: first + Int64(random.int(2000...20_000)), offset: offset,
                          source: "healthKitObserver", kind: "workout")
            batch.refresh(atMillis: first + Int64(random.int(61_000...120_000)), offset: offset,
                          source: "healthKitObserver", kind: "stepCount")
        }

        // An evening pull-to-refresh now and then.
        if random.chance(0.12) {
            let pullAt = lastMillis - Int64(random.int(0...6_300_000))
            if pullAt > morning + 600_000 {
                pullToRefresh(at: pullAt, offset: offset, &random, into: &batch)
                loadFeatures(at: pullAt, features: [.readiness, .trends], supersedeChance: 0, offset: offset,
                             &random, into: &batch)
            }
        }
    }

    // MARK: - Tasks

    /// Starts a task per feature shortly after `at`; with `supersedeChance` a
    /// pull-to-refresh restarts them all while they are still in flight.
    private mutating func loadFeatures(at: Int64, features: [SyntheticFeature], supersedeChance: Double,
                                       offset: Int32, _ random: inout SyntheticRandom,
                                       into batch: inout SyntheticLineBatch) {
        var started: [(feature: SyntheticFeature, number: Int, at: Int64)] = []
        var cursor = at
        for feature in features {
            cursor += Int64(random.int(30...120))
            let number = nextTaskNumber(feature)
            batch.task(atMillis: cursor, offset: offset, feature: feature, number: number, phase: "started")
            started.append((feature, number, cursor))
        }
        guard random.chance(supersedeChance) else {
            for task in started { finishTask(task.feature, number: task.number, startedAt: task.at, offset: offset,
                                             &random, into: &batch) }
            return
        }
        // The user pulls to refresh before the first loads finish.
        let pullAt = cursor + Int64(random.int(250...900))
        pullToRefresh(at: pullAt, offset: offset, &random, into: &batch)
        var restart = pullAt
        for task in started {
            restart += Int64(random.int(20...90))
            let number = nextTaskNumber(task.feature)
            batch.task(atMillis: restart, offset: offset, feature: task.feature, number: number, phase: "started")
            let roll = random.unit()
            if roll < 0.5 {
                // The superseded load finishes anyway: a stale completion.
                batch.task(atMillis: restart + Int64(random.int(100...1500)), offset: offset, feature: task.feature,
                           number: task.number, phase: "completed")
            } else if roll < 0.8 {
                // Its Swift task notices the cancellation and reports it as an error.
                batch.task(atMillis: restart + Int64(random.int(5...60)), offset: offset, feature: task.feature,
                           number: task.number, phase: "failed", error: "cancelled")
            }
            finishTask(task.feature, number: number, startedAt: restart, offset: offset, &random, into: &batch)
        }
    }

    /// The end of a current task: mostly completed; sometimes failed, cancelled
    /// by the user, or failed with error "cancelled".
    private func finishTask(_ feature: SyntheticFeature, number: Int, startedAt: Int64, offset: Int32,
                            _ random: inout SyntheticRandom, into batch: inout SyntheticLineBatch) {
        let roll = random.unit()
        if roll < 0.88 {
            batch.task(atMillis: startedAt + Int64(random.int(250...2500)), offset: offset, feature: feature,
                       number: number, phase: "completed")
        } else if roll < 0.93 {
            let errors: [StaticString] = [
                "Protected health data is inaccessible",
                "HealthKit query timed out after 10 s",
                "The operation couldn’t be completed. (com.apple.healthkit error 6.)",
            ]
            batch.task(atMillis: startedAt + Int64(random.int(400...4000)), offset: offset, feature: feature,
                       number: number, phase: "failed", error: random.pick(errors))
        } else if roll < 0.965 {
            batch.task(atMillis: startedAt + Int64(random.int(80...900)), offset: offset, feature: feature,
                       number: number, phase: "cancelled")
        } else {
            batch.task(atMillis: startedAt + Int64(random.int(80...900)), offset: offset, feature: feature,
                       number: number, phase: "failed", error: random.chance(0.7) ? "cancelled" : "Cancelled")
        }
    }

    private mutating func nextTaskNumber(_ feature: SyntheticFeature) -> Int {
        taskNumbers[feature.rawValue] += 1
        return taskNumbers[feature.rawValue]
    }

    /// A pull-to-refresh carrying an `eventID`; a fifth are retried (the same line again).
    private func pullToRefresh(at: Int64, offset: Int32, _ random: inout SyntheticRandom,
                               into batch: inout SyntheticLineBatch) {
        let line = batch.refresh(atMillis: at, offset: offset, source: "pullToRefresh",
                                 eventID: SyntheticID(using: &random),
                                 appVersion: random.chance(0.3) ? "3.2.0" : nil)
        if random.chance(0.2) {
            batch.duplicate(line, keyMillis: at + Int64(random.int(800...4000)))
        }
    }
}
