import DuneEvents

/// Per day: the versions of its current samples in `seq` order.
struct DayBuckets: Sendable {
    struct Bucket: Sendable, Equatable {
        var day: Int
        /// Versions added, ascending (= `seq` order), including those in ``removed``.
        var added: [UInt32] = []
        /// Versions of ``added`` removed since it was last compacted. A removal
        /// from the middle of a day of 50 000 samples costs a set insertion, not
        /// moving the rest of the array; ``added`` is compacted once half of it
        /// is removed, so every removal is O(1) amortised.
        var removed: Set<UInt32> = []

        /// The current versions, ascending (= `seq` order).
        var current: [UInt32] {
            removed.isEmpty ? added : added.filter { !removed.contains($0) }
        }

        /// Whether the day has no current sample.
        var isEmpty: Bool { added.count == removed.count }

        mutating func remove(_ version: UInt32) {
            if added.last == version, removed.isEmpty {
                added.removeLast()
                return
            }
            removed.insert(version)
            if removed.count * 2 > added.count {
                added = current
                removed = []
            }
        }
    }

    private var bucketByDay: [Int: Int32] = [:]
    private(set) var buckets: [Bucket] = []
    private var lastDay = Int.min
    private var lastBucket = -1
    /// The earliest day a sample was added to or removed from since
    /// ``takeEarliestChange()`` (`Int.max`: none): where the read models of a
    /// store that keeps its last state start to differ from it.
    private var earliestChange = Int.max

    /// The index of `day`'s bucket, creating it.
    @inline(__always)
    mutating func bucket(for day: Int) -> Int {
        if day == lastDay { return lastBucket }
        let index: Int
        if let existing = bucketByDay[day] {
            index = Int(existing)
        } else {
            index = buckets.count
            buckets.append(Bucket(day: day))
            bucketByDay[day] = Int32(index)
        }
        lastDay = day
        lastBucket = index
        return index
    }

    /// The bucket of `day`, if the day ever had a sample.
    func existing(_ day: Int) -> Bucket? {
        bucketByDay[day].map { buckets[Int($0)] }
    }

    @inline(__always)
    mutating func add(_ version: UInt32, day: Int) {
        earliestChange = min(earliestChange, day)
        buckets[bucket(for: day)].added.append(version)
    }

    mutating func remove(_ version: UInt32, day: Int) {
        earliestChange = min(earliestChange, day)
        buckets[bucket(for: day)].remove(version)
    }

    /// The earliest day whose samples changed since the last call (or since
    /// the buckets were made), and starts over; `nil` when none did.
    mutating func takeEarliestChange() -> Int? {
        defer { earliestChange = .max }
        return earliestChange == .max ? nil : earliestChange
    }

    /// The buckets of days with at least one sample, ascending by day.
    var occupied: [Bucket] { occupied(from: .min) }

    /// The buckets of days from `firstDay` on with at least one sample, ascending by day.
    func occupied(from firstDay: Int) -> [Bucket] {
        buckets.filter { !$0.isEmpty && $0.day >= firstDay }.sorted { $0.day < $1.day }
    }
}
