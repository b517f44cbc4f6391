#if canImport(HealthKit)
import HealthKit

/// HealthKit's observer completion handler, carried to the engine's task.
///
/// `HKObserverQueryCompletionHandler` is declared `() -> Void`, not
/// `@Sendable`, so Swift cannot send it to the task that syncs.
/// Invariant that makes the `@unchecked Sendable` sound: it is an
/// Objective-C block HealthKit hands to the update handler (on HealthKit's
/// queue) to be called when the app is done, with no thread named; it
/// captures nothing of ours, and ``ObserverWake`` calls ``call()`` at most once.
struct HealthKitObserverCompletion: @unchecked Sendable {
    private let handler: HKObserverQueryCompletionHandler

    init(_ handler: @escaping HKObserverQueryCompletionHandler) {
        self.handler = handler
    }

    /// Tells HealthKit the notification is handled.
    func call() { handler() }
}
#endif
