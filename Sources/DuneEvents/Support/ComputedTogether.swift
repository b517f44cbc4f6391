import Dispatch
import Synchronization

/// The results of two independent computations, run at once on a machine
/// with more than one processor: `first` on the calling thread, `second` on
/// a serial queue of its own; on one processor, one after the other.
///
/// A queue of its own, not `concurrentPerform`: such a queue gets a thread
/// even when the global queues' threads (on Linux, one per core) are all
/// taken, as they are when the caller is one of them and the others are
/// busy; then `concurrentPerform` ran both on the caller, one after the other.
///
/// Each computation runs exactly once, so the results are those of calling
/// them in turn: for computations that are deterministic on their own (a
/// read model of a daily stage), the pair is too. The calling thread waits
/// only for `second` to finish computing, never for I/O or a lock.
///
/// ```swift
/// let (trends, weekly) = computedTogether({ TrendsModel(...) }, { WeeklyStatsModel(...) })
/// ```
package func computedTogether<First, Second: Sendable>(_ first: () -> First,
                                                       _ second: @escaping @Sendable () -> Second) -> (First, Second) {
    guard ProcessInfoLite.activeProcessorCount > 1 else { return (first(), second()) }
    let result = SecondResult<Second>()
    let group = DispatchGroup()
    DispatchQueue(label: "DuneEvents.computedTogether", qos: .userInitiated).async(group: group) {
        let value = second()
        result.value.withLock { $0 = value }
    }
    let firstValue = first()
    group.wait()
    guard let secondValue = result.value.withLock({ $0 }) else {
        preconditionFailure("computedTogether: the group was left before the second computation stored its result")
    }
    return (firstValue, secondValue)
}

/// Where ``computedTogether(_:_:)``'s second computation leaves its result (written once).
private final class SecondResult<Value: Sendable>: Sendable {
    let value = Mutex<Value?>(nil)
}
