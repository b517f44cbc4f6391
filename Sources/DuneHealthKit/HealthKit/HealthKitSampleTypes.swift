#if canImport(HealthKit)
import DuneProjections
import HealthKit

/// The HealthKit type of each sample kind (the mapping table of docs/healthkit-sync.md, left column).
enum HealthKitSampleTypes {
    /// The `HKSampleType` an anchored or observer query of `kind` asks for.
    static func sampleType(for kind: SampleKind) -> HKSampleType {
        switch kind {
        case .hrv: HKQuantityType(.heartRateVariabilitySDNN)
        case .restingHeartRate: HKQuantityType(.restingHeartRate)
        case .stepCount: HKQuantityType(.stepCount)
        case .bodyMass: HKQuantityType(.bodyMass)
        case .bodyFatPercentage: HKQuantityType(.bodyFatPercentage)
        case .bodyMassIndex: HKQuantityType(.bodyMassIndex)
        case .sleep: HKCategoryType(.sleepAnalysis)
        case .workout: HKObjectType.workoutType()
        }
    }
}
#endif
