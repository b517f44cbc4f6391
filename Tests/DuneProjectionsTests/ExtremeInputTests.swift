import Testing
@testable import DuneEvents
import DuneFixtures
@testable import DuneProjections
import DuneTools

/// The read models of every `generate --extreme` case, against values worked
/// out here in a few lines of plain code (issue 11). Timings are the
/// benchmark's business (`Benchmarks/extreme.sh`), not these tests'.
@Suite struct ExtremeInputTests {
    /// The case's lines through the real parser and ingest decider, every line appended.
    static func events(_ extremeCase: ExtremeInput.Case, count: Int) throws -> [RecordedEvent] {
        var state = IngestState()
        var events: [RecordedEvent] = []
        for line in ExtremeInput.lines(extremeCase, count: count, seed: 1) {
            let command = try InputParser.parse(line)
            let decision = state.decide(command)
            #expect(decision.outcome == .appended, "\(decision.reason ?? "") \(line.prefix(200))")
            for event in decision.events {
                let recorded = RecordedEvent(seq: events.count + 1, id: "e-\(events.count + 1)",
                                             recordedAt: Timestamp(epochSeconds: 1_800_000_000, offsetSeconds: 0), event: event)
                state.evolve(with: recorded)
                events.append(recorded)
            }
        }
        return events
    }

    /// The four read models, folded event by event and in one decoded batch; both must agree.
    struct Models {
        var readiness: ReadinessModel
        var trends: TrendsModel
        var weekly: WeeklyStatsModel
        var sync: SyncStatusModel
        var engine: ReadModelEngine
    }

    static func models(_ events: [RecordedEvent]) -> Models {
        var engine = ReadModelEngine(replaying: events)
        let sync = SyncStatusProjection(replaying: events)
        var batched = ReadModelEngine()
        batched.apply(EventBatch(events))
        let state = engine.state()
        #expect(batched.state() == state)
        #expect(sync.readModel().restamped(state.throughSeq) == state.syncStatus)
        // Models written entry by entry give exactly the bytes of their whole JSON tree.
        func tree(_ model: some ReadModelJSON) -> [UInt8] { Array((JSONWriter.string(model.jsonValue) + "\n").utf8) }
        #expect(state.readiness.fileBytes == tree(state.readiness))
        #expect(state.trends.fileBytes == tree(state.trends))
        #expect(state.weeklyStats.fileBytes == tree(state.weeklyStats))
        return Models(readiness: state.readiness, trends: state.trends, weekly: state.weeklyStats, sync: state.syncStatus,
                      engine: engine)
    }

    static let day = DayKey(year: 2026, month: 3, day: 2)

    @Test func centuriesListEveryWeekAndDayOfTwoHundredYears() throws {
        let count = 2_000
        let models = Self.models(try Self.events(.centuries, count: count))
        let samples = count - 2
        // 1900-01-01 is a Monday; 2099-12-31 a Thursday, in the week of Monday 2099-12-28.
        let first = DayKey(year: 1900, month: 1, day: 1).ordinal
        let last = DayKey(year: 2099, month: 12, day: 31).ordinal
        #expect(last - first == 73_048)
        #expect(models.weekly.weeks.count == (73_048 - 3) / 7 + 1)
        #expect(models.weekly.weeks.first?.week.description == "1900-W01" && models.weekly.weeks.last?.week.description == "2099-W53")
        #expect(models.weekly.weeks.filter { $0.totals.workouts > 0 }.map(\.totals.durationMinutes) == [60, 30])
        #expect(models.trends.trainingLoad.count == 73_049)
        #expect(models.trends.trainingLoad.first?.load == 60 && models.trends.trainingLoad.last?.load == 30)
        #expect(models.trends.trainingLoad.dropFirst().dropLast().allSatisfy { $0.load == 0 })
        // One readiness day per HRV sample, each day i·73048/1997 after the first, its value 30 + 7i mod 50.
        #expect(models.readiness.days.count == samples)
        for index in stride(from: 0, to: samples, by: 97) {
            let day = models.readiness.days[index]
            #expect(day.date.ordinal == first + index * 73_048 / (samples - 1))
            #expect(day.hrv == Double(30 + (index * 7) % 50))
        }
    }

    @Test func aDayOfThousandsOfSourcesTakesTheLargestSource() throws {
        let count = 3_000
        let models = Self.models(try Self.events(.sources, count: count))
        var best: (value: Int, name: String)?
        for index in 0..<count {
            let value = 30 + (index * 7) % 50
            let name = "source-\(index)"
            if let current = best, value < current.value || (value == current.value && !name.utf8.lexicographicallyPrecedes(current.name.utf8)) {
                continue
            }
            best = (value, name)
        }
        let daily = try #require(models.engine.dailyValues(on: Self.day))
        #expect(daily.steps?.value == Double(best?.value ?? -1))
        #expect(daily.steps?.source == best?.name)
        #expect(daily.steps?.sources.count == count)
        #expect(models.weekly.weeks.count == 1 && models.weekly.weeks[0].totals.steps == Double(best?.value ?? -1))
        #expect(models.trends.trend(.steps)?.series.values == [Double(best?.value ?? -1)])
    }

    @Test func thousandsOfTasksAndFeaturesEachKeepTheirOwnState() throws {
        let count = 3_000
        let models = Self.models(try Self.events(.tasks, count: count))
        let tasks = count / 2
        #expect(models.sync.features.count == tasks / 5)
        for feature in models.sync.features.prefix(40) {
            let number = try #require(Int(feature.feature.dropFirst("feature-".count)))
            let mine = (number * 5)..<(number * 5 + 5)
            let failures = mine.filter { $0 % 3 == 2 }
            #expect(feature.counts.started == 5)
            #expect(feature.counts.failed == failures.count)
            #expect(feature.counts.completed == 5 - failures.count)
            let lastFailed = (number * 5 + 4) % 3 == 2
            #expect(feature.phase == (lastFailed ? .failed : .loaded))
            #expect(feature.lastError == (lastFailed ? "error \(number * 5 + 4)" : nil))
            #expect(feature.currentTask == nil)
        }
        // Features are listed in name order (UTF-8), not numeric order.
        let names = models.sync.features.map(\.feature)
        #expect(names == names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    @Test func refreshesFromEverySourceAndKindFollowTheThrottles() throws {
        let count = 3_000
        let models = Self.models(try Self.events(.refreshes, count: count))
        // SPEC §5, simulated on whole seconds: requests 7 s apart, sources in turn, observer kinds in turn.
        let sources = RefreshSource.allCases
        var lastPerformed: Int?
        var lastObserver: [SampleKind: Int] = [:]
        var counts: [String: Int] = [:]
        var signal = 0
        var lastPerformedIndex = -1
        var pending = false
        for index in 0..<count {
            let at = index * 7
            let source = sources[index % sources.count]
            var outcome: RefreshOutcome
            switch source {
            case .pullToRefresh: outcome = .performed
            case .backgroundDelivery: outcome = .cacheInvalidated
            case .healthKitObserver, .foreground:
                outcome = .performed
                if source == .healthKitObserver {
                    let kind = SampleKind.allCases[(index / sources.count) % SampleKind.allCases.count]
                    if let last = lastObserver[kind], at - last < 60 {
                        outcome = .throttled
                    } else {
                        lastObserver[kind] = at
                    }
                }
                if outcome == .performed, let last = lastPerformed, at - last < 60 { outcome = .throttled }
            }
            if outcome == .performed {
                lastPerformed = at
                signal += 1
                lastPerformedIndex = index
                pending = false
            } else if outcome == .cacheInvalidated {
                pending = true
            }
            counts["\(source.rawValue) \(outcome.rawValue)", default: 0] += 1
        }
        let refresh = models.sync.refresh
        #expect(refresh.refreshSignal == signal)
        #expect(refresh.pendingInvalidation == pending)
        #expect(refresh.lastRefreshAt?.epochSeconds == ExtremeInput.epoch(Self.day, minute: 0) + Int64(lastPerformedIndex) * 7)
        #expect(Dictionary(uniqueKeysWithValues: refresh.counts.map { ("\($0.source.rawValue) \($0.outcome.rawValue)", $0.count) }) == counts)
    }

    @Test func aSampleCorrectedThousandsOfTimesCountsOnlyItsLastVersion() throws {
        let count = 5_000
        let models = Self.models(try Self.events(.corrections, count: count))
        #expect(models.readiness.days.count == 1)
        #expect(models.readiness.days.first?.hrv == 20 + Double(count - 1) / 1000)
        #expect(models.engine.samples.count == 1)
        // Re-sending any earlier version is not a correction: the decider finds it among thousands.
        var state = IngestState()
        for (seq, event) in try Self.events(.corrections, count: 40).enumerated() {
            state.evolve(with: RecordedEvent(seq: seq + 1, id: "x\(seq)", recordedAt: event.recordedAt, event: event.event))
        }
        for index in [0, 3, 7, 8, 20, 39] {
            let again = try InputParser.parse(ExtremeInput.lines(.corrections, count: 40, seed: 1)[index])
            #expect(state.decide(again).outcome == .alreadyAppended, "version \(index)")
        }
        let new = try InputParser.parse(ExtremeInput.lines(.corrections, count: 41, seed: 1)[40])
        #expect(state.decide(new).outcome == .appended)
    }

    @Test func oneCrowdedDayWithDeletionsFromItsMiddle() throws {
        let count = 3_000
        let models = Self.models(try Self.events(.oneDay, count: count))
        let samples = count * 4 / 5
        var hrv: [Double] = [], rhr: [Double] = [], phone = 0.0, watch = 0.0
        var mass: (minute: Int, index: Int, value: Double)?
        var workouts = 0, minutes = 0.0, running = 0
        for index in 0..<samples where index % 4 != 1 {
            let minute = (index * 13) % 1440
            switch index % 6 {
            case 0: hrv.append(Double(30 + (index * 7) % 50))
            case 1: rhr.append(Double(45 + index % 30))
            case 2: phone += Double(index % 200)
            case 3: watch += Double(index % 190)
            case 4:
                if mass.map({ minute >= $0.minute }) ?? true { mass = (minute, index, 70 + Double(index % 100) / 10) }
            default:
                workouts += 1
                minutes += Double(1 + index % 30)
                if (index / 6) % 3 == 0 { running += 1 }
            }
        }
        func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }
        let day = try #require(models.readiness.days.first)
        #expect(models.readiness.days.count == 1 && day.date == Self.day)
        #expect(abs((day.hrv ?? 0) - mean(hrv)) < 1e-9 && abs((day.rhr ?? 0) - mean(rhr)) < 1e-9)
        let week = try #require(models.weekly.weeks.first)
        #expect(week.totals.steps == max(phone, watch))
        #expect(week.totals.workouts == workouts && week.totals.durationMinutes == minutes)
        #expect(week.byActivity.map(\.activityType) == ["rowing", "running"])
        #expect(week.byActivity.map(\.workouts) == [workouts - running, running])
        #expect(models.trends.trend(.bodyMass)?.series.values == [mass?.value ?? -1])
    }

    @Test func tensOfThousandsOfOverlappingSleepIntervalsUniteByTheMinute() throws {
        let count = 20_000
        let models = Self.models(try Self.events(.sleepOverlap, count: count))
        // Every interval is on whole minutes after 22:00: mark the covered minutes.
        var covered = [Bool](repeating: false, count: 540 + 91)
        let seed = ExtremeInput.sleepSeed(1)
        for index in 0..<count {
            let (start, end) = ExtremeInput.sleepInterval(index, seed: seed)
            for minute in start..<end { covered[minute] = true }
        }
        let expected = Double(covered.filter { $0 }.count)
        #expect(models.readiness.days.count == 1)
        #expect(models.readiness.days.first?.sleepMinutes == expected)
        #expect(models.readiness.days.first?.date == Self.day)
        // The read models unite packed rows from their numbers; explain's full path agrees.
        let full = try #require(models.engine.dailyValues(on: Self.day)?.sleep)
        #expect(full.minutes == expected && full.samples.count == count)
    }

    @Test func packedSleepUnionsEqualTheGeneralOnesOnAGeneratedLog() throws {
        var state = IngestState()
        var events: [RecordedEvent] = []
        for line in SyntheticHealthData(days: 120, seed: 7).lines() {
            guard let command = try? InputParser.parse(line) else { continue }
            for event in state.decide(command).events {
                let recorded = RecordedEvent(seq: events.count + 1, id: "e-\(events.count + 1)",
                                             recordedAt: Timestamp(epochSeconds: 1_800_000_000, offsetSeconds: 0), event: event)
                state.evolve(with: recorded)
                events.append(recorded)
            }
        }
        var store = SampleStore()
        store.apply(EventBatch(events), after: 0)
        let model = store.modelDailyValues()
        #expect(model.count == store.days.count && model.count > 100)
        var nights = 0
        for values in model {
            let full = store.dailyValues(on: values.date)?.sleep
            #expect(values.sleep?.minutes == full?.minutes, "\(values.date)")
            #expect(values.sleep?.union == full?.union, "\(values.date)")
            #expect(values.sleep?.basis == full?.basis, "\(values.date)")
            if full != nil { nights += 1 }
        }
        #expect(nights > 100)
    }

    @Test func deletionAndReingestRoundsKeepTheLastValueOfEach() throws {
        let count = 4_000
        let models = Self.models(try Self.events(.deleteReingest, count: count))
        var value = (0..<10).map { 25 + Double($0) }
        var lastSeq = Array(1...10)
        var seq = 10
        var round = 0
        while seq + 2 <= count {
            seq += 2
            value[round % 10] = 30 + Double(round) / 1000
            lastSeq[round % 10] = seq
            round += 1
        }
        // The mean sums in seq order of the current versions.
        let ordered = (0..<10).sorted { lastSeq[$0] < lastSeq[$1] }.map { value[$0] }
        #expect(models.readiness.days.count == 1)
        #expect(models.readiness.days.first?.hrv == ordered.reduce(0, +) / 10)
        #expect(models.engine.samples.count == 10)
    }

    @Test func stringsAtTheirLimitsAreKeptWhole() throws {
        let count = 1_500
        let events = try Self.events(.longStrings, count: count)
        let models = Self.models(events)
        #expect(models.readiness.sleepTargetMinutes == 450)
        // 5 lines of limits (a profile with 20 000 unknown members, four lines near 1 MiB), then samples.
        let samples = count - 5
        var days = Set<Int>(), workouts = 0
        var hrvByDay: [Int: [Double]] = [:]
        for index in 0..<samples {
            let day = index % 365
            days.insert(day)
            if index % 50 == 49 {
                workouts += 1
            } else if index % 2 == 0 {
                hrvByDay[day, default: []].append(Double(30 + (index * 7) % 50))
            }
        }
        #expect(models.readiness.days.count == days.count)
        #expect(models.weekly.weeks.reduce(0) { $0 + $1.totals.workouts } == workouts)
        let first = try #require(models.readiness.days.first)
        let values = try #require(hrvByDay[0])
        #expect(abs((first.hrv ?? 0) - values.reduce(0, +) / Double(values.count)) < 1e-9)
        #expect(models.sync.refresh.count(.backgroundDelivery, .cacheInvalidated) == 4)
        if case .profileUpdated = events[0].payload {
            #expect(events[0].event.extra.members.count == 20_000)
        } else {
            Issue.record("expected the profile line first")
        }
        let longest = events.compactMap { event -> Int? in
            guard case .sampleIngested(let sample) = event.payload else { return nil }
            return sample.id.utf8.count + sample.source.utf8.count
        }
        #expect(longest.allSatisfy { $0 == 512 })
    }
}
