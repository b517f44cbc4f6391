import Dispatch
import Synchronization

/// The results of two independent computations, run at once on a machine
/// with more than one processor: `first` on the calling thread, `second`
/// on a thread of Dispatch's pool (or after `first` on the calling thread,
/// when the pool has none free). On one processor, one after the other.
///
/// Each computation runs exactly once, so the results are those of calling
/// them in turn: for computations that are deterministic on their own (a
/// read model of a daily stage), the pair is too. The calling thread waits
/// only for the computation it does not run, never for I/O or a lock.
///
/// ```swift
/// let (trends, weekly) = computedTogether({ TrendsModel(...) }, { WeeklyStatsModel(...) })
/// ```
package func computedTogether<First: Sendable, Second: Sendable>(_ first: @Sendable () -> First,
                                                                 _ second: @Sendable () -> Second) -> (First, Second) {
    guard ProcessInfoLite.activeProcessorCount > 1 else { return (first(), second()) }
    let results = PairOfResults<First, Second>()
    DispatchQueue.concurrentPerform(iterations: 2) { part in
        if part == 0 {
            let value = first()
            results.first.withLock { $0 = value }
        } else {
            let value = second()
            results.second.withLock { $0 = value }
        }
    }
    guard let first = results.first.withLock({ $0 }), let second = results.second.withLock({ $0 }) else {
        preconditionFailure("concurrentPerform ran every iteration before returning")
    }
    return (first, second)
}

/// Where ``computedTogether(_:_:)``'s two threads leave their results (each written once).
private final class PairOfResults<First: Sendable, Second: Sendable>: Sendable {
    let first = Mutex<First?>(nil)
    let second = Mutex<Second?>(nil)
}
