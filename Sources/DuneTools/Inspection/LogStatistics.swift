import DuneEvents

/// Counts over a log for `dune-replay stats`.
package struct LogStatistics: Sendable, Equatable {
    /// A name with a count, in a deterministic order.
    package struct Count: Sendable, Equatable {
        package var name: String
        package var count: Int
    }

    package var events = 0
    package var bytes = 0
    /// Events of forgotten samples (also counted under their type).
    package var redacted = 0
    package var byType: [Count] = []
    package var byKind: [Count] = []
    package var bySource: [Count] = []
    /// Source names that look alike (``SourceNames/lookAlikeGroups(_:)``):
    /// each is listed in ``bySource`` under its own bytes.
    package var lookAlikeSources: [[String]] = []
    /// Earliest and latest ``RecordedEvent/day`` (a sleep sample's is the night it counts for).
    package var firstDay: DayKey?
    package var lastDay: DayKey?

    /// Accumulates statistics over events fed in seq order.
    package struct Builder {
        private var types: [String: Int] = [:]
        private var kinds: [String: Int] = [:]
        /// By exact bytes: "Apple Watch" with a non-breaking space, or in another Unicode form, is its own row.
        private var sources: [SourceNames.Exact: Int] = [:]
        private var result = LogStatistics()

        package init() {}

        package mutating func add(_ event: RecordedEvent) {
            result.events += 1
            types[event.type.rawValue, default: 0] += 1
            if case .sampleIngested(let sample) = event.payload {
                kinds[sample.kind.rawValue, default: 0] += 1
                sources[SourceNames.Exact(sample.source), default: 0] += 1
            }
            if event.isRedacted { result.redacted += 1 }
            if !event.isRedacted, event.type != .dataForgotten, event.type != .syncAnchored {
                // A redacted line, a forget record or a sync anchor has no date of its own.
                let day = event.day
                result.firstDay = min(result.firstDay ?? day, day)
                result.lastDay = max(result.lastDay ?? day, day)
            }
        }

        /// The statistics, with counts sorted by count (descending) then name.
        package func build(bytes: Int) -> LogStatistics {
            func sorted(_ counts: [String: Int]) -> [Count] {
                counts.map { Count(name: $0.key, count: $0.value) }
                    .sorted { $0.count != $1.count ? $0.count > $1.count : $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            }
            var statistics = result
            statistics.bytes = bytes
            statistics.byType = sorted(types)
            statistics.byKind = sorted(kinds)
            statistics.bySource = sources.map { Count(name: $0.key.name, count: $0.value) }
                .sorted { $0.count != $1.count ? $0.count > $1.count : $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            statistics.lookAlikeSources = SourceNames.lookAlikeGroups(statistics.bySource.map(\.name))
            return statistics
        }
    }
}
