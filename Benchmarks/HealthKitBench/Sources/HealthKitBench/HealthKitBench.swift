// HealthKitBench MODE N LOG [ARG]
//
//   lines N FILE        write the N samples as `ingest` JSON lines to FILE
//   backfill N LOG      sync the N samples from the synthetic source into LOG (a new log), print seconds
//   store-only N LOG    append the same N samples through DuneStore.append in pages of the same size,
//                       without the engine: the store's own per-sample state, for the memory split
//   wake LOG K          open the store on LOG (already backfilled), then K times: 10 new hrv samples,
//                       one observer wake answered by the engine; print p50 and p99 of wake → completion
//
// The samples: a decade (3,650 days) of hrv, resting heart rate, steps, body mass, sleep and
// workouts, N in all, computed from their index (the source holds none of them), in six types.
import DuneHealthKit
import Foundation
import DuneProjections
import Synchronization

@main
struct HealthKitBench {
    static let types: [SampleKind] = [.hrv, .restingHeartRate, .stepCount, .bodyMass, .sleep, .workout]
    static let pageSize = 1000

    static func main() async throws {
        let arguments = CommandLine.arguments
        if arguments.count >= 4, arguments[1] == "wake" {
            try await wake(path: arguments[2], times: Int(arguments[3]) ?? 200)
            return
        }
        guard arguments.count >= 4, let count = Int(arguments[2]) else {
            print("usage: HealthKitBench lines|backfill|store-only N PATH | wake LOG K")
            return
        }
        let path = arguments[3]
        switch arguments[1] {
        case "lines": try writeLines(count: count, path: path)
        case "backfill": try await backfill(count: count, path: path)
        case "store-only": try await storeOnly(count: count, path: path)
        default: print("unknown mode \(arguments[1])")
        }
    }

    // MARK: - The samples

    /// Sample `index` of `count`: its type is index % 6, its time spread over 3,650 days.
    static func sample(_ index: Int, of count: Int) -> SampleInput {
        let type = types[index % types.count]
        let seconds = Int64(index) * (3650 * 86_400) / Int64(max(count, 1))
        let start = Timestamp(epochSeconds: 1_420_070_400 + seconds, offsetSeconds: 3600)
        let id = "s-\(index)"
        let value = Double(index % 97)
        switch type {
        case .hrv: return SampleInput(id: id, start: start, end: start.adding(seconds: 60), source: "Apple Watch", reading: .hrv(20 + value, .milliseconds))
        case .restingHeartRate: return SampleInput(id: id, start: start, end: start.adding(seconds: 60), source: "Apple Watch", reading: .restingHeartRate(45 + value / 4, .beatsPerMinute))
        case .stepCount: return SampleInput(id: id, start: start, end: start.adding(seconds: 600), source: "iPhone", reading: .stepCount(100 + value * 10, .count))
        case .bodyMass: return SampleInput(id: id, start: start, end: start, source: "Scale", reading: .bodyMass(70 + value / 10, .kilograms))
        case .sleep: return SampleInput(id: id, start: start, end: start.adding(seconds: 1800), source: "Apple Watch", reading: .sleep(.asleepCore))
        default:
            return SampleInput(id: id, start: start, end: start.adding(seconds: 1800), source: "Apple Watch",
                               reading: .workout(WorkoutInput(activityType: "running", energy: 300 + value, energyUnit: .kilocalories,
                                                              distance: 5 + value / 10, distanceUnit: .kilometers)))
        }
    }

    /// The same sample as an `ingest` line.
    static func line(_ index: Int, of count: Int) -> String {
        let input = sample(index, of: count)
        var text = #"{"type":"sample","kind":"\#(input.kind.rawValue)","id":"\#(input.id)","start":"\#(input.start.text)","end":"\#(input.end.text)","source":"\#(input.source)""#
        switch input.reading {
        case .hrv(let value, _): text += #","value":\#(value),"unit":"ms""#
        case .restingHeartRate(let value, _): text += #","value":\#(value),"unit":"bpm""#
        case .stepCount(let value, _): text += #","value":\#(value),"unit":"count""#
        case .bodyMass(let value, _): text += #","value":\#(value),"unit":"kg""#
        case .sleep: text += #","value":"asleepCore""#
        case .workout(let workout):
            text += #","activityType":"running","energy":\#(workout.energy ?? 0),"energyUnit":"kcal","distance":\#(workout.distance ?? 0),"distanceUnit":"km""#
        default: break
        }
        return text + "}\n"
    }

    static func writeLines(count: Int, path: String) throws {
        var text = ""
        text.reserveCapacity(count * 200)
        for index in 0..<count { text += line(index, of: count) }
        try text.write(toFile: path)
    }

    // MARK: - Runs

    static func backfill(count: Int, path: String) async throws {
        let store = try await DuneStore.open(at: path, options: DuneStore.Options(keepsSnapshots: false))
        let engine = HealthSyncEngine(store: store, source: DecadeSource(count: count), options: HealthSyncOptions(pageSize: pageSize))
        let clock = ContinuousClock()
        let started = clock.now
        var samples = 0
        for type in types {
            let result = try await engine.sync(type)
            samples += result.appended
        }
        let elapsed = clock.now - started
        await store.close()
        print("backfill \(samples) samples \(seconds(elapsed)) s")
    }

    static func storeOnly(count: Int, path: String) async throws {
        let store = try await DuneStore.open(at: path, options: DuneStore.Options(keepsSnapshots: false))
        let clock = ContinuousClock()
        let started = clock.now
        for (typeIndex, _) in types.enumerated() {
            var index = typeIndex
            while index < count {
                var page: [StoreInput] = []
                while page.count < pageSize, index < count {
                    page.append(.sample(sample(index, of: count)))
                    index += types.count
                }
                _ = try await store.append(page)
            }
        }
        let elapsed = clock.now - started
        await store.close()
        print("store-only \(count) samples \(seconds(elapsed)) s")
    }

    static func wake(path: String, times: Int) async throws {
        let store = try await DuneStore.open(at: path, options: DuneStore.Options(keepsSnapshots: false))
        let source = WakeSource()
        let engine = HealthSyncEngine(store: store, source: source, options: HealthSyncOptions(pageSize: pageSize))
        _ = await store.state  // the read models are current, as in an app that shows them
        var durations: [Double] = []
        var firstWrite: Double?
        let clock = ContinuousClock()
        // Round 0 is the store's first write since it opened: it loads the deciders' state (deferred
        // at open); reported apart, the p50/p99 are over the rounds after it.
        for round in 0...times {
            let first = Timestamp(epochSeconds: 1_735_689_600 + Int64(round) * 600, offsetSeconds: 3600)
            let samples = (0..<10).map { offset in
                SampleInput(id: "wake-\(round)-\(offset)", start: first.adding(seconds: Int64(offset) * 30),
                            end: first.adding(seconds: Int64(offset) * 30 + 20), source: "Apple Watch", reading: .restingHeartRate(50, .beatsPerMinute))
            }
            await source.add(samples)
            let done = Mutex(false)
            let wake = ObserverWake(type: .restingHeartRate, isBackgroundDelivery: true) { done.withLock { $0 = true } }
            let started = clock.now
            let result = await engine.handle(wake)
            let elapsed = clock.now - started
            guard done.withLock({ $0 }), result.appended == 10 else {
                print("wake \(round): \(result)")
                return
            }
            if round == 0 { firstWrite = seconds(elapsed) } else { durations.append(seconds(elapsed)) }
        }
        await store.close()
        durations.sort()
        let p50 = durations[durations.count / 2]
        let p99 = durations[min(durations.count - 1, Int((Double(durations.count) * 0.99).rounded(.up)) - 1)]
        func ms(_ value: Double) -> String { String(format: "%.1f", value * 1000) }
        print("\(times) wakes: p50 \(ms(p50)) ms, p99 \(ms(p99)) ms, max \(ms(durations.last ?? 0)) ms; "
              + "the first write after the open (loads the deciders' state): \(ms(firstWrite ?? 0)) ms")
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// A decade of samples computed from their position: the source holds none of
/// them, so the process's memory is the store's and the engine's.
struct DecadeSource: HealthSampleSource {
    let count: Int

    func changes(of type: SampleKind, after anchor: SyncAnchor?, limit: Int) async throws -> SyncPage {
        guard let typeIndex = HealthKitBench.types.firstIndex(of: type) else { return SyncPage(anchor: SyncAnchor("end")) }
        // Positions of this type: typeIndex, typeIndex + 6, …; the anchor is the next position's ordinal.
        let from = anchor.flatMap { Int($0.text) } ?? 0
        var page = SyncPage(anchor: SyncAnchor(String(from)))
        var ordinal = from
        while page.added.count < limit {
            let index = typeIndex + ordinal * HealthKitBench.types.count
            guard index < count else { break }
            page.added.append(HealthKitBench.sample(index, of: count))
            ordinal += 1
        }
        page.anchor = SyncAnchor(String(ordinal))
        return page
    }

    func sampleIDs(of type: SampleKind, on days: ClosedRange<DayKey>) async throws -> Set<String> { [] }

    func startObserving(_ types: [SampleKind], onChange: @escaping @Sendable (ObserverWake) -> Void) async throws {}

    func stopObserving() async {}
}

extension String {
    /// Writes the string to `path` (a benchmark's scratch file).
    func write(toFile path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(utf8)) else { throw BenchError.cannotWrite(path) }
    }
}

enum BenchError: Error { case cannotWrite(String) }

/// The source of the wakes: the samples added since the last query, then an empty page.
actor WakeSource: HealthSampleSource {
    private var pending: [SampleInput] = []
    private var position = 0

    func add(_ samples: [SampleInput]) {
        pending += samples
    }

    func changes(of type: SampleKind, after anchor: SyncAnchor?, limit: Int) async throws -> SyncPage {
        let page = Array(pending.prefix(limit))
        pending.removeFirst(page.count)
        position += page.count
        return SyncPage(anchor: SyncAnchor("wake-\(position)"), added: page)
    }

    func sampleIDs(of type: SampleKind, on days: ClosedRange<DayKey>) async throws -> Set<String> { [] }

    func startObserving(_ types: [SampleKind], onChange: @escaping @Sendable (ObserverWake) -> Void) async throws {}

    func stopObserving() async {}
}
