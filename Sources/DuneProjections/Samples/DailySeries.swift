import DuneEvents

/// One value per day for the days that have a value, ascending by date.
///
/// Window lookups (the readiness baseline D−60…D−1, a trend's D−6…D) use binary
/// search and hand back values in ascending date order, the order they are summed in.
package struct DailySeries: Sendable, Equatable {
    /// Days with a value, ascending.
    package let days: [DayKey]
    /// `values[i]` is the value of `days[i]`.
    package let values: [Double]

    /// A series from points; `points` must be ascending by date with no repeats.
    package init(days: [DayKey], values: [Double]) {
        self.days = days
        self.values = values
    }

    /// The series of `value` over `entries` (ascending by `date`), keeping
    /// the entries where it is non-nil: days' values, metrics or readiness inputs.
    package init<Entry>(_ entries: [Entry], date: (Entry) -> DayKey, value: (Entry) -> Double?) {
        var days: [DayKey] = []
        var values: [Double] = []
        days.reserveCapacity(entries.count)
        values.reserveCapacity(entries.count)
        for entry in entries {
            guard let v = value(entry) else { continue }
            days.append(date(entry))
            values.append(v)
        }
        self.init(days: days, values: values)
    }

    /// The series without any day.
    package static let empty = DailySeries(days: [], values: [])

    package var isEmpty: Bool { days.isEmpty }

    /// The same days with `transform` applied to each value.
    package func mapValues(_ transform: (Double) -> Double) -> DailySeries {
        DailySeries(days: days, values: values.map(transform))
    }

    /// The points from `first` through `last` inclusive, ascending.
    /// - Complexity: O(log n + k).
    package func window(from first: DayKey, through last: DayKey) -> DailyWindow {
        guard first <= last else { return DailyWindow(first: first, last: last, days: [], values: []) }
        let lower = firstIndex(notBefore: first)
        let upper = firstIndex(notBefore: last.adding(days: 1))
        return DailyWindow(first: first, last: last, days: Array(days[lower..<upper]), values: Array(values[lower..<upper]))
    }

    /// `window(from: first, through: last).statistics`, computed over the
    /// series' own storage: the same values in the same order, so the same
    /// numbers bit for bit, without the window's two arrays. The read models
    /// ask this for every day (7-, 28- and 60-day windows), so over a long
    /// history the copies would cost more than the arithmetic.
    /// - Complexity: O(log n + k) for k values in the window.
    package func statistics(from first: DayKey, through last: DayKey) -> SampleStatistics {
        guard first <= last else { return SampleStatistics(EmptyCollection<Double>()) }
        let lower = firstIndex(notBefore: first)
        let upper = max(lower, firstIndex(notBefore: last.adding(days: 1)))
        return SampleStatistics(values[lower..<upper])
    }

    /// The index of the first day on or after `day` (`days.count` when none).
    /// - Complexity: O(log n).
    package func firstIndex(notBefore day: DayKey) -> Int {
        var low = 0
        var high = days.count
        while low < high {
            let mid = (low + high) / 2
            if days[mid] < day { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

extension DailySeries {
    /// ``DailySeries/statistics(from:through:)`` of windows that move
    /// forward (neither bound ever moves back), each bound found by stepping
    /// on from the last window's rather than by a search: the same values in
    /// the same order, so the same numbers bit for bit, for a model that asks
    /// for one window per day.
    struct MovingWindows {
        let series: DailySeries
        private var lower = 0
        private var upper = 0

        init(_ series: DailySeries) {
            self.series = series
        }

        /// The statistics of the values from `first` through `last`; both must be
        /// on or after the previous call's.
        mutating func statistics(from first: DayKey, through last: DayKey) -> SampleStatistics {
            let days = series.days
            while lower < days.count, days[lower] < first { lower += 1 }
            while upper < days.count, days[upper] <= last { upper += 1 }
            return SampleStatistics(series.values[lower..<max(lower, upper)])
        }
    }
}
