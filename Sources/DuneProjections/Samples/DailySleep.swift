import DuneEvents

/// Which sleep samples a night's minutes were measured from.
package enum SleepBasis: String, Sendable, Hashable {
    /// The asleep stages (unspecified, core, deep, REM).
    case asleep
    /// inBed intervals, because the day has no asleep sample.
    case inBed
}

/// A night's sleep: the union of its asleep (or inBed) intervals.
package struct DailySleep: Sendable, Equatable {
    /// Length of ``union`` in minutes.
    package let minutes: Double
    package let basis: SleepBasis
    /// The disjoint intervals whose lengths sum to ``minutes``, ascending.
    package let union: [SleepInterval]
    /// The samples whose intervals were united, in `seq` order.
    package let samples: [SampleReference]
}

extension DailySleep {
    /// `nil` when the day has neither asleep nor inBed samples (only awake).
    init?(_ samples: [StoredSample]) {
        let asleep = samples.filter { $0.sample.sleepStage?.isAsleep == true }
        let used = asleep.isEmpty ? samples.filter { $0.sample.sleepStage == .inBed } : asleep
        guard !used.isEmpty else { return nil }
        self.init(basis: asleep.isEmpty ? .inBed : .asleep,
                  union: SleepInterval.union(used.map { SleepInterval(start: $0.sample.start, end: $0.sample.end) }),
                  samples: used.map(\.reference))
    }

    /// The night of `union` (disjoint, ascending): its minutes are the intervals' lengths summed in order.
    private init(basis: SleepBasis, union: [SleepInterval], samples: [SampleReference]) {
        var seconds = 0.0
        for interval in union { seconds += interval.seconds }
        self.init(minutes: seconds / 60, basis: basis, union: union, samples: samples)
    }

    /// ``init(_:)`` from packed rows (canonical timestamps), for the read models:
    /// the same minutes, basis and union, without a `Sample` per row;
    /// ``samples`` is empty (`explain` reads the full night from `SampleStore.dailyValues(on:)`).
    ///
    /// Rows sort as ``SleepInterval/union(_:)`` sorts timestamps: by instant,
    /// then by text — for canonical texts of one instant, by offset.
    /// - Returns: `nil` when the rows hold neither asleep nor inBed stages.
    /// - Complexity: O(n log n).
    init?(packed rows: [PackedSleepRow]) {
        let asleep = rows.filter { SleepStage.packed($0.stage).isAsleep }
        let used = asleep.isEmpty ? rows.filter { SleepStage.packed($0.stage) == .inBed } : asleep
        guard !used.isEmpty else { return nil }
        func key(_ time: PackedTimestamp) -> (Int64, Int32, Int16) { (time.epochSeconds, time.nanoseconds, time.offsetMinutes) }
        func instant(_ time: PackedTimestamp) -> (Int64, Int32) { (time.epochSeconds, time.nanoseconds) }
        let sorted = used.sorted { key($0.start) != key($1.start) ? key($0.start) < key($1.start) : key($0.end) < key($1.end) }
        var merged: [(start: PackedTimestamp, end: PackedTimestamp)] = []
        for row in sorted {
            if let last = merged.last, instant(row.start) <= instant(last.end) {
                if instant(row.end) > instant(last.end) { merged[merged.count - 1].end = row.end }
            } else {
                merged.append((row.start, row.end))
            }
        }
        self.init(basis: asleep.isEmpty ? .inBed : .asleep,
                  union: merged.map { SleepInterval(start: $0.start.timestamp, end: $0.end.timestamp) }, samples: [])
    }
}

/// A packed sleep row: what ``DailySleep/init(packed:)`` needs of it.
struct PackedSleepRow {
    var start: PackedTimestamp
    var end: PackedTimestamp
    /// ``SleepStage/packedIndex``.
    var stage: Int
    var seq: Int
}
