import DuneProjections
import Synchronization

/// One change notification of an observer (HealthKit's `HKObserverQuery`
/// update handler): which type changed, and the completion handler
/// HealthKit waits for.
///
/// Hand it to ``HealthSyncEngine/handle(_:budget:)``: the engine syncs the
/// type and calls the completion exactly once, after what it appended is
/// durable, on every path (success, a source error, an I/O error,
/// cancellation, a spent budget). HealthKit stops waking an app that does
/// not answer. The wake itself also guarantees "at most once": a second
/// ``complete()`` does nothing.
public final class ObserverWake: Sendable {
    /// The sample type whose observer fired.
    public let type: SampleKind
    /// Whether the notification came through background delivery (the app
    /// was launched or woken for it) rather than while the app was running.
    public let isBackgroundDelivery: Bool
    private let handler: Mutex<(@Sendable () -> Void)?>

    /// Creates a wake.
    /// - Parameters:
    ///   - type: The sample type whose observer fired.
    ///   - isBackgroundDelivery: Whether it came through background delivery.
    ///   - completion: HealthKit's completion handler; called once by ``complete()``.
    public init(type: SampleKind, isBackgroundDelivery: Bool, completion: @escaping @Sendable () -> Void) {
        self.type = type
        self.isBackgroundDelivery = isBackgroundDelivery
        self.handler = Mutex(completion)
    }

    /// Calls the completion handler the first time; later calls do nothing.
    /// - Returns: Whether this call ran the handler.
    @discardableResult
    public func complete() -> Bool {
        let handler = self.handler.withLock { handler in
            defer { handler = nil }
            return handler
        }
        handler?()
        return handler != nil
    }

    /// Whether ``complete()`` ran the handler.
    public var isCompleted: Bool { handler.withLock { $0 == nil } }
}
