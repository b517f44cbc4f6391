import DuneEvents

/// One planned workout.
struct SyntheticWorkout {
    enum Activity {
        case running
        case cycling
        case strength
        case walking

        var name: StaticString {
            switch self {
            case .running: "running"
            case .cycling: "cycling"
            case .strength: "traditionalStrengthTraining"
            case .walking: "walking"
            }
        }

        /// Load per minute (training stress relative to easy running).
        var intensity: Double {
            switch self {
            case .running: 1.0
            case .cycling: 0.8
            case .strength: 0.7
            case .walking: 0.3
            }
        }
    }

    var activity: Activity
    var start: Int64
    var end: Int64
    var energyKcal: Double
    var distanceKm: Double?
    var volumeKg: Double?
    /// Steps per minute while moving (0 when the activity has no steps).
    var cadence: Double
    /// Whether the iPhone came along (it then counts steps too).
    var phoneCarried: Bool
    /// An indoor ride: no distance, and an extra `indoor` member in the line.
    var indoor: Bool

    var minutes: Double { Double(end - start) / 60 }
    var load: Double { minutes * activity.intensity }
}

/// The units one workout line is written in.
struct WorkoutUnits {
    enum Energy { case kcal, largeCalorie, kilojoule }
    enum Distance { case kilometre, mile, metre }

    var energy: Energy
    var distance: Distance

    /// Mostly kcal and km, sometimes Cal, kJ, mi or m, as different apps write them.
    init(_ activity: SyntheticWorkout.Activity, _ random: inout SyntheticRandom) {
        let energyRoll = random.unit()
        energy = energyRoll < 0.8 ? .kcal : energyRoll < 0.9 ? .largeCalorie : .kilojoule
        let distanceRoll = random.unit()
        switch activity {
        case .walking: distance = distanceRoll < 0.8 ? .kilometre : distanceRoll < 0.9 ? .metre : .mile
        default: distance = distanceRoll < 0.85 ? .kilometre : .mile
        }
    }
}
