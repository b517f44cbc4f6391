import DuneProjections
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// DuneStore as an app uses it, through its public API only. Run by
/// Benchmarks/store.sh; every mode prints one summary line on stdout
/// (`writer` and `observe` print one line per event, for store.sh to join).
///
/// `StoreBench open LOG` — `DuneStore.open` (from `LOG.snapshot` when it is
/// valid), then the first `state` read, then `close`; prints the two times
/// (wall, and the process's CPU time, which a loaded machine disturbs less).
/// `StoreBench open-replay LOG` — the same with snapshots off: a full replay,
/// and no snapshot written on close.
///
/// `StoreBench append LOG N DURABILITY [WARMUP]` — opens a store, makes WARMUP
/// single-sample appends (default 200; the first also loads the deciders'
/// state, which opening defers), then N timed ones, one call each (each takes
/// the writer lock, catches up, writes, syncs per DURABILITY, unlocks), and
/// prints p50 / p99 / max of the N calls in milliseconds.
///
/// `StoreBench writer LOG N INTERVAL_MS DURABILITY` — appends N samples, one
/// call each, INTERVAL_MS apart; after each call returns it prints
/// `appended SEQ RETURNED CALLED`: CLOCK_MONOTONIC in nanoseconds when the
/// call returned and when it was made.
///
/// `StoreBench observe LOG N [read-only]` — opens a store (read-write unless
/// `read-only`), observes `states`, prints `ready SEQ` once the first (current)
/// state arrived, then keeps observing until a state is N seqs past that one
/// (or 120 s passed), and prints `state SEQ NS` for each state received
/// (CLOCK_MONOTONIC at its arrival).
///
/// `StoreBench idle LOG SECONDS [read-only]` — opens a store, starts one
/// `for try await` observer, waits for its first state, then stays idle for
/// SECONDS and prints the process's CPU time (user + system, getrusage) over them.
///
/// Run by Benchmarks/launch.sh, one measurement per process (as a widget or
/// a background wake runs), memory from /proc/self/status (Linux):
/// `StoreBench first-state LOG read-only|read-write` — the open and the first
/// `state` read, and the resident memory (VmRSS) they added to the process.
/// `StoreBench first-append LOG` — a read-write open, then the first append
/// (which rebuilds the deciders' state: from `LOG.checkpoint`, or the whole
/// log without one, and writes the checkpoint when it was missing or behind);
/// prints its time and the peak memory (VmHWM) before and after it, then the
/// time of a second append (what every append pays: the write and its sync).
/// `StoreBench close LOG [correcting]` — a read-write open, one append (the
/// deciders' and the per-sample state loaded) — with `correcting`, also a
/// correction and a deletion of two samples half a year back, which the snapshot
/// then leaves out — then `close()` with its snapshot write; prints the peak
/// memory (VmHWM) before and after the close.
@main
struct StoreBench {
    static func milliseconds(since start: ContinuousClock.Instant) -> Double {
        milliseconds(ContinuousClock.now - start)
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    /// CLOCK_MONOTONIC in nanoseconds: one clock for every process of the machine (on Linux), so two processes' readings compare.
    static func monotonicNanoseconds() -> UInt64 {
        #if os(Linux)
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
        #else
        return DispatchTime.now().uptimeNanoseconds  // mach_absolute_time: also one clock for the machine
        #endif
    }

    /// The process's CPU time so far (user + system), in milliseconds.
    static func cpuMilliseconds() -> Double {
        var usage = rusage()
        #if os(Linux)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        func ms(_ time: timeval) -> Double { Double(time.tv_sec) * 1000 + Double(time.tv_usec) / 1000 }
        return ms(usage.ru_utime) + ms(usage.ru_stime)
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(64)
    }

    /// Writes `line` to stdout at once (unbuffered), for the script that waits for it.
    static func printFlushed(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static let usage = """
        usage: StoreBench open LOG | open-replay LOG | append LOG N fsync|batch|none [WARMUP]
                          | writer LOG N INTERVAL_MS fsync|batch|none | observe LOG N [read-only] | idle LOG SECONDS [read-only]
                          | query LOG DAYS N | first-state LOG read-only|read-write | first-append LOG | close LOG [correcting]
        """

    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 3 else { fail(usage) }
        let log = arguments[2]
        func integer(_ index: Int, _ fallback: Int) -> Int {
            guard arguments.count > index else { return fallback }
            guard let value = Int(arguments[index]), value >= 0 else { fail("not a count: \(arguments[index])\n\(usage)") }
            return value
        }
        func durability(_ index: Int) -> Durability {
            guard arguments.count > index else { return .batch }
            guard let value = Durability(rawValue: arguments[index]) else { fail("not a durability: \(arguments[index])\n\(usage)") }
            return value
        }
        func access(_ index: Int) -> DuneStore.Access {
            arguments.count > index && arguments[index] == "read-only" ? .readOnly : .readWrite
        }
        switch arguments[1] {
        case "open", "open-replay":
            try await open(log: log, keepsSnapshots: arguments[1] == "open")
        case "append":
            try await append(log: log, count: integer(3, 2000), durability: durability(4), warmUp: integer(5, 200))
        case "writer":
            try await writer(log: log, count: integer(3, 200), intervalMilliseconds: integer(4, 20), durability: durability(5))
        case "observe":
            try await observe(log: log, count: integer(3, 200), access: access(4))
        case "idle":
            try await idle(log: log, seconds: integer(3, 10), access: access(4))
        case "query":
            try await query(log: log, days: integer(3, 90), count: integer(4, 200))
        case "first-state":
            try await firstState(log: log, access: access(3))
        case "first-append":
            try await firstAppend(log: log)
        case "close":
            try await closeAfterAppend(log: log, correcting: arguments.count > 3 && arguments[3] == "correcting")
        default:
            fail("unknown mode \(arguments[1])\n\(usage)")
        }
    }

    /// `DuneStore.samples(of: .hrv, in:)` over the last `days` days of the log, `count` times: p50 / p99 per call.
    static func query(log: String, days: Int, count: Int) async throws {
        let store = try await DuneStore.open(at: log, options: DuneStore.Options(access: .readOnly))
        let state = await store.state
        guard let last = state.trends.lastDay else { fail("the log has no sample") }
        let range = last.adding(days: -(days - 1))...last
        var times: [Double] = []
        var found = 0
        for _ in 0..<count {
            let began = ContinuousClock.now
            found = await store.samples(of: .hrv, in: range).samples.count
            times.append(milliseconds(since: began))
        }
        await store.close()
        times.sort()
        print(String(format: "query hrv %d days x%d (throughSeq %d): %d samples; p50 %.3f ms, p99 %.3f ms, min %.3f ms",
                     days, count, state.throughSeq, found, times[count / 2], times[min(count - 1, count * 99 / 100)], times[0]))
    }

    static func open(log: String, keepsSnapshots: Bool) async throws {
        let cpuStart = cpuMilliseconds()
        let start = ContinuousClock.now
        let store = try await DuneStore.open(at: log, options: DuneStore.Options(keepsSnapshots: keepsSnapshots))
        let opened = ContinuousClock.now
        let cpuOpened = cpuMilliseconds()
        let state = await store.state
        let read = ContinuousClock.now
        let cpuRead = cpuMilliseconds()
        print(String(format: "open %.1f ms, first state %.1f ms, open+state %.1f ms (%d days, throughSeq %d); process CPU: open %.1f ms, first state %.1f ms",
                     milliseconds(opened - start), milliseconds(read - opened), milliseconds(read - start),
                     state.readiness.days.count, state.throughSeq, cpuOpened - cpuStart, cpuRead - cpuOpened))
        await store.close()
    }

    /// Single HRV samples on the log's last day (where an app's new samples go), ids unique to this process.
    struct Samples {
        let midnight: Timestamp
        let day: DayKey
        let prefix = "bench-\(ProcessInfo.processInfo.processIdentifier)"

        init(lastDay: DayKey?) {
            let offset: Int32 = 3600
            day = lastDay ?? DayKey(year: 2026, month: 1, day: 5)
            midnight = Timestamp(epochSeconds: Int64(day.ordinal) * 86_400 - Int64(offset), offsetSeconds: offset)
        }

        /// Sample `index`: one minute, 20 s after the previous one (4,000 fit in a day).
        func input(_ index: Int) -> StoreInput {
            let start = midnight.adding(seconds: Int64(index % 4000) * 20)
            return .sample(SampleInput(id: "\(prefix)-\(index)", start: start, end: start.adding(seconds: 60),
                                       source: "StoreBench", reading: .hrv(50, .milliseconds)))
        }
    }

    static func append(log: String, count: Int, durability: Durability, warmUp: Int) async throws {
        let store = try await DuneStore.open(at: log, options: DuneStore.Options(durability: durability))
        let samples = Samples(lastDay: await store.state.trends.lastDay)
        var first = 0.0
        for index in 0..<warmUp {
            let began = ContinuousClock.now
            guard case .appended = try await store.append(samples.input(index)) else { fail("warm-up append \(index) was not appended") }
            if index == 0 { first = milliseconds(since: began) }
        }
        var times: [Double] = []
        times.reserveCapacity(count)
        for index in warmUp..<(warmUp + count) {
            let began = ContinuousClock.now
            let outcome = try await store.append(samples.input(index))
            times.append(milliseconds(since: began))
            guard case .appended = outcome else { fail("append \(index) was not appended: \(outcome)") }
        }
        await store.close()
        times.sort()
        func percentile(_ p: Double) -> Double { times.isEmpty ? 0 : times[min(times.count - 1, Int(Double(times.count) * p))] }
        print(String(format: "append %@ x%d after %d warm-up: p50 %.3f ms, p99 %.3f ms, max %.3f ms; first warm-up call %.1f ms",
                     durability.rawValue, count, warmUp, percentile(0.5), percentile(0.99), times.last ?? 0, first))
    }

    static func writer(log: String, count: Int, intervalMilliseconds: Int, durability: Durability) async throws {
        let store = try await DuneStore.open(at: log, options: DuneStore.Options(durability: durability))
        let samples = Samples(lastDay: await store.state.trends.lastDay)
        // The first call also loads the deciders' state, which opening defers;
        // that only delays its return, from which its latency is counted.
        for index in 0..<count {
            let called = monotonicNanoseconds()
            let outcome = try await store.append(samples.input(index))
            let returned = monotonicNanoseconds()
            guard case .appended(let seq) = outcome else { fail("append \(index) was not appended: \(outcome)") }
            printFlushed("appended \(seq) \(returned) \(called)")
            try await Task.sleep(for: .milliseconds(intervalMilliseconds))
        }
        await store.close()
    }

    static func observe(log: String, count: Int, access: DuneStore.Access) async throws {
        let store = try await DuneStore.open(at: log, options: DuneStore.Options(access: access))
        let observer = Task {
            var arrivals: [(seq: Int, nanoseconds: UInt64)] = []
            var target = Int.max
            for try await state in store.states {
                let now = monotonicNanoseconds()
                if target == .max {
                    target = state.throughSeq + count
                    printFlushed("ready \(state.throughSeq)")
                } else {
                    arrivals.append((state.throughSeq, now))
                }
                if state.throughSeq >= target { break }
            }
            return arrivals
        }
        let timeout = Task {
            try await Task.sleep(for: .seconds(120))
            observer.cancel()
        }
        let arrivals = try await observer.value
        timeout.cancel()
        for arrival in arrivals { print("state \(arrival.seq) \(arrival.nanoseconds)") }
        await store.close()
    }

    static func idle(log: String, seconds: Int, access: DuneStore.Access) async throws {
        let store = try await DuneStore.open(at: log, options: DuneStore.Options(access: access))
        let (firstState, firstStateArrived) = AsyncStream.makeStream(of: Int.self)
        let observer = Task {
            var received = 0
            for try await _ in store.states {
                received += 1
                if received == 1 { firstStateArrived.yield(received) }
            }
            return received
        }
        for await _ in firstState { break }
        let cpuBefore = cpuMilliseconds()
        let start = ContinuousClock.now
        try await Task.sleep(for: .seconds(seconds))
        let cpu = cpuMilliseconds() - cpuBefore
        let wall = milliseconds(since: start)
        await store.close()  // ends the observation
        let received = try await observer.value
        print(String(format: "idle observed store (%@): CPU %.1f ms over %.0f ms (%d states received in all)",
                     access == .readOnly ? "read-only" : "read-write", cpu, wall, received))
    }

    // MARK: - Launch and widget (Benchmarks/launch.sh)

    /// `VmRSS` and `VmHWM` of this process from /proc/self/status, in MB (0 where there is no /proc).
    static func memory() -> (resident: Double, peak: Double) {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return (0, 0) }
        func field(_ name: String) -> Double {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }),
                  let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
            return kilobytes / 1024
        }
        return (field("VmRSS"), field("VmHWM"))
    }

    static func firstState(log: String, access: DuneStore.Access) async throws {
        let before = memory()
        let cpuStart = cpuMilliseconds()
        let start = ContinuousClock.now
        let store = try await DuneStore.open(at: log, options: DuneStore.Options(access: access))
        let state = await store.state
        let elapsed = milliseconds(since: start)
        let cpu = cpuMilliseconds() - cpuStart
        let after = memory()
        print(String(format: "first-state %@: %.1f ms, process CPU %.1f ms, resident +%.1f MB (%.1f → %.1f MB), peak %.1f MB (throughSeq %d)",
                     access == .readOnly ? "read-only" : "read-write", elapsed, cpu, after.resident - before.resident,
                     before.resident, after.resident, after.peak, state.throughSeq))
        await store.close()
    }

    static func firstAppend(log: String) async throws {
        let store = try await DuneStore.open(at: log)
        let samples = Samples(lastDay: await store.state.trends.lastDay)
        let before = memory()
        let cpuStart = cpuMilliseconds()
        let start = ContinuousClock.now
        guard case .appended = try await store.append(samples.input(0)) else { fail("the append was not appended") }
        let elapsed = milliseconds(since: start)
        let cpu = cpuMilliseconds() - cpuStart
        let after = memory()
        let second = ContinuousClock.now
        guard case .appended = try await store.append(samples.input(1)) else { fail("the second append was not appended") }
        print(String(format: "first-append: %.1f ms, process CPU %.1f ms, peak %.1f → %.1f MB (+%.1f MB); the second append %.1f ms",
                     elapsed, cpu, before.peak, after.peak, after.peak - before.peak, milliseconds(since: second)))
        await store.close()
    }

    static func closeAfterAppend(log: String, correcting: Bool) async throws {
        let store = try await DuneStore.open(at: log)
        let samples = Samples(lastDay: await store.state.trends.lastDay)
        guard case .appended = try await store.append(samples.input(0)) else { fail("the append was not appended") }
        _ = await store.samples(of: .hrv, in: samples.day...samples.day).samples.count
        if correcting {
            // A correction and a deletion of samples half a year back: restored rows replaced, so the snapshot leaves them out.
            let halfYearBack = samples.day.adding(days: -180)
            let old = await store.samples(of: .hrv, in: halfYearBack.adding(days: -7)...halfYearBack).samples
            guard old.count >= 2, let quantity = old[0].quantity else { fail("no hrv samples half a year back to correct") }
            let corrected = StoreInput.sample(SampleInput(id: old[0].id, start: old[0].start, end: old[0].end, source: old[0].source,
                                                          reading: .hrv(quantity.value + 1, .milliseconds), hrvMeasure: old[0].hrvMeasure))
            let deleted = StoreInput.sampleDeletion(SampleDeletion(sampleID: old[1].id, at: samples.midnight))
            for outcome in try await store.append([corrected, deleted]) {
                guard case .appended = outcome else { fail("the correction was not appended: \(outcome)") }
            }
        }
        let before = memory()
        let start = ContinuousClock.now
        await store.close()
        let elapsed = milliseconds(since: start)
        let after = memory()
        print(String(format: "close: %.1f ms, peak %.1f → %.1f MB (+%.1f MB)", elapsed, before.peak, after.peak, after.peak - before.peak))
    }
}
