extension AppleHealthExportWriter {
    /// A top-level element of an export.
    public enum Element: Sendable, Equatable {
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
    public struct Record: Sendable, Equatable {
        public var type: String
        public var sourceName: String?
        public var sourceVersion: String?
        public var device: String?
        public var unit: String?
        public var value: String?
        public var creationDate: String?
        public var startDate: String?
        public var endDate: String?
        public var metadata: [MetadataEntry]
        /// Beats of a `HeartRateVariabilityMetadataList` child (HRV records).
        public var instantaneousBeatsPerMinute: [InstantaneousBeatsPerMinute]
        /// More attributes, written after the standard ones.
        public var extraAttributes: [MetadataEntry]

        public init(type: String, sourceName: String?, sourceVersion: String? = nil, device: String? = nil,
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
    public struct Workout: Sendable, Equatable {
        /// `HKWorkoutActivityTypeRunning`, …
        public var activityType: String?
        public var duration: String?
        public var durationUnit: String?
        public var totalDistance: String?
        public var totalDistanceUnit: String?
        public var totalEnergyBurned: String?
        public var totalEnergyBurnedUnit: String?
        public var sourceName: String?
        public var sourceVersion: String?
        public var device: String?
        public var creationDate: String?
        public var startDate: String?
        public var endDate: String?
        public var metadata: [MetadataEntry]
        public var events: [WorkoutEvent]
        public var statistics: [WorkoutStatistics]
        /// A `WorkoutRoute` with a `FileReference` to this path, when set.
        public var routeFile: String?
        public var extraAttributes: [MetadataEntry]

        public init(activityType: String?, duration: String? = nil, durationUnit: String? = nil,
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
    public struct WorkoutStatistics: Sendable, Equatable {
        public var type: String
        public var startDate: String?
        public var endDate: String?
        public var average: String?
        public var minimum: String?
        public var maximum: String?
        public var sum: String?
        public var unit: String?

        public init(type: String, startDate: String? = nil, endDate: String? = nil, average: String? = nil,
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
    public struct WorkoutEvent: Sendable, Equatable {
        public var type: String
        public var date: String

        public init(type: String, date: String) {
            self.type = type
            self.date = date
        }
    }

    /// A `<Correlation>` (blood pressure, food) with its records.
    public struct Correlation: Sendable, Equatable {
        public var type: String
        public var sourceName: String?
        public var sourceVersion: String?
        public var creationDate: String?
        public var startDate: String?
        public var endDate: String?
        public var metadata: [MetadataEntry]
        public var records: [Record]

        public init(type: String, sourceName: String?, sourceVersion: String? = nil, creationDate: String? = nil,
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
    public struct ActivitySummary: Sendable, Equatable {
        public var dateComponents: String
        public var activeEnergyBurned: String?
        public var activeEnergyBurnedGoal: String?
        public var activeEnergyBurnedUnit: String?
        public var appleExerciseTime: String?
        public var appleExerciseTimeGoal: String?
        public var appleStandHours: String?
        public var appleStandHoursGoal: String?

        public init(dateComponents: String, activeEnergyBurned: String? = nil, activeEnergyBurnedGoal: String? = nil,
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
    public struct MetadataEntry: Sendable, Equatable {
        public var key: String
        public var value: String

        public init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }
    }

    /// An `<InstantaneousBeatsPerMinute bpm=… time=…>` of an HRV record.
    public struct InstantaneousBeatsPerMinute: Sendable, Equatable {
        public var bpm: String
        public var time: String

        public init(bpm: String, time: String) {
            self.bpm = bpm
            self.time = time
        }
    }
}
