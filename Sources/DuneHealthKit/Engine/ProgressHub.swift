import Synchronization

/// Hands each ``SyncProgress`` to every current subscriber of
/// ``HealthSyncEngine/progress``; a slow subscriber keeps only the newest
/// values (a bounded buffer), never slowing a sync.
///
/// Sendable: the subscribers are inside the `Mutex`.
final class ProgressHub: Sendable {
    private let subscribers = Mutex<[Int: AsyncStream<SyncProgress>.Continuation]>([:])
    private let nextID = Atomic<Int>(0)

    func stream() -> AsyncStream<SyncProgress> {
        let (stream, continuation) = AsyncStream.makeStream(of: SyncProgress.self, bufferingPolicy: .bufferingNewest(64))
        let id = nextID.add(1, ordering: .relaxed).newValue
        subscribers.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        return stream
    }

    func publish(_ progress: SyncProgress) {
        let current = subscribers.withLock { Array($0.values) }
        for continuation in current { continuation.yield(progress) }
    }

    func finish() {
        let current = subscribers.withLock { subscribers in
            defer { subscribers = [:] }
            return Array(subscribers.values)
        }
        for continuation in current { continuation.finish() }
    }
}
