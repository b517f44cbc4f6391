import DuneEvents

extension AppleHealthExportWriter {
    /// A top-level element of an export.
    package enum Element: Sendable, Equatable {
        case record(Record)
        case workout(Workout)
        case correlation(Correlation)
        case activitySummary(ActivitySummary)
        /// `<!-- text -->`.
        case comment(String)
        /// Text written as is (for fixtures with deliberately broken XML).
        case raw(String)
    }

    /// A `<Record>`; every value is written exactly as given.
    package struct Record: Sendable, Equatable {
        package var type: String
        package var sourceName: String?
        package var sourceVersion: String?
        package var device: String?
        package var unit: String?
        package var value: String?
        package var creationDate: String?
        package var startDate: String?
        package var endDate: String?
        package var metadata: [MetadataEntry]
        /// Beats of a `HeartRateVariabilityMetadataList` child (HRV records).
        package var instantaneousBeatsPerMinute: [InstantaneousBeatsPerMinute]
        /// More attributes, written after the standard ones.
        package var extraAttributes: [MetadataEntry]

        package init(type: String, sourceName: String?, sourceVersion: String? = nil, device: String? = nil,
                    unit: String? = nil, value: String?, creationDate: String? = nil,
                    startDate: String?, endDate: String?, metadata: [MetadataEntry] = [],
                    instantaneousBeatsPerMinute: [InstantaneousBeatsPerMinute] = [], extraAttributes: [MetadataEntry] = []) {
            self.type = type
            self.sourceName = sourceName
            self.sourceVersion = sourceVersion
            self.device = device
            self.unit = unit
            self.value = value
            self.creationDate = creationDate
            self.startDate = startDate
            self.endDate = endDate
            self.metadata = metadata
            self.instantaneousBeatsPerMinute = instantaneousBeatsPerMinute
            self.extraAttributes = extraAttributes
        }
    }

    /// A `<Workout>` with its children.
    package struct Workout: Sendable, Equatable {
        /// `HKWorkoutActivityTypeRunning`, …
        package var activityType: String?
        package var duration: String?
        package var durationUnit: String?
        package var totalDistance: String?
        package var totalDistanceUnit: String?
        package var totalEnergyBurned: String?
        package var totalEnergyBurnedUnit: String?
        package var sourceName: String?
        package var sourceVersion: String?
        package var device: String?
        package var creationDate: String?
        package var startDate: String?
        package var endDate: String?
        package var metadata: [MetadataEntry]
        package var events: [WorkoutEvent]
        package var statistics: [WorkoutStatistics]
        /// A `WorkoutRoute` with a `FileReference` to this path, when set.
        package var routeFile: String?
        package var extraAttributes: [MetadataEntry]

        package init(activityType: String?, duration: String? = nil, durationUnit: String? = nil,
                    totalDistance: String? = nil, totalDistanceUnit: String? = nil,
                    totalEnergyBurned: String? = nil, totalEnergyBurnedUnit: String? = nil,
                    sourceName: String?, sourceVersion: String? = nil, device: String? = nil, creationDate: String? = nil,
                    startDate: String?, endDate: String?, metadata: [MetadataEntry] = [], events: [WorkoutEvent] = [],
                    statistics: [WorkoutStatistics] = [], routeFile: String? = nil, extraAttributes: [MetadataEntry] = []) {
            self.activityType = activityType
            self.duration = duration
            self.durationUnit = durationUnit
            self.totalDistance = totalDistance
            self.totalDistanceUnit = totalDistanceUnit
            self.totalEnergyBurned = totalEnergyBurned
            self.totalEnergyBurnedUnit = totalEnergyBurnedUnit
            self.sourceName = sourceName
            self.sourceVersion = sourceVersion
            self.device = device
            self.creationDate = creationDate
            self.startDate = startDate
            self.endDate = endDate
            self.metadata = metadata
            self.events = events
            self.statistics = statistics
            self.routeFile = routeFile
            self.extraAttributes = extraAttributes
        }
    }

    /// A `<WorkoutStatistics>` child of a workout.
    package struct WorkoutStatistics: Sendable, Equatable {
        package var type: String
        package var startDate: String?
        package var endDate: String?
        package var average: String?
        package var minimum: String?
        package var maximum: String?
        package var sum: String?
        package var unit: String?

        package init(type: String, startDate: String? = nil, endDate: String? = nil, average: String? = nil,
                    minimum: String? = nil, maximum: String? = nil, sum: String? = nil, unit: String? = nil) {
            self.type = type
            self.startDate = startDate
            self.endDate = endDate
            self.average = average
            self.minimum = minimum
            self.maximum = maximum
            self.sum = sum
            self.unit = unit
        }
    }

    /// A `<WorkoutEvent>` (pause, resume, lap, …).
    package struct WorkoutEvent: Sendable, Equatable {
        package var type: String
        package var date: String

        package init(type: String, date: String) {
            self.type = type
            self.date = date
        }
    }

    /// A `<Correlation>` (blood pressure, food) with its records.
    package struct Correlation: Sendable, Equatable {
        package var type: String
        package var sourceName: String?
        package var sourceVersion: String?
        package var creationDate: String?
        package var startDate: String?
        package var endDate: String?
        package var metadata: [MetadataEntry]
        package var records: [Record]

        package init(type: String, sourceName: String?, sourceVersion: String? = nil, creationDate: String? = nil,
                    startDate: String?, endDate: String?, metadata: [MetadataEntry] = [], records: [Record]) {
            self.type = type
            self.sourceName = sourceName
            self.sourceVersion = sourceVersion
            self.creationDate = creationDate
            self.startDate = startDate
            self.endDate = endDate
            self.metadata = metadata
            self.records = records
        }
    }

    /// An `<ActivitySummary>` (one day's rings).
    package struct ActivitySummary: Sendable, Equatable {
        package var dateComponents: String
        package var activeEnergyBurned: String?
        package var activeEnergyBurnedGoal: String?
        package var activeEnergyBurnedUnit: String?
        package var appleExerciseTime: String?
        package var appleExerciseTimeGoal: String?
        package var appleStandHours: String?
        package var appleStandHoursGoal: String?

        package init(dateComponents: String, activeEnergyBurned: String? = nil, activeEnergyBurnedGoal: String? = nil,
                    activeEnergyBurnedUnit: String? = nil, appleExerciseTime: String? = nil, appleExerciseTimeGoal: String? = nil,
                    appleStandHours: String? = nil, appleStandHoursGoal: String? = nil) {
            self.dateComponents = dateComponents
            self.activeEnergyBurned = activeEnergyBurned
            self.activeEnergyBurnedGoal = activeEnergyBurnedGoal
            self.activeEnergyBurnedUnit = activeEnergyBurnedUnit
            self.appleExerciseTime = appleExerciseTime
            self.appleExerciseTimeGoal = appleExerciseTimeGoal
            self.appleStandHours = appleStandHours
            self.appleStandHoursGoal = appleStandHoursGoal
        }
    }

    /// A `<MetadataEntry key=… value=…>` (also used for extra attributes).
    package struct MetadataEntry: Sendable, Equatable {
        package var key: String
        package var value: String

        package init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }
    }

    /// An `<InstantaneousBeatsPerMinute bpm=… time=…>` of an HRV record.
    package struct InstantaneousBeatsPerMinute: Sendable, Equatable {
        package var bpm: String
        package var time: String

        package init(bpm: String, time: String) {
            self.bpm = bpm
            self.time = time
        }
    }
}
