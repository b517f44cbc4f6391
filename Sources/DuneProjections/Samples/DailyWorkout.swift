import DuneEvents

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
