/// Counts over a log for `dune-replay stats`.
public struct LogStatistics: Sendable, Equatable {
    /// A name with a count, in a deterministic order.
    public struct Count: Sendable, Equatable {
        public var name: String
        public var count: Int
    }

    public var events = 0
    public var bytes = 0
    public var byType: [Count] = []
    public var byKind: [Count] = []
    public var bySource: [Count] = []
    /// Earliest and latest ``RecordedEvent/occurredAt`` local dates.
    public var firstDay: DayKey?
    public var lastDay: DayKey?
    public var firstRecordedAt: Timestamp?
    public var lastRecordedAt: Timestamp?

    /// Accumulates statistics over events fed in seq order.
    public struct Builder {
        private var types: [String: Int] = [:]
        private var kinds: [String: Int] = [:]
        private var sources: [String: Int] = [:]
        private var result = LogStatistics()

        public init() {}

        public mutating func add(_ event: RecordedEvent) {
            result.events += 1
            types[event.type.rawValue, default: 0] += 1
            if case .sampleIngested(let sample) = event.payload {
                kinds[sample.kind.rawValue, default: 0] += 1
                sources[sample.source, default: 0] += 1
            }
            let day = event.occurredAt.localDate
            result.firstDay = min(result.firstDay ?? day, day)
            result.lastDay = max(result.lastDay ?? day, day)
            if result.firstRecordedAt == nil { result.firstRecordedAt = event.recordedAt }
            result.lastRecordedAt = event.recordedAt
        }

        /// The statistics, with counts sorted by count (descending) then name.
        public func build(bytes: Int) -> LogStatistics {
            func sorted(_ counts: [String: Int]) -> [Count] {
                counts.map { Count(name: $0.key, count: $0.value) }
                    .sorted { $0.count != $1.count ? $0.count > $1.count : $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            }
            var statistics = result
            statistics.bytes = bytes
            statistics.byType = sorted(types)
            statistics.byKind = sorted(kinds)
            statistics.bySource = sorted(sources)
            return statistics
        }
    }
}
