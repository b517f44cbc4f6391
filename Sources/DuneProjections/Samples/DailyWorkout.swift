import DuneEvents

/// A workout counted on the day it started.
package struct DailyWorkout: Sendable, Equatable {
    package let sample: SampleReference
    package let activityType: String
    package let start: Timestamp
    /// `end − start` in minutes, from the instants.
    package let minutes: Double
    package let energyKcal: Double?
    package let distanceMeters: Double?
    package let volumeKg: Double?

    /// The workout as a snapshot's daily stage stored it.
    init(sample: SampleReference, activityType: String, start: Timestamp, minutes: Double, energyKcal: Double?,
         distanceMeters: Double?, volumeKg: Double?) {
        self.sample = sample
        self.activityType = activityType
        self.start = start
        self.minutes = minutes
        self.energyKcal = energyKcal
        self.distanceMeters = distanceMeters
        self.volumeKg = volumeKg
    }

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
