import DuneEvents

/// Which sleep samples a night's minutes were measured from.
public enum SleepBasis: String, Sendable, Hashable {
    /// The asleep stages (unspecified, core, deep, REM).
    case asleep
    /// inBed intervals, because the day has no asleep sample.
    case inBed
}

/// A night's sleep: the union of its asleep (or inBed) intervals.
public struct DailySleep: Sendable, Equatable {
    /// Length of ``union`` in minutes.
    public let minutes: Double
    public let basis: SleepBasis
    /// The disjoint intervals whose lengths sum to ``minutes``, ascending.
    public let union: [SleepInterval]
    /// The samples whose intervals were united, in `seq` order.
    public let samples: [SampleReference]

    public init(minutes: Double, basis: SleepBasis, union: [SleepInterval], samples: [SampleReference]) {
        self.minutes = minutes
        self.basis = basis
        self.union = union
        self.samples = samples
    }

    /// `nil` when the day has neither asleep nor inBed samples (only awake).
    init?(_ samples: [StoredSample]) {
        let asleep = samples.filter { $0.sample.sleepStage?.isAsleep == true }
        let used = asleep.isEmpty ? samples.filter { $0.sample.sleepStage == .inBed } : asleep
        guard !used.isEmpty else { return nil }
        basis = asleep.isEmpty ? .inBed : .asleep
        union = SleepInterval.union(used.map { SleepInterval(start: $0.sample.start, end: $0.sample.end) })
        var seconds = 0.0
        for interval in union { seconds += interval.seconds }
        minutes = seconds / 60
        self.samples = used.map(\.reference)
    }
}
