#if canImport(HealthKit)
import DuneProjections
import Foundation
import HealthKit

/// The mapping (docs/healthkit-sync.md) of one HealthKit sample of a kind to a `SampleInput`.
///
/// | kind | HealthKit | value read in |
/// |---|---|---|
/// | `hrv` | `heartRateVariabilitySDNN` | `HKUnit.secondUnit(with: .milli)` → `ms` (measure by §11.1, from the source) |
/// | `restingHeartRate` | `restingHeartRate` | `count()/minute()` → `count/min` |
/// | `stepCount` | `stepCount` | `count()` → `count` |
/// | `bodyMass` | `bodyMass` | `gramUnit(with: .kilo)` → `kg` |
/// | `bodyFatPercentage` | `bodyFatPercentage` | `percent()` (0–1) → `%` |
/// | `bodyMassIndex` | `bodyMassIndex` | `count()` → `count` |
/// | `sleep` | `sleepAnalysis` | category value → stage |
/// | `workout` | workouts | activity type, `activeEnergyBurned` in `kilocalorie()`, distance in `meter()` |
///
/// The id is the sample's UUID, the source its source's name, each
/// timestamp's offset that of `HKMetadataKeyTimeZone`'s zone (else the
/// device's) at that instant, through the one `Date` → `Timestamp` conversion.
struct HealthKitSampleMapping: Sendable {
    /// The kind the query asked for.
    let kind: SampleKind
    /// The zone of samples without `HKMetadataKeyTimeZone`.
    let deviceTimeZone: TimeZone

    /// What one sample became.
    enum Outcome {
        case sample(SampleInput)
        case unmapped(UnmappedSample)
    }

    /// The distance types a workout's distance is summed from, first found wins.
    static let workoutDistanceTypes: [HKQuantityTypeIdentifier] = [
        .distanceWalkingRunning, .distanceCycling, .distanceSwimming, .distanceWheelchair, .distanceDownhillSnowSports,
    ]

    /// The page of an anchored query's answer.
    /// - Throws: The query's error (translated), or ``SyncSourceError`` when HealthKit gave no anchor.
    func page(samples: [HKSample]?, deleted: [HKDeletedObject]?, newAnchor: HKQueryAnchor?, error: (any Error)?) throws -> SyncPage {
        if let error { throw HealthKitSourceErrors.sourceError(error) }
        guard let newAnchor else {
            throw SyncSourceError(code: "missingAnchor", message: "HealthKit answered the anchored query without an anchor")
        }
        var added: [SampleInput] = []
        var unmapped: [UnmappedSample] = []
        for sample in samples ?? [] {
            switch map(sample) {
            case .sample(let input): added.append(input)
            case .unmapped(let entry): unmapped.append(entry)
            }
        }
        return SyncPage(anchor: try HealthKitAnchorArchive.anchor(of: newAnchor), added: added,
                        deletedIDs: (deleted ?? []).map { $0.uuid.uuidString }, unmapped: unmapped)
    }

    /// One sample, mapped.
    func map(_ sample: HKSample) -> Outcome {
        let id = sample.uuid.uuidString
        let reading: SampleInput.Reading
        switch readingResult(sample) {
        case .success(let value): reading = value
        case .failure(let failure): return .unmapped(UnmappedSample(id: id, reason: failure.reason))
        }
        let zone = (sample.metadata?[HKMetadataKeyTimeZone] as? String).flatMap(TimeZone.init(identifier:)) ?? deviceTimeZone
        return .sample(SampleInput(id: id, start: Timestamp(sample.startDate, in: zone), end: Timestamp(sample.endDate, in: zone),
                                   source: sample.sourceRevision.source.name, reading: reading))
    }

    private func readingResult(_ sample: HKSample) -> Result<SampleInput.Reading, UnmappedReason> {
        switch kind {
        case .sleep:
            guard let category = sample as? HKCategorySample else { return .failure(unexpected(sample)) }
            return Self.stage(category.value).map(SampleInput.Reading.sleep)
        case .workout:
            guard let workout = sample as? HKWorkout else { return .failure(unexpected(sample)) }
            guard let activityType = HealthKitWorkoutActivityNames.name(of: workout.workoutActivityType) else {
                return .failure(UnmappedReason(.unknownCategoryValue("HKWorkoutActivityType \(workout.workoutActivityType.rawValue)")))
            }
            let energy = workout.statistics(for: HKQuantityType(.activeEnergyBurned))?.sumQuantity()?.doubleValue(for: .kilocalorie())
            let distance = Self.workoutDistanceTypes.lazy
                .compactMap { workout.statistics(for: HKQuantityType($0))?.sumQuantity()?.doubleValue(for: .meter()) }.first
            return .success(.workout(WorkoutInput(activityType: activityType, energy: energy, energyUnit: .kilocalories,
                                                  distance: distance, distanceUnit: .meters)))
        case .hrv, .restingHeartRate, .stepCount, .bodyMass, .bodyFatPercentage, .bodyMassIndex:
            guard let quantity = (sample as? HKQuantitySample)?.quantity else { return .failure(unexpected(sample)) }
            return .success(Self.quantityReading(kind, quantity))
        }
    }

    private static func quantityReading(_ kind: SampleKind, _ quantity: HKQuantity) -> SampleInput.Reading {
        switch kind {
        case .hrv: .hrv(quantity.doubleValue(for: .secondUnit(with: .milli)), .milliseconds)
        case .restingHeartRate: .restingHeartRate(quantity.doubleValue(for: HKUnit.count().unitDivided(by: .minute())), .countPerMinute)
        case .stepCount: .stepCount(quantity.doubleValue(for: .count()), .count)
        case .bodyMass: .bodyMass(quantity.doubleValue(for: .gramUnit(with: .kilo)), .kilograms)
        case .bodyFatPercentage: .bodyFatPercentage(quantity.doubleValue(for: .percent()), .fraction)
        case .bodyMassIndex, .sleep, .workout: .bodyMassIndex(quantity.doubleValue(for: .count()), .count)
        }
    }

    /// The §3 stage of an `HKCategoryValueSleepAnalysis` raw value; a value a
    /// later iOS adds is unmapped (counted, not appended).
    static func stage(_ value: Int) -> Result<SleepStage, UnmappedReason> {
        guard let analysis = HKCategoryValueSleepAnalysis(rawValue: value) else {
            return .failure(UnmappedReason(.unknownCategoryValue("HKCategoryValueSleepAnalysis \(value)")))
        }
        switch analysis {
        case .inBed: return .success(.inBed)
        case .asleepUnspecified: return .success(.asleepUnspecified)
        case .awake: return .success(.awake)
        case .asleepCore: return .success(.asleepCore)
        case .asleepDeep: return .success(.asleepDeep)
        case .asleepREM: return .success(.asleepREM)
        @unknown default: return .failure(UnmappedReason(.unknownCategoryValue("HKCategoryValueSleepAnalysis \(value)")))
        }
    }

    private func unexpected(_ sample: HKSample) -> UnmappedReason {
        UnmappedReason(.unknownSampleType("\(type(of: sample)) in a query of \(kind.rawValue)"))
    }
}

/// An ``UnmappedSample/Reason`` as a `Result` failure.
struct UnmappedReason: Error, Sendable {
    let reason: UnmappedSample.Reason
    init(_ reason: UnmappedSample.Reason) { self.reason = reason }
}

#endif
