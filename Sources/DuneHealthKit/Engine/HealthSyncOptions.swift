import DuneProjections

/// How a ``HealthSyncEngine`` pages and stamps what it appends.
public struct HealthSyncOptions: Sendable {
    /// The most changes one query asks for: what bounds a sync's memory
    /// (the engine holds one page at a time). 1000 by default.
    public var pageSize: Int
    /// The time written into the events the engine appends (`task.*`,
    /// `sample.deleted`, `refresh.requested`): the wall clock by default.
    /// Projections never read the clock; the throttles compare these times.
    public var now: @Sendable () -> Timestamp

    /// Creates options.
    /// - Parameters:
    ///   - pageSize: The most changes one query asks for (at least 1).
    ///   - now: The time stamped on appended events; `nil` is the wall clock (UTC).
    public init(pageSize: Int = 1000, now: (@Sendable () -> Timestamp)? = nil) {
        self.pageSize = max(1, pageSize)
        self.now = now ?? { EventIdentity.now() }
    }
}
