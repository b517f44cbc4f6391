import DuneEvents

/// The values of one day, computed from the day's samples exactly as docs/read-models.md
/// says, with the samples each value came from.
///
/// Every projection and `explain` derive daily numbers from this one type:
/// - `hrv`: mean of the day's samples of the day's measure — the measure of
///   its latest HRV sample by start (ties: higher `seq`) — summed in `seq`
///   order; the samples of the other measure, if any, are averaged apart;
/// - `restingHeartRate`: mean of the day's samples, summed in `seq` order;
/// - `sleep`: length of the union of the day's asleep intervals (all sources
///   together), or of its inBed intervals when it has no asleep sample;
/// - `steps`: the largest per-source sum;
/// - body mass, body fat, BMI: the latest sample by start (ties: higher `seq`);
/// - `workouts`: the workouts that started that day, in `seq` order.
package struct DailyValues: Sendable, Equatable {
    package let date: DayKey
    /// The mean of the day's HRV samples of ``hrvMeasure``.
    package let hrv: DailyMean?
    /// The day's HRV measure: that of its latest HRV sample by start (ties:
    /// higher `seq`); `nil` when the day has no HRV sample.
    package let hrvMeasure: HRVMeasure?
    /// The mean of the day's HRV samples of the other measure, when it has any.
    package let otherHRV: DailyMean?
    package let restingHeartRate: DailyMean?
    package let sleep: DailySleep?
    package let steps: DailySteps?
    package let bodyMass: DailyLatest?
    package let bodyFatPercentage: DailyLatest?
    package let bodyMassIndex: DailyLatest?
    /// The day's workouts in `seq` order.
    package let workouts: [DailyWorkout]
    /// Every sample of the day, in `seq` order.
    package let samples: [SampleReference]

    /// Computes the values of `date` from its samples.
    /// - Parameters:
    ///   - date: the day.
    ///   - samples: the samples whose day is `date`, in `seq` order.
    /// - Complexity: O(k log k) for k samples.
    package init(date: DayKey, samples: [StoredSample]) {
        var byKind = SamplesByKind()
        for stored in samples { byKind.append(stored) }
        self.init(date: date, byKind: byKind, steps: DailySteps(byKind.stepCount), references: samples.map(\.reference))
    }

    /// The values of `date` for a read model: `samples` holds every
    /// sample but the step samples, whose totals come as `steps`; the result's
    /// ``samples`` is empty (see `SampleStore.modelDailyValues()`).
    /// - Parameter packedSleep: the night computed from packed rows (its
    ///   ``DailySleep/samples`` empty), when `samples` holds no sleep sample; `nil`
    ///   to compute it from `samples`.
    init(date: DayKey, samplesWithoutSteps samples: [StoredSample], steps: DailySteps?, packedSleep: DailySleep?? = nil) {
        var byKind = SamplesByKind()
        for stored in samples { byKind.append(stored) }
        self.init(date: date, byKind: byKind, steps: steps, references: [], packedSleep: packedSleep)
    }

    private init(date: DayKey, byKind: SamplesByKind, steps: DailySteps?, references: [SampleReference],
                 packedSleep: DailySleep?? = nil) {
        self.date = date
        self.samples = references
        let measure = DailyLatest.latest(byKind.hrv)?.sample.sample.hrvMeasure
        hrvMeasure = measure
        hrv = DailyMean(byKind.hrv.filter { $0.sample.hrvMeasure == measure })
        otherHRV = DailyMean(byKind.hrv.filter { $0.sample.hrvMeasure != measure })
        restingHeartRate = DailyMean(byKind.restingHeartRate)
        sleep = packedSleep ?? DailySleep(byKind.sleep)
        self.steps = steps
        bodyMass = DailyLatest(byKind.bodyMass)
        bodyFatPercentage = DailyLatest(byKind.bodyFatPercentage)
        bodyMassIndex = DailyLatest(byKind.bodyMassIndex)
        workouts = byKind.workout.compactMap(DailyWorkout.init)
    }

    /// The mean of the day's HRV samples of `measure`, or `nil` when it has none.
    package func hrv(_ measure: HRVMeasure) -> DailyMean? {
        measure == hrvMeasure ? hrv : otherHRV
    }

    /// Total workout minutes (summed in `seq` order); `nil` when the day has no workout.
    package var workoutMinutes: Double? {
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
