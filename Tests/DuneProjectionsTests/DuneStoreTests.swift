import Foundation
import Testing
import DuneEvents
import DuneFixtures
@testable import DuneProjections
import DuneTools

/// `DuneStore` as an app uses it: typed appends, outcomes, read models equal to
/// a rebuild, updates, cancellation.
@Suite struct DuneStoreTests {
    // MARK: - Fixtures

    /// A fresh directory for one test, removed afterwards.
    static func withDirectory(_ body: (String) async throws -> Void) async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("DuneStoreTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        try await body(url.path)
    }

    static func time(_ text: String) -> Timestamp {
        (try? Timestamp(parsing: text)) ?? Timestamp(epochSeconds: 0, offsetSeconds: 0)
    }

    static func hrv(_ id: String, _ start: String, _ value: Double) -> StoreInput {
        let start = time(start)
        return .sample(SampleInput(id: id, start: start, end: start.adding(seconds: 60), source: "Apple Watch",
                                   reading: .hrv(value, .milliseconds)))
    }

    /// The typed form of a parsed input line: what an app would have built;
    /// `nil` for a unit with no typed form (a parsed line has none).
    static func storeInput(_ command: IngestCommand) -> StoreInput? {
        switch command.intent {
        case .sample(let sample):
            return sample.input.map { .sample($0, eventID: command.eventID) }
        case .deleteSample(let deletion): return .sampleDeletion(deletion, eventID: command.eventID)
        case .refresh(let request): return .refresh(request, eventID: command.eventID)
        case .task(let task): return .task(task, eventID: command.eventID)
        case .profile(let profile): return .profile(profile, eventID: command.eventID)
        case .syncAnchor: return nil
        }
    }

    /// The files `rebuild` would write for the log at `path`.
    static func rebuiltFiles(_ path: String) async throws -> [ReadModelFile] {
        var engine = ReadModelEngine()
        try await Replayer.replay(try LogReader(path: path), into: &engine)
        return await engine.state().files()
    }

    static func files(of store: DuneStore) async -> [ReadModelFile] {
        [ReadModelFile(projection: .readiness, bytes: await store.readiness.fileBytes),
         ReadModelFile(projection: .trends, bytes: await store.trends.fileBytes),
         ReadModelFile(projection: .weeklyStats, bytes: await store.weeklyStats.fileBytes),
         ReadModelFile(projection: .syncStatus, bytes: await store.syncStatus.fileBytes)]
    }

    // MARK: - Appends and read models

    @Test func typedAppendsGiveOutcomesAndTheReadModelsOfARebuild() async throws {
        try await Self.withDirectory { directory in
            let path = directory + "/events.jsonl"
            let store = try await DuneStore.open(at: path)
            let inputs = SyntheticHealthData(days: 40, seed: 3).lines().compactMap { try? InputParser.parse($0) }.compactMap(Self.storeInput)
            var outcomes: [AppendOutcome] = []
            for start in stride(from: 0, to: inputs.count, by: 250) {
                outcomes += try await store.append(Array(inputs[start..<min(inputs.count, start + 250)]))
            }
            #expect(outcomes.count == inputs.count)
            let unstored = outcomes.filter { !$0.isStored }
            #expect(unstored.isEmpty, "\(unstored.prefix(3))")
            let appendedSeqs = outcomes.compactMap(\.appendedSeq)
            #expect(appendedSeqs == appendedSeqs.sorted() && appendedSeqs.count > 1000)
            #expect(await store.throughSeq == appendedSeqs.last)
            let rebuilt = try await Self.rebuiltFiles(path)
            #expect(await Self.files(of: store) == rebuilt)
            await store.close()
            // Opening again replays the log into the same models.
            let reopened = try await DuneStore.open(at: path)
            let rebuiltAgain = try await Self.rebuiltFiles(path)
            #expect(await Self.files(of: reopened) == rebuiltAgain)
            await reopened.close()
        }
    }

    @Test func rejectedInputsCarryCodeFieldAndIngestsReasonAndNeverReachTheLog() async throws {
        try await Self.withDirectory { directory in
            let path = directory + "/events.jsonl"
            let store = try await DuneStore.open(at: path)
            let start = Self.time("2026-03-02T06:00:00+01:00")
            let outcomes = try await store.append([
                Self.hrv("a", "2026-03-02T06:00:00+01:00", 900),
                .sample(SampleInput(id: "b", start: start, end: start, source: "Scale", reading: .bodyMass(80, .grams))),
                .sample(SampleInput(id: "c", start: start, end: start.adding(seconds: -60), source: "Watch", reading: .sleep(.asleepCore))),
                .profile(ProfileUpdate(sleepTargetMinutes: 0, at: start)),
                .sample(SampleInput(id: "", start: start, end: start, source: "Scale", reading: .bodyMass(80, .kilograms))),
                .refresh(RefreshRequest(source: .healthKitObserver, kind: nil, at: start)),
                .task(TaskCommand(task: "t1", feature: "readiness", phase: .started, at: start.adding(seconds: 200 * 365 * 86_400))),
                .sample(SampleInput(id: "e", start: start, end: start, source: "Scale", reading: .bodyMass(.nan, .kilograms))),
                Self.hrv("d", "2026-03-02T06:00:00+01:00", 48.5),
            ])
            #expect(outcomes == [
                .rejected(Rejection(.outOfRange, field: "value", "hrv 900 ms is outside the plausible range 1–500 ms")),
                .rejected(Rejection(.outOfRange, field: "value", "bodyMass 80 g (0.08 kg) is outside the plausible range 1–700 kg")),
                .rejected(Rejection(.endBeforeStart, field: "end", "end 2026-03-02T05:59:00+01:00 is before start 2026-03-02T06:00:00+01:00")),
                .rejected(Rejection(.outOfRange, field: "sleepTargetMinutes", "field \"sleepTargetMinutes\" is 0; expected more than 0 and at most 1440")),
                .rejected(Rejection(.emptyText, field: "id", "field \"id\" is empty")),
                .rejected(Rejection(.missingField, field: "kind",
                                    "field \"kind\" is required for source healthKitObserver (the sample kind the observer fired for)")),
                .rejected(Rejection(.timestampOutsideWindow, field: "at",
                                    "field \"at\": timestamp \"2226-01-13T06:00:00+01:00\" is at or after 2100-01-01T00:00:00Z, outside the accepted window [1900-01-01T00:00:00Z, 2100-01-01T00:00:00Z); check the device clock and send the sample's real date")),
                .rejected(Rejection(.notFinite, field: "value", "field \"value\" is not a number; expected a finite number")),
                .appended(seq: 1),
            ])
            await store.close()
            let seqs = try LogReader(path: path).events().map(\.seq)
            #expect(seqs == [1])
        }
    }

    /// Appending a refresh says what the coordinator decided, as its stored event and the sync status record it.
    @Test func appendingARefreshReturnsTheCoordinatorsDecision() async throws {
        try await Self.withDirectory { directory in
            let store = try await DuneStore.open(at: directory + "/events.jsonl")
            let start = Self.time("2026-03-02T08:00:00Z")
            let outcomes = try await store.append([
                .refresh(RefreshRequest(source: .foreground, kind: nil, at: start)),
                .refresh(RefreshRequest(source: .foreground, kind: nil, at: start.adding(seconds: 10))),
                .refresh(RefreshRequest(source: .backgroundDelivery, kind: nil, at: start.adding(seconds: 20))),
                .refresh(RefreshRequest(source: .pullToRefresh, kind: nil, at: start.adding(seconds: 30))),
                Self.hrv("a", "2026-03-02T06:00:00Z", 48),
            ])
            #expect(outcomes == [
                .refreshed(seq: 1, decision: .performed(refreshSignal: 1)),
                .refreshed(seq: 2, decision: .throttled(reason: .coordinatorThrottle)),
                .refreshed(seq: 3, decision: .cacheInvalidated),
                .refreshed(seq: 4, decision: .performed(refreshSignal: 2)),
                .appended(seq: 5),
            ])
            #expect(outcomes.allSatisfy { $0.isStored })
            #expect(await store.state.syncStatus.refresh.refreshSignal == 2)
            await store.close()
        }
    }

    @Test func reAppendingIsIdempotentAndContentIdentityIsOnParsedValues() async throws {
        try await Self.withDirectory { directory in
            let path = directory + "/events.jsonl"
            let store = try await DuneStore.open(at: path)
            // 07:12:00.5 UTC, built from a number as an app holding a `Date` would.
            let start = Timestamp(secondsSince1970: 1_772_435_520.5, offsetSeconds: 0)
            #expect(start.text == "2026-03-02T07:12:00.500Z")
            let sample = StoreInput.sample(SampleInput(id: "hrv-1", start: start, end: start.adding(seconds: 60),
                                                       source: "Apple Watch", reading: .hrv(48.25, .milliseconds)))
            #expect(try await store.append(sample) == .appended(seq: 1))
            #expect(try await store.append(sample) == .alreadyAppended)
            let keyed = StoreInput.refresh(RefreshRequest(source: .pullToRefresh, kind: nil, at: start), eventID: "r-1")
            #expect(try await store.append(keyed) == .refreshed(seq: 2, decision: .performed(refreshSignal: 1)))
            #expect(try await store.append(keyed) == .alreadyAppended)
            let reused = StoreInput.refresh(RefreshRequest(source: .foreground, kind: nil, at: start), eventID: "r-1")
            guard case .conflict(let reason) = try await store.append(reused) else {
                Issue.record("expected a conflict")
                return
            }
            #expect(reason.contains("r-1"))
            await store.close()

            // The same sample as an `ingest` line, spelled `+00:00` and `.5` → `.500` differently.
            let log = try EventLog(path: path)
            let line = #"{"type":"sample","kind":"hrv","id":"hrv-1","start":"2026-03-02T07:12:00.5+00:00","end":"2026-03-02T07:13:00.500+00:00","value":48.25,"unit":"ms","source":"Apple Watch"}"#
            let result = try await log.ingest([try InputParser.parse(line)])
            #expect(result.results.map(\.outcome) == [.alreadyAppended])
            // Spelled differently but a different instant is a correction, not the same content.
            let later = line.replacingOccurrences(of: "07:12:00.5+00:00", with: "07:12:00.501+00:00")
            #expect(try await log.ingest([try InputParser.parse(later)]).results.map(\.outcome) == [.appended])
            await log.close()
        }
    }

    /// `ingest`'s fast byte path and the store's typed path store the same events for the same input.
    @Test func ingestAndTheStoreStoreTheSameEvents() async throws {
        try await Self.withDirectory { directory in
            let lines = SyntheticHealthData(days: 60, seed: 7).lines()
            let input = directory + "/input.jsonl"
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: input))

            let ingested = directory + "/ingested.jsonl"
            let log = try EventLog(path: ingested)
            var session = IngestSession(log: log, batchSize: 1000, onRejection: { _ in })
            let reader = try InputLineReader(path: input)
            while let line = try reader.next() { try await session.submit(line: line, input: "input") }
            let summary = try await session.finish()
            await log.close()
            #expect(summary.rejected == 0 && summary.appended > 5000)

            let stored = directory + "/stored.jsonl"
            let store = try await DuneStore.open(at: stored)
            let inputs = lines.map { line -> StoreInput? in (try? InputParser.parse(line)).flatMap(Self.storeInput) }
            let batch = inputs.compactMap { $0 }
            #expect(batch.count == inputs.count)
            for start in stride(from: 0, to: batch.count, by: 1000) {
                _ = try await store.append(Array(batch[start..<min(batch.count, start + 1000)]))
            }
            await store.close()

            let a = try LogReader(path: ingested).events()
            let b = try LogReader(path: stored).events()
            #expect(a.count == b.count)
            #expect(a.map(\.seq) == b.map(\.seq))
            // A typed input has no unknown fields to keep: the events are the same but for `extra`.
            func withoutExtra(_ event: RecordedEvent) -> Event { Event(event.payload, eventID: event.event.eventID) }
            #expect(a.map(withoutExtra) == b.map(withoutExtra))
            #expect(a.contains { !$0.event.extra.members.isEmpty } && b.allSatisfy { $0.event.extra.members.isEmpty })
        }
    }

    // MARK: - Updates

    @Test func everySubscriberGetsUpdatesAndACancelledOneIsDropped() async throws {
        try await Self.withDirectory { directory in
            let store = try await DuneStore.open(at: directory + "/events.jsonl")
            let hub = store.updates.hub
            let first = Task { () -> [StoreUpdate] in
                var seen: [StoreUpdate] = []
                for await update in store.updates {
                    seen.append(update)
                    if update.throughSeq >= 3 { break }
                }
                return seen
            }
            let second = Task { () -> Int in
                var count = 0
                for await _ in store.updates { count += 1 }
                return count
            }
            while hub.subscriberCount < 2 { await Task.yield() }
            second.cancel()
            #expect(await second.value == 0)
            #expect(hub.subscriberCount == 1)

            _ = try await store.append(Self.hrv("a", "2026-03-02T06:00:00Z", 50))
            _ = try await store.append(.refresh(RefreshRequest(source: .pullToRefresh, kind: nil, at: Self.time("2026-03-02T06:00:00Z"))))
            _ = try await store.append(Self.hrv("a", "2026-03-02T06:00:00Z", 50))  // already appended: no update
            _ = try await store.append(.profile(ProfileUpdate(sleepTargetMinutes: 420, at: Self.time("2026-03-02T06:00:00Z"))))
            let seen = await first.value
            // However the appends and the subscriber interleaved, updates arrive in order, merged
            // when the subscriber was behind, and together they cover every append.
            #expect(seen.map(\.throughSeq) == seen.map(\.throughSeq).sorted())
            #expect(seen.last?.throughSeq == 3)
            #expect(seen.reduce(into: Set<ProjectionName>()) { $0.formUnion($1.changedModels) }
                    == [.readiness, .trends, .weeklyStats, .syncStatus])
            await store.close()
        }
    }

    @Test func aSubscriberThatIsBehindGetsOneMergedUpdate() async throws {
        try await Self.withDirectory { directory in
            let store = try await DuneStore.open(at: directory + "/events.jsonl")
            var iterator = store.updates.makeAsyncIterator()
            // Registered before the appends, but not waiting: the appends must not wait for it.
            _ = try await store.append(.refresh(RefreshRequest(source: .pullToRefresh, kind: nil, at: Self.time("2026-03-02T06:00:00Z"))))
            _ = try await store.append(Self.hrv("a", "2026-03-02T06:00:00Z", 50))
            #expect(await iterator.next() == StoreUpdate(throughSeq: 2, changedModels: [.syncStatus, .readiness, .trends, .weeklyStats]))
            await store.close()
            #expect(await iterator.next() == nil)
        }
    }

    // MARK: - Suspend, resume, cancellation

    @Test func aCancelledOpenThrowsCancellationAndReleasesTheLock() async throws {
        try await Self.withDirectory { directory in
            let path = directory + "/events.jsonl"
            let seed = try await DuneStore.open(at: path)
            _ = try await seed.append(Self.hrv("a", "2026-03-02T06:00:00Z", 50))
            await seed.close()
            let opening = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await DuneStore.open(at: path)
            }
            await #expect(throws: CancellationError.self) { try await opening.value }
            // Nothing holds the lock: a new store opens at once.
            let store = try await DuneStore.open(at: path)
            #expect(await store.throughSeq == 1)
            await store.close()
        }
    }

    @Test func anIdleStoreHoldsNoLockAndAnotherWriterGetsItAtOnce() async throws {
        try await Self.withDirectory { directory in
            let path = directory + "/events.jsonl"
            let store = try await DuneStore.open(at: path)
            _ = try await store.append(Self.hrv("a", "2026-03-02T06:00:00Z", 50))
            // Another process would ask with LOCK_NB: another open file description, refused at once if held.
            let other = try LogFile.openForAppend(path: path, create: false, lock: .deferred)
            #expect(try other.tryLock())
            other.unlock()
            try other.close()
            let again = try await DuneStore.open(at: path)
            #expect(try await again.append(Self.hrv("b", "2026-03-03T06:00:00Z", 51)) == .appended(seq: 2))
            #expect(await store.throughSeq == 2)
            await again.close()
            await store.close()
        }
    }
}

extension Sample {
    /// The sample as an app would have built it: values and units as written,
    /// before conversion; `nil` when a unit has no typed form.
    var input: SampleInput? {
        let inputReading: SampleInput.Reading
        switch reading {
        case .quantity(let quantity):
            let value = quantity.inputValue, unit = quantity.inputUnit
            switch kind {
            case .hrv: guard let typed = HRVUnit(rawValue: unit) else { return nil }; inputReading = .hrv(value, typed)
            case .restingHeartRate:
                guard let typed = HeartRateUnit(rawValue: unit) else { return nil }; inputReading = .restingHeartRate(value, typed)
            case .stepCount: guard let typed = StepCountUnit(rawValue: unit) else { return nil }; inputReading = .stepCount(value, typed)
            case .bodyMass: guard let typed = MassUnit(rawValue: unit) else { return nil }; inputReading = .bodyMass(value, typed)
            case .bodyFatPercentage:
                guard let typed = BodyFatUnit(rawValue: unit) else { return nil }; inputReading = .bodyFatPercentage(value, typed)
            case .bodyMassIndex:
                guard let typed = BodyMassIndexUnit(rawValue: unit) else { return nil }; inputReading = .bodyMassIndex(value, typed)
            case .sleep, .workout: return nil
            }
        case .sleep(let stage): inputReading = .sleep(stage)
        case .workout(let workout):
            var typed = WorkoutInput(activityType: workout.activityType, volumeKg: workout.volumeKg)
            if let energy = workout.inputEnergy {
                guard let unit = EnergyUnit(rawValue: energy.unit) else { return nil }
                typed.energy = energy.value
                typed.energyUnit = unit
            }
            if let distance = workout.inputDistance {
                guard let unit = DistanceUnit(rawValue: distance.unit) else { return nil }
                typed.distance = distance.value
                typed.distanceUnit = unit
            }
            inputReading = .workout(typed)
        }
        return SampleInput(id: id, start: start, end: end, source: source, reading: inputReading)
    }
}

extension DuneStoreTests {
    /// Every kind in every unit, appended as values and ingested as lines: the same stored `data` bytes, line for line.
    @Test func typedAppendsStoreTheBytesIngestStoresForEveryKindAndUnit() async throws {
        try await Self.withDirectory { directory in
            let start = Self.time("2026-03-02T07:12:00.5+01:00"), end = Self.time("2026-03-02T07:42:00+01:00")
            var readings: [SampleInput.Reading] = HRVUnit.allCases.map { .hrv(48.2, $0) }
            readings += HeartRateUnit.allCases.map { .restingHeartRate(52.5, $0) }
            readings += StepCountUnit.allCases.map { .stepCount(1200, $0) }
            readings += [.bodyMass(72.35, .kilograms), .bodyMass(72_350.5, .grams), .bodyMass(180.4, .pounds)]
            readings += [.bodyFatPercentage(0.07, .fraction), .bodyFatPercentage(21.5, .percent)]
            readings += BodyMassIndexUnit.allCases.map { .bodyMassIndex(24.1, $0) }
            readings += SleepStage.allCases.map { .sleep($0) }
            for energyUnit in EnergyUnit.allCases {
                for distanceUnit in DistanceUnit.allCases {
                    readings.append(.workout(WorkoutInput(activityType: "running", energy: 512.5, energyUnit: energyUnit,
                                                          distance: 1.005, distanceUnit: distanceUnit, volumeKg: 0)))
                }
            }
            let inputs = readings.enumerated().map { index, reading in
                SampleInput(id: "K-\(index)", start: start, end: end, source: "Apple Watch", reading: reading)
            }
            let store = try await DuneStore.open(at: directory + "/typed.jsonl")
            let outcomes = try await store.append(inputs.map { StoreInput.sample($0) })
            #expect(outcomes == inputs.indices.map { .appended(seq: $0 + 1) })
            await store.close()

            func number(_ value: Double) -> String { JSONWriter.formatNumber(value) }
            let lines = inputs.map { input -> String in
                var members = #""type":"sample","kind":"\#(input.kind.rawValue)","id":"\#(input.id)","start":"\#(input.start.text)","end":"\#(input.end.text)","source":"Apple Watch""#
                switch input.reading {
                case .sleep(let stage): members += #","value":"\#(stage.rawValue)""#
                case .workout(let w):
                    members += #","activityType":"running","energy":\#(number(w.energy ?? 0)),"energyUnit":"\#(w.energyUnit.rawValue)""#
                    members += #","distance":\#(number(w.distance ?? 0)),"distanceUnit":"\#(w.distanceUnit.rawValue)","volumeKg":0"#
                case .hrv(let v, let u): members += #","value":\#(number(v)),"unit":"\#(u.rawValue)""#
                case .restingHeartRate(let v, let u): members += #","value":\#(number(v)),"unit":"\#(u.rawValue)""#
                case .stepCount(let v, let u): members += #","value":\#(number(v)),"unit":"\#(u.rawValue)""#
                case .bodyMass(let v, let u): members += #","value":\#(number(v)),"unit":"\#(u.rawValue)""#
                case .bodyFatPercentage(let v, let u): members += #","value":\#(number(v)),"unit":"\#(u.rawValue)""#
                case .bodyMassIndex(let v, let u): members += #","value":\#(number(v)),"unit":"\#(u.rawValue)""#
                }
                return "{" + members + "}"
            }
            let log = try EventLog(path: directory + "/ingested.jsonl")
            let batch = try await log.ingest(lines.map { try InputParser.parse($0) })
            #expect(batch.results.map(\.outcome) == Array(repeating: .appended, count: lines.count))
            await log.close()

            func dataObjects(_ path: String) throws -> [Substring] {
                try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { line in
                    line[line.range(of: #","data":"#)!.lowerBound..<line.range(of: #","crc":""#, options: .backwards)!.lowerBound]
                }
            }
            let typed = try dataObjects(directory + "/typed.jsonl"), ingested = try dataObjects(directory + "/ingested.jsonl")
            #expect(typed.count == readings.count)
            for (index, pair) in zip(typed, ingested).enumerated() { #expect(pair.0 == pair.1, "\(lines[index])") }
        }
    }
}
