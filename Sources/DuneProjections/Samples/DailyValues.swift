import DuneEvents

/// The values of one day, computed from the day's samples exactly as SPEC §6
/// says, with the samples each value came from.
///
/// Every projection and `explain` derive daily numbers from this one type:
/// - `hrv`, `restingHeartRate`: mean of the day's samples, summed in `seq` order;
/// - `sleep`: length of the union of the day's asleep intervals (all sources
///   together), or of its inBed intervals when it has no asleep sample;
/// - `steps`: the largest per-source sum;
/// - body mass, body fat, BMI: the latest sample by start (ties: higher `seq`);
/// - `workouts`: the workouts that started that day, in `seq` order.
public struct DailyValues: Sendable, Equatable {
    public let date: DayKey
    public let hrv: DailyMean?
    public let restingHeartRate: DailyMean?
    public let sleep: DailySleep?
    public let steps: DailySteps?
    public let bodyMass: DailyLatest?
    public let bodyFatPercentage: DailyLatest?
    public let bodyMassIndex: DailyLatest?
    /// The day's workouts in `seq` order.
    public let workouts: [DailyWorkout]
    /// Every sample of the day the projection keeps (see ``SampleStore/retainedKinds``), in `seq` order.
    public let samples: [SampleReference]

    /// Computes the values of `date` from its samples.
    /// - Parameters:
    ///   - date: the day.
    ///   - samples: the samples whose day is `date`, in `seq` order.
    /// - Complexity: O(k log k) for k samples.
    public init(date: DayKey, samples: [StoredSample]) {
        self.date = date
        self.samples = samples.map(\.reference)
        var byKind = SamplesByKind()
        for stored in samples { byKind.append(stored) }
        hrv = DailyMean(byKind.hrv)
        restingHeartRate = DailyMean(byKind.restingHeartRate)
        sleep = DailySleep(byKind.sleep)
        steps = DailySteps(byKind.stepCount)
        bodyMass = DailyLatest(byKind.bodyMass)
        bodyFatPercentage = DailyLatest(byKind.bodyFatPercentage)
        bodyMassIndex = DailyLatest(byKind.bodyMassIndex)
        workouts = byKind.workout.compactMap(DailyWorkout.init)
    }

    /// Total workout minutes (summed in `seq` order); `nil` when the day has no workout.
    public var workoutMinutes: Double? {
        guard !workouts.isEmpty else { return nil }
        var total = 0.0
        for workout in workouts { total += workout.minutes }
        return total
    }
}

/// A day's samples split by kind in one pass, each list in `seq` order.
private struct SamplesByKind {
    var hrv: [StoredSample] = []
    var restingHeartRate: [StoredSample] = []
    var stepCount: [StoredSample] = []
    var bodyMass: [StoredSample] = []
    var bodyFatPercentage: [StoredSample] = []
    var bodyMassIndex: [StoredSample] = []
    var sleep: [StoredSample] = []
    var workout: [StoredSample] = []

    mutating func append(_ stored: StoredSample) {
        switch stored.sample.kind {
        case .hrv: hrv.append(stored)
        case .restingHeartRate: restingHeartRate.append(stored)
        case .stepCount: stepCount.append(stored)
        case .bodyMass: bodyMass.append(stored)
        case .bodyFatPercentage: bodyFatPercentage.append(stored)
        case .bodyMassIndex: bodyMassIndex.append(stored)
        case .sleep: sleep.append(stored)
        case .workout: workout.append(stored)
        }
    }
}

// MARK: - Kinds of daily value

/// A daily mean (HRV in ms, resting heart rate in count/min).
public struct DailyMean: Sendable, Equatable {
    public let value: Double
    /// The samples averaged, in `seq` order.
    public let samples: [SampleReference]

    public init(value: Double, samples: [SampleReference]) {
        self.value = value
        self.samples = samples
    }

    init?(_ samples: [StoredSample]) {
        let values = samples.compactMap { $0.sample.quantity?.value }
        guard let mean = SampleStatistics.mean(values) else { return nil }
        value = mean
        self.samples = samples.filter { $0.sample.quantity != nil }.map(\.reference)
    }
}

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

/// A day's steps: the largest per-source sum.
public struct DailySteps: Sendable, Equatable {
    public let value: Double
    /// The source whose sum is ``value`` (on a tie, the first name in UTF-8 order).
    public let source: String
    /// Every source's sum, sources in UTF-8 order.
    public let sources: [SourceSteps]
    /// The winning source's samples, in `seq` order.
    public var samples: [SampleReference] {
        sources.first { $0.source == source }?.samples ?? []
    }

    public init(value: Double, source: String, sources: [SourceSteps]) {
        self.value = value
        self.source = source
        self.sources = sources
    }

    init?(_ samples: [StoredSample]) {
        var bySource: [String: SourceSteps] = [:]
        for stored in samples {
            guard let value = stored.sample.quantity?.value else { continue }
            bySource[stored.sample.source, default: SourceSteps(source: stored.sample.source, steps: 0, samples: [])]
                .add(value, stored.reference)
        }
        let sources = bySource.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.compactMap { bySource[$0] }
        var best: SourceSteps?
        for candidate in sources where best.map({ candidate.steps > $0.steps }) ?? true {
            best = candidate
        }
        guard let best else { return nil }
        value = best.steps
        source = best.source
        self.sources = sources
    }
}

/// One source's step total for a day.
public struct SourceSteps: Sendable, Equatable {
    public let source: String
    /// The sum of the source's samples, in `seq` order.
    public private(set) var steps: Double
    public private(set) var samples: [SampleReference]

    public init(source: String, steps: Double, samples: [SampleReference]) {
        self.source = source
        self.steps = steps
        self.samples = samples
    }

    mutating func add(_ value: Double, _ reference: SampleReference) {
        steps += value
        samples.append(reference)
    }
}

/// A day's latest body measurement (mass kg, fat %, BMI kg/m²).
public struct DailyLatest: Sendable, Equatable {
    public let value: Double
    public let start: Timestamp
    public let sample: SampleReference

    public init(value: Double, start: Timestamp, sample: SampleReference) {
        self.value = value
        self.start = start
        self.sample = sample
    }

    /// The latest sample by start; on equal starts, the higher `seq`.
    init?(_ samples: [StoredSample]) {
        var latest: StoredSample?
        var latestValue = 0.0
        for stored in samples {
            guard let value = stored.sample.quantity?.value else { continue }
            if let current = latest {
                let later = stored.sample.start.seconds(since: current.sample.start)
                guard later > 0 || (later == 0 && stored.seq > current.seq) else { continue }
            }
            latest = stored
            latestValue = value
        }
        guard let latest else { return nil }
        value = latestValue
        start = latest.sample.start
        sample = latest.reference
    }
}

/// A workout counted on the day it started.
public struct DailyWorkout: Sendable, Equatable {
    public let sample: SampleReference
    public let activityType: String
    public let start: Timestamp
    /// `end − start` in minutes, from the instants.
    public let minutes: Double
    public let energyKcal: Double?
    public let distanceMeters: Double?
    public let volumeKg: Double?

    init?(_ stored: StoredSample) {
        guard stored.sample.kind == .workout, let workout = stored.sample.workout else { return nil }
        sample = stored.reference
        activityType = workout.activityType
        start = stored.sample.start
        minutes = stored.sample.durationSeconds / 60
        energyKcal = workout.energyKcal
        distanceMeters = workout.distanceMeters
        volumeKg = workout.volumeKg
    }
}
