import DuneEvents

/// A stretch of time from `start` to `end`, as written (offsets kept).
package struct SleepInterval: Sendable, Hashable {
    package let start: Timestamp
    package let end: Timestamp

    /// Length in seconds, from the instants (a DST night is 23 or 25 h of wall clock
    /// but its true length here).
    package var seconds: Double { end.seconds(since: start) }

    /// The union of `intervals` as disjoint intervals in ascending order.
    ///
    /// Overlapping or touching intervals merge, so time recorded by several
    /// sources (Watch, iPhone, AutoSleep) counts once.
    /// - Complexity: O(n log n).
    package static func union(_ intervals: [SleepInterval]) -> [SleepInterval] {
        let sorted = intervals.sorted { $0.start != $1.start ? $0.start < $1.start : $0.end < $1.end }
        var merged: [SleepInterval] = []
        for interval in sorted {
            if let last = merged.last, interval.start.seconds(since: last.end) <= 0 {
                if interval.end.seconds(since: last.end) > 0 {
                    merged[merged.count - 1] = SleepInterval(start: last.start, end: interval.end)
                }
            } else {
                merged.append(interval)
            }
        }
        return merged
    }
}
