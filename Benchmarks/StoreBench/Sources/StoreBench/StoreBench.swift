import DuneProjections
import Foundation

/// `StoreBench open LOG` — opens a store on LOG, reads readiness, closes;
/// prints the wall time of open + first read in milliseconds.
/// `StoreBench open-replay LOG` — the same with snapshots off: a full replay,
/// and no snapshot written on close.
///
/// `StoreBench append LOG N DURABILITY` — opens a store on LOG, appends N
/// single HRV samples one call each, and prints p50 / p99 / max of the append
/// calls in milliseconds (read models are not read in between: they are
/// computed when read), and the first call's time (it also rebuilds the
/// deciders' state, which opening defers).
@main
struct StoreBench {
    static func milliseconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }

    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 3 else {
            FileHandle.standardError.write(Data("usage: StoreBench open LOG | append LOG N fsync|batch|none\n".utf8))
            exit(64)
        }
        let log = arguments[2]
        switch arguments[1] {
        case "open", "open-replay":
            let start = ContinuousClock.now
            let store = try await DuneStore.open(at: log, options: DuneStore.Options(keepsSnapshots: arguments[1] == "open"))
            let readiness = await store.readiness
            let elapsed = milliseconds(since: start)
            print(String(format: "open+readiness %.1f ms (%d days, throughSeq %d)", elapsed, readiness.days.count, readiness.throughSeq))
            await store.close()
        case "append":
            let count = arguments.count > 3 ? Int(arguments[3]) ?? 1000 : 1000
            let durability = arguments.count > 4 ? Durability(rawValue: arguments[4]) ?? .none : .none
            let store = try await DuneStore.open(at: log, options: DuneStore.Options(durability: durability))
            var times: [Double] = []
            let base = Timestamp(epochSeconds: 4_102_000_000, offsetSeconds: 3600)  // 2099-12-27, after any generated data
            for index in 0..<count {
                let start = base.adding(seconds: Int64(index) * 60)
                let sample = SampleInput(id: "bench-\(ProcessInfo.processInfo.processIdentifier)-\(index)", start: start,
                                         end: start.adding(seconds: 60), source: "StoreBench", reading: .hrv(50, .milliseconds))
                let began = ContinuousClock.now
                _ = try await store.append(.sample(sample))
                times.append(milliseconds(since: began))
            }
            await store.close()
            // The first append also rebuilds the deciders' state, which opening defers.
            let first = times.first ?? 0
            times.sort()
            func percentile(_ p: Double) -> Double { times[min(times.count - 1, Int(Double(times.count) * p))] }
            print(String(format: "append %@ x%d: p50 %.3f ms, p99 %.3f ms, max %.3f ms, first %.1f ms", durability.rawValue, count,
                         percentile(0.5), percentile(0.99), times.last ?? 0, first))
        default:
            FileHandle.standardError.write(Data("unknown mode \(arguments[1])\n".utf8))
            exit(64)
        }
    }
}
