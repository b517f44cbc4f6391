import DuneEvents
@testable import DuneProjections
import Testing

/// Daily values exactly as SPEC §6 defines them, checked through the fold.
struct DailyValuesTests {
    private func values(_ log: LogBuilder, on date: String) throws -> DailyValues? {
        ReadModelEngine(replaying: log.events).dailyValues(on: try day(date))
    }

    @Test func overlappingWatchIPhoneAndAutoSleepNightIsCountedOnce() throws {
        var log = LogBuilder()
        try log.sleep(id: "s1", .asleepCore, from: "2026-03-02T23:00:00+01:00", to: "2026-03-03T03:00:00+01:00")
        try log.sleep(id: "s2", .asleepDeep, from: "2026-03-03T03:00:00+01:00", to: "2026-03-03T06:30:00+01:00")
        try log.sleep(id: "s3", .asleepUnspecified, from: "2026-03-02T22:30:00+01:00", to: "2026-03-03T06:00:00+01:00",
                      source: "iPhone")
        try log.sleep(id: "s4", .asleepUnspecified, from: "2026-03-02T23:15:00+01:00", to: "2026-03-03T07:00:00+01:00",
                      source: "AutoSleep")
        try log.sleep(id: "s5", .inBed, from: "2026-03-02T22:00:00+01:00", to: "2026-03-03T07:30:00+01:00")
        try log.sleep(id: "s6", .awake, from: "2026-03-03T02:00:00+01:00", to: "2026-03-03T02:10:00+01:00")
        try log.sleep(id: "s7", .asleepCore, from: "2026-03-03T07:20:00+01:00", to: "2026-03-03T07:40:00+01:00",
                      source: "AutoSleep")

        // Asleep intervals 23:00–03:00, 03:00–06:30, 22:30–06:00, 23:15–07:00 merge into
        // 22:30–07:00 (8 h 30 = 510 min); 07:20–07:40 adds 20 min: 530 min.
        // inBed (s5) is ignored because the night has asleep samples; awake (s6) always is.
        let sleep = try #require(try values(log, on: "2026-03-03")?.sleep)
        #expect(sleep == DailySleep(
            minutes: 530, basis: .asleep,
            union: [
                SleepInterval(start: try Timestamp(parsing: "2026-03-02T22:30:00+01:00"),
                              end: try Timestamp(parsing: "2026-03-03T07:00:00+01:00")),
                SleepInterval(start: try Timestamp(parsing: "2026-03-03T07:20:00+01:00"),
                              end: try Timestamp(parsing: "2026-03-03T07:40:00+01:00")),
            ],
            samples: [SampleReference(id: "s1", seq: 1), SampleReference(id: "s2", seq: 2),
                      SampleReference(id: "s3", seq: 3), SampleReference(id: "s4", seq: 4),
                      SampleReference(id: "s7", seq: 7)]))
    }

    @Test func nightWithoutAsleepSamplesUsesTheUnionOfInBed() throws {
        var log = LogBuilder()
        try log.sleep(id: "b1", .inBed, from: "2026-03-02T23:00:00+01:00", to: "2026-03-03T07:00:00+01:00")
        try log.sleep(id: "b2", .inBed, from: "2026-03-03T06:00:00+01:00", to: "2026-03-03T08:00:00+01:00",
                      source: "iPhone")
        try log.sleep(id: "a1", .awake, from: "2026-03-03T03:00:00+01:00", to: "2026-03-03T03:30:00+01:00")

        // 23:00–07:00 ∪ 06:00–08:00 = 23:00–08:00 = 540 min.
        let sleep = try #require(try values(log, on: "2026-03-03")?.sleep)
        #expect(sleep == DailySleep(
            minutes: 540, basis: .inBed,
            union: [SleepInterval(start: try Timestamp(parsing: "2026-03-02T23:00:00+01:00"),
                                  end: try Timestamp(parsing: "2026-03-03T08:00:00+01:00"))],
            samples: [SampleReference(id: "b1", seq: 1), SampleReference(id: "b2", seq: 2)]))
    }

    @Test func nightWithOnlyAwakeSamplesHasNoSleepValue() throws {
        var log = LogBuilder()
        try log.sleep(id: "a1", .awake, from: "2026-03-03T03:00:00+01:00", to: "2026-03-03T03:30:00+01:00")
        let values = try #require(try values(log, on: "2026-03-03"))
        #expect(values.sleep == nil)
        #expect(values.samples == [SampleReference(id: "a1", seq: 1)])
    }

    @Test func stepsAreTheLargestPerSourceSumNotTheTotal() throws {
        var log = LogBuilder()
        try log.quantity(.stepCount, id: "w1", start: "2026-03-02T09:00:00+01:00", value: 3000)
        try log.quantity(.stepCount, id: "p1", start: "2026-03-02T09:00:00+01:00", value: 4000, source: "iPhone")
        try log.quantity(.stepCount, id: "w2", start: "2026-03-02T12:00:00+01:00", value: 2000)
        try log.quantity(.stepCount, id: "p2", start: "2026-03-02T12:00:00+01:00", value: 1500, source: "iPhone")
        try log.quantity(.stepCount, id: "p3", start: "2026-03-02T20:00:00+01:00", value: 200, source: "iPhone")

        // Apple Watch 3000 + 2000 = 5000; iPhone 4000 + 1500 + 200 = 5700 → 5700 (not 10 700).
        let steps = try #require(try values(log, on: "2026-03-02")?.steps)
        #expect(steps == DailySteps(value: 5700, source: "iPhone", sources: [
            SourceSteps(source: "Apple Watch", steps: 5000,
                        samples: [SampleReference(id: "w1", seq: 1), SampleReference(id: "w2", seq: 3)]),
            SourceSteps(source: "iPhone", steps: 5700,
                        samples: [SampleReference(id: "p1", seq: 2), SampleReference(id: "p2", seq: 4),
                                  SampleReference(id: "p3", seq: 5)]),
        ]))
        #expect(steps.samples == [SampleReference(id: "p1", seq: 2), SampleReference(id: "p2", seq: 4),
                                  SampleReference(id: "p3", seq: 5)])
    }

    @Test func equalStepSumsPickTheFirstSourceByName() throws {
        var log = LogBuilder()
        try log.quantity(.stepCount, id: "p1", start: "2026-03-02T09:00:00+01:00", value: 1000, source: "iPhone")
        try log.quantity(.stepCount, id: "w1", start: "2026-03-02T09:00:00+01:00", value: 1000)
        let steps = try #require(try values(log, on: "2026-03-02")?.steps)
        #expect(steps.value == 1000)
        #expect(steps.source == "Apple Watch")
    }

    @Test func bodyMassIsTheLatestByStartAndATieGoesToTheHigherSeq() throws {
        var log = LogBuilder()
        try log.quantity(.bodyMass, id: "a", start: "2026-03-02T08:00:00+01:00", value: 80.0)
        try log.quantity(.bodyMass, id: "b", start: "2026-03-02T07:00:00+01:00", value: 79.0)  // later seq, earlier start
        try log.quantity(.bodyMass, id: "c", start: "2026-03-02T08:00:00+01:00", value: 80.4)  // same start as a, seq 3

        // Latest start is 08:00 (a and c); the tie goes to c (seq 3 > 1).
        #expect(try values(log, on: "2026-03-02")?.bodyMass == DailyLatest(
            value: 80.4, start: try Timestamp(parsing: "2026-03-02T08:00:00+01:00"), sample: SampleReference(id: "c", seq: 3)))

        // Correcting a gives it the correcting event's seq (4), so now a wins the tie.
        try log.quantity(.bodyMass, id: "a", start: "2026-03-02T08:00:00+01:00", value: 82.0)
        #expect(try values(log, on: "2026-03-02")?.bodyMass == DailyLatest(
            value: 82.0, start: try Timestamp(parsing: "2026-03-02T08:00:00+01:00"), sample: SampleReference(id: "a", seq: 4)))
    }

    @Test func sameInstantInAnotherOffsetIsATieOnStart() throws {
        var log = LogBuilder()
        try log.quantity(.bodyMassIndex, id: "a", start: "2026-03-02T08:00:00+01:00", value: 24.0)
        try log.quantity(.bodyMassIndex, id: "b", start: "2026-03-02T07:00:00Z", value: 24.5)
        #expect(try values(log, on: "2026-03-02")?.bodyMassIndex?.value == 24.5)
    }

    @Test func correctionAndDeletionChangeTheDaysValues() throws {
        var log = LogBuilder()
        try log.quantity(.hrv, id: "h1", start: "2026-03-02T07:00:00+01:00", value: 40)
        try log.quantity(.hrv, id: "h2", start: "2026-03-02T07:10:00+01:00", value: 60)
        // (40 + 60) / 2 = 50
        #expect(try values(log, on: "2026-03-02")?.hrv == DailyMean(
            value: 50, samples: [SampleReference(id: "h1", seq: 1), SampleReference(id: "h2", seq: 2)]))

        try log.quantity(.hrv, id: "h2", start: "2026-03-02T07:10:00+01:00", value: 80)
        // h2 corrected to 80 at seq 3: (40 + 80) / 2 = 60
        #expect(try values(log, on: "2026-03-02")?.hrv == DailyMean(
            value: 60, samples: [SampleReference(id: "h1", seq: 1), SampleReference(id: "h2", seq: 3)]))

        try log.delete(id: "h1")
        // h1 deleted: 80
        #expect(try values(log, on: "2026-03-02")?.hrv == DailyMean(
            value: 80, samples: [SampleReference(id: "h2", seq: 3)]))

        try log.quantity(.hrv, id: "h2", start: "2026-03-03T07:10:00+01:00", value: 70)
        // The correction moves h2 to the next day: 2026-03-02 has no sample left.
        #expect(try values(log, on: "2026-03-02") == nil)
        #expect(try values(log, on: "2026-03-03")?.hrv == DailyMean(
            value: 70, samples: [SampleReference(id: "h2", seq: 5)]))

        try log.delete(id: "never-seen")
        #expect(ReadModelEngine(replaying: log.events).samples.count == 1)
    }

    @Test func sleepEndingBefore18IsTodaysAndAt18IsTomorrows() throws {
        var log = LogBuilder()
        // end + 6 h = 23:59:59 → the same day.
        try log.sleep(id: "nap1", .asleepCore, from: "2026-03-02T17:00:00+01:00", to: "2026-03-02T17:59:59+01:00")
        // end + 6 h = 00:00 the next day → 2026-03-03.
        try log.sleep(id: "nap2", .asleepCore, from: "2026-03-02T17:30:00+01:00", to: "2026-03-02T18:00:00+01:00")
        // The same instant as nap1's end written in UTC (16:59:59Z + 6 h = 22:59:59Z) → 2026-03-02.
        try log.sleep(id: "nap3", .asleepCore, from: "2026-03-02T16:30:00Z", to: "2026-03-02T16:59:59Z")
        // Written in +09:00, 09:30Z is 18:30 local → 2026-03-03.
        try log.sleep(id: "nap4", .asleepCore, from: "2026-03-02T18:10:00+09:00", to: "2026-03-02T18:30:00+09:00")

        let projection = ReadModelEngine(replaying: log.events)
        #expect(projection.samples.days == [try day("2026-03-02"), try day("2026-03-03")])
        // 2026-03-02: 16:00Z–16:59:59Z (nap1) ∪ 16:30Z–16:59:59Z (nap3) = 3599 s.
        #expect(projection.dailyValues(on: try day("2026-03-02"))?.sleep?.minutes == 3599.0 / 60)
        #expect(projection.dailyValues(on: try day("2026-03-02"))?.sleep?.samples
            == [SampleReference(id: "nap1", seq: 1), SampleReference(id: "nap3", seq: 3)])
        // 2026-03-03: 30 min (nap2) + 20 min (nap4, 09:10Z–09:30Z, disjoint from 16:30Z–17:00Z).
        #expect(projection.dailyValues(on: try day("2026-03-03"))?.sleep?.minutes == 50)
    }

    @Test func workoutsCountOnTheDayTheyStartWithMinutesFromInstants() throws {
        var log = LogBuilder()
        // Starts 23:30 on 03-28 (+01:00), ends 01:30 written in +02:00:
        // 22:30Z → 23:30Z = 60 min, although the wall clocks are 2 h apart.
        try log.workout(id: "w1", "running", from: "2026-03-28T23:30:00+01:00", to: "2026-03-29T01:30:00+02:00",
                        energyKcal: 500)
        let values = try #require(try values(log, on: "2026-03-28"))
        #expect(values.workouts.map(\.minutes) == [60])
        #expect(values.workoutMinutes == 60)
        #expect(try self.values(log, on: "2026-03-29") == nil)
    }
}
