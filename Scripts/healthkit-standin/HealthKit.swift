// Stand-in `HealthKit` module for Scripts/check-darwin.sh (section "HealthKit
// adapter (issue 33)"): the declarations Sources/DuneHealthKit/HealthKit/
// uses, transcribed from Apple's HealthKit documentation with their Swift
// shapes — labels, optionality, `@Sendable`, throwing — and nothing else.
// Each declaration names the documentation page it transcribes
// (https://developer.apple.com/documentation/healthkit/…). Never run: the
// bodies are placeholders, only the declarations are type-checked against.
//
// Built with `-enable-library-evolution`, so its enums are non-frozen like
// the Objective-C enums HealthKit imports (a `switch` needs `@unknown default`).
//
// What is left out on purpose: conformances the adapter does not use
// (NSCopying, NSSecureCoding on everything but HKQueryAnchor), deprecated
// declarations, and Sendable on classes whose documentation page does not
// list it (only HKQueryAnchor's does): the adapter must compile whether or
// not the SDK marks HKHealthStore, HKQuery and HKSample Sendable, and does.
// Raw values of enums come from the SDK headers (HKWorkout.h, HKTypeIdentifiers.h,
// HKDefines.h, HKUnit.h); the adapter only uses them in messages.

@_exported import Foundation

// MARK: - Object types

/// healthkit/hkobjecttype: `class HKObjectType : NSObject`.
open class HKObjectType: NSObject {
    @available(*, unavailable)
    public override init() { fatalError("stand-in") }
    init(standIn: Void) { super.init() }

    /// healthkit/hkobjecttype/quantitytype(foridentifier:)
    open class func quantityType(forIdentifier identifier: HKQuantityTypeIdentifier) -> HKQuantityType? { nil }
    /// healthkit/hkobjecttype/categorytype(foridentifier:)
    open class func categoryType(forIdentifier identifier: HKCategoryTypeIdentifier) -> HKCategoryType? { nil }
    /// healthkit/hkobjecttype/workouttype(): `class func workoutType() -> HKWorkoutType`.
    open class func workoutType() -> HKWorkoutType { HKWorkoutType(standIn: ()) }
}

/// healthkit/hksampletype: `class HKSampleType : HKObjectType`.
open class HKSampleType: HKObjectType {}

/// healthkit/hkquantitytype: `class HKQuantityType : HKSampleType`.
open class HKQuantityType: HKSampleType {
    /// healthkit/hkquantitytype/init(_:) (iOS 15, macOS 13): `convenience init(_ identifier: HKQuantityTypeIdentifier)`.
    public convenience init(_ identifier: HKQuantityTypeIdentifier) { self.init(standIn: ()) }
}

/// healthkit/hkcategorytype: `class HKCategoryType : HKSampleType`.
open class HKCategoryType: HKSampleType {
    /// healthkit/hkcategorytype/init(_:): `convenience init(_ identifier: HKCategoryTypeIdentifier)`.
    public convenience init(_ identifier: HKCategoryTypeIdentifier) { self.init(standIn: ()) }
}

/// healthkit/hkworkouttype: `class HKWorkoutType : HKSampleType`.
open class HKWorkoutType: HKSampleType {}

/// healthkit/hkquantitytypeidentifier: `struct HKQuantityTypeIdentifier` (RawRepresentable, String).
public struct HKQuantityTypeIdentifier: RawRepresentable, Hashable, Sendable {
    /// healthkit/hkquantitytypeidentifier/init(rawvalue:)
    public init(rawValue: String) { self.rawValue = rawValue }
    public let rawValue: String

    /// healthkit/hkquantitytypeidentifier/heartratevariabilitysdnn
    public static let heartRateVariabilitySDNN = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierHeartRateVariabilitySDNN")
    /// healthkit/hkquantitytypeidentifier/restingheartrate
    public static let restingHeartRate = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierRestingHeartRate")
    /// healthkit/hkquantitytypeidentifier/stepcount
    public static let stepCount = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierStepCount")
    /// healthkit/hkquantitytypeidentifier/bodymass
    public static let bodyMass = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBodyMass")
    /// healthkit/hkquantitytypeidentifier/bodyfatpercentage
    public static let bodyFatPercentage = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBodyFatPercentage")
    /// healthkit/hkquantitytypeidentifier/bodymassindex
    public static let bodyMassIndex = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBodyMassIndex")
    /// healthkit/hkquantitytypeidentifier/activeenergyburned
    public static let activeEnergyBurned = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierActiveEnergyBurned")
    /// healthkit/hkquantitytypeidentifier/distancewalkingrunning
    public static let distanceWalkingRunning = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDistanceWalkingRunning")
    /// healthkit/hkquantitytypeidentifier/distancecycling
    public static let distanceCycling = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDistanceCycling")
    /// healthkit/hkquantitytypeidentifier/distanceswimming
    public static let distanceSwimming = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDistanceSwimming")
    /// healthkit/hkquantitytypeidentifier/distancewheelchair
    public static let distanceWheelchair = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDistanceWheelchair")
    /// healthkit/hkquantitytypeidentifier/distancedownhillsnowsports
    public static let distanceDownhillSnowSports = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDistanceDownhillSnowSports")
}

/// healthkit/hkcategorytypeidentifier: `struct HKCategoryTypeIdentifier` (RawRepresentable, String).
public struct HKCategoryTypeIdentifier: RawRepresentable, Hashable, Sendable {
    public init(rawValue: String) { self.rawValue = rawValue }
    public let rawValue: String

    /// healthkit/hkcategorytypeidentifier/sleepanalysis
    public static let sleepAnalysis = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierSleepAnalysis")
}

// MARK: - Objects and samples

/// healthkit/hksource: `class HKSource : NSObject`.
open class HKSource: NSObject {
    @available(*, unavailable)
    public override init() { fatalError("stand-in") }
    /// healthkit/hksource/name: `var name: String { get }`.
    open var name: String { "" }
}

/// healthkit/hksourcerevision: `class HKSourceRevision : NSObject`.
open class HKSourceRevision: NSObject {
    @available(*, unavailable)
    public override init() { fatalError("stand-in") }
    /// healthkit/hksourcerevision/source: `var source: HKSource { get }`.
    open var source: HKSource { fatalError("stand-in") }
}

/// healthkit/hkobject: `class HKObject : NSObject` (abstract).
open class HKObject: NSObject {
    @available(*, unavailable)
    public override init() { fatalError("stand-in") }
    /// healthkit/hkobject/uuid: `var uuid: UUID { get }`.
    open var uuid: UUID { UUID() }
    /// healthkit/hkobject/metadata: `var metadata: [String : Any]? { get }`.
    open var metadata: [String: Any]? { nil }
    /// healthkit/hkobject/sourcerevision: `var sourceRevision: HKSourceRevision { get }`.
    open var sourceRevision: HKSourceRevision { fatalError("stand-in") }
}

/// healthkit/hksample: `class HKSample : HKObject` (abstract; `init()` unavailable).
open class HKSample: HKObject {
    /// healthkit/hksample/startdate: `var startDate: Date { get }`.
    open var startDate: Date { Date() }
    /// healthkit/hksample/enddate: `var endDate: Date { get }`.
    open var endDate: Date { Date() }
    /// healthkit/hksample/sampletype: `@NSCopying var sampleType: HKSampleType { get }`.
    open var sampleType: HKSampleType { fatalError("stand-in") }
}

/// healthkit/hkquantitysample: `class HKQuantitySample : HKSample`.
open class HKQuantitySample: HKSample {
    /// healthkit/hkquantitysample/quantity: `@NSCopying var quantity: HKQuantity { get }`.
    open var quantity: HKQuantity { fatalError("stand-in") }
    /// healthkit/hkquantitysample/quantitytype: `var quantityType: HKQuantityType { get }`.
    open var quantityType: HKQuantityType { fatalError("stand-in") }
}

/// healthkit/hkcategorysample: `class HKCategorySample : HKSample`.
open class HKCategorySample: HKSample {
    /// healthkit/hkcategorysample/value: `var value: Int { get }`.
    open var value: Int { 0 }
    /// healthkit/hkcategorysample/categorytype: `var categoryType: HKCategoryType { get }`.
    open var categoryType: HKCategoryType { fatalError("stand-in") }
}

/// healthkit/hkworkout: `class HKWorkout : HKSample`.
open class HKWorkout: HKSample {
    /// healthkit/hkworkout/workoutactivitytype: `var workoutActivityType: HKWorkoutActivityType { get }`.
    open var workoutActivityType: HKWorkoutActivityType { .other }
    /// healthkit/hkworkout/duration: `var duration: TimeInterval { get }`.
    open var duration: TimeInterval { 0 }
    /// healthkit/hkworkout/statistics(for:) (iOS 16, macOS 13): `func statistics(for quantityType: HKQuantityType) -> HKStatistics?`.
    open func statistics(for quantityType: HKQuantityType) -> HKStatistics? { nil }
}

/// healthkit/hkstatistics: `class HKStatistics : NSObject`.
open class HKStatistics: NSObject {
    @available(*, unavailable)
    public override init() { fatalError("stand-in") }
    /// healthkit/hkstatistics/sumquantity(): `func sumQuantity() -> HKQuantity?`.
    open func sumQuantity() -> HKQuantity? { nil }
}

/// healthkit/hkdeletedobject: `class HKDeletedObject : NSObject` (`init()` unavailable).
open class HKDeletedObject: NSObject {
    @available(*, unavailable)
    public override init() { fatalError("stand-in") }
    /// healthkit/hkdeletedobject/uuid: `var uuid: UUID { get }`.
    open var uuid: UUID { UUID() }
    /// healthkit/hkdeletedobject/metadata (iOS 11): `var metadata: [String : Any]? { get }`.
    open var metadata: [String: Any]? { nil }
}

/// healthkit/hkmetadatakeytimezone: `let HKMetadataKeyTimeZone: String` — a
/// name `NSTimeZone(name:)` (Swift: `TimeZone(identifier:)`) accepts.
public let HKMetadataKeyTimeZone: String = "HKTimeZone"

// MARK: - Quantities and units

/// healthkit/hkquantity: `class HKQuantity : NSObject`.
open class HKQuantity: NSObject {
    @available(*, unavailable)
    public override init() { fatalError("stand-in") }
    /// healthkit/hkquantity/doublevalue(for:): `func doubleValue(for unit: HKUnit) -> Double`
    /// (raises an Objective-C exception for an incompatible unit).
    open func doubleValue(for unit: HKUnit) -> Double { 0 }
}

/// healthkit/hkmetricprefix: `enum HKMetricPrefix` (Int).
public enum HKMetricPrefix: Int, Sendable {
    case none = 0, pico = 1, nano = 2, micro = 3, milli = 4, centi = 5, deci = 6, deca = 7, hecto = 8, kilo = 9
}

/// healthkit/hkunit: `class HKUnit : NSObject`; the factory methods return `Self`.
open class HKUnit: NSObject {
    @available(*, unavailable)
    public override init() { fatalError("stand-in") }
    public required init(standIn: Void) { super.init() }

    /// healthkit/hkunit/count(): `class func count() -> Self`.
    open class func count() -> Self { Self(standIn: ()) }
    /// healthkit/hkunit/percent(): `class func percent() -> Self` (0.0–1.0).
    open class func percent() -> Self { Self(standIn: ()) }
    /// healthkit/hkunit/minute(): `class func minute() -> Self`.
    open class func minute() -> Self { Self(standIn: ()) }
    /// healthkit/hkunit/kilocalorie(): `class func kilocalorie() -> Self`.
    open class func kilocalorie() -> Self { Self(standIn: ()) }
    /// healthkit/hkunit/meter(): `class func meter() -> Self`.
    open class func meter() -> Self { Self(standIn: ()) }
    /// healthkit/hkunit/gramunit(with:): `class func gramUnit(with prefix: HKMetricPrefix) -> Self`.
    open class func gramUnit(with prefix: HKMetricPrefix) -> Self { Self(standIn: ()) }
    /// healthkit/hkunit/secondunit(with:): `class func secondUnit(with prefix: HKMetricPrefix) -> Self`.
    open class func secondUnit(with prefix: HKMetricPrefix) -> Self { Self(standIn: ()) }
    /// healthkit/hkunit/meterunit(with:): `class func meterUnit(with prefix: HKMetricPrefix) -> Self`.
    open class func meterUnit(with prefix: HKMetricPrefix) -> Self { Self(standIn: ()) }
    /// healthkit/hkunit/unitdivided(by:): `func unitDivided(by unit: HKUnit) -> HKUnit`.
    open func unitDivided(by unit: HKUnit) -> HKUnit { self }
}

// MARK: - Category values and activity types

/// healthkit/hkcategoryvaluesleepanalysis: `enum HKCategoryValueSleepAnalysis` (Int).
/// The iOS 16 stages; `asleep` (= asleepUnspecified) is deprecated and left out.
public enum HKCategoryValueSleepAnalysis: Int, Sendable {
    /// …/inbed
    case inBed = 0
    /// …/asleepunspecified (iOS 16)
    case asleepUnspecified = 1
    /// …/awake (iOS 10)
    case awake = 2
    /// …/asleepcore (iOS 16)
    case asleepCore = 3
    /// …/asleepdeep (iOS 16)
    case asleepDeep = 4
    /// …/asleeprem (iOS 16)
    case asleepREM = 5
}

/// healthkit/hkworkoutactivitytype: `enum HKWorkoutActivityType` (UInt). The
/// cases the documentation lists for iOS 18, less the deprecated `dance`,
/// `danceInspiredTraining` and `mixedMetabolicCardioTraining` (the adapter
/// names those by raw value, to read old data without deprecation warnings).
public enum HKWorkoutActivityType: UInt, Sendable {
    case americanFootball = 1, archery = 2, australianFootball = 3, badminton = 4, baseball = 5, basketball = 6,
         bowling = 7, boxing = 8, climbing = 9, cricket = 10, crossTraining = 11, curling = 12, cycling = 13,
         elliptical = 16, equestrianSports = 17, fencing = 18, fishing = 19, functionalStrengthTraining = 20,
         golf = 21, gymnastics = 22, handball = 23, hiking = 24, hockey = 25, hunting = 26, lacrosse = 27,
         martialArts = 28, mindAndBody = 29, paddleSports = 31, play = 32, preparationAndRecovery = 33,
         racquetball = 34, rowing = 35, rugby = 36, running = 37, sailing = 38, skatingSports = 39,
         snowSports = 40, soccer = 41, softball = 42, squash = 43, stairClimbing = 44, surfingSports = 45,
         swimming = 46, tableTennis = 47, tennis = 48, trackAndField = 49, traditionalStrengthTraining = 50,
         volleyball = 51, walking = 52, waterFitness = 53, waterPolo = 54, waterSports = 55, wrestling = 56,
         yoga = 57, barre = 58, coreTraining = 59, crossCountrySkiing = 60, downhillSkiing = 61,
         flexibility = 62, highIntensityIntervalTraining = 63, jumpRope = 64, kickboxing = 65, pilates = 66,
         snowboarding = 67, stairs = 68, stepTraining = 69, wheelchairWalkPace = 70, wheelchairRunPace = 71,
         taiChi = 72, mixedCardio = 73, handCycling = 74, discSports = 75, fitnessGaming = 76,
         cardioDance = 77, socialDance = 78, pickleball = 79, cooldown = 80, swimBikeRun = 82,
         transition = 83, underwaterDiving = 84, other = 3000
}

// MARK: - Queries

/// healthkit/hkqueryoptions: `struct HKQueryOptions : OptionSet`.
public struct HKQueryOptions: OptionSet, Sendable {
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public let rawValue: UInt
    /// healthkit/hkqueryoptions/strictstartdate
    public static let strictStartDate = HKQueryOptions(rawValue: 1 << 0)
    /// healthkit/hkqueryoptions/strictenddate
    public static let strictEndDate = HKQueryOptions(rawValue: 1 << 1)
}

/// healthkit/hkquery: `class HKQuery : NSObject` (abstract).
open class HKQuery: NSObject {
    @available(*, unavailable)
    public override init() { fatalError("stand-in") }
    init(standIn: Void) { super.init() }

    /// healthkit/hkquery/predicateforsamples(withstart:end:options:):
    /// `class func predicateForSamples(withStart startDate: Date?, end endDate: Date?, options: HKQueryOptions = []) -> NSPredicate`.
    open class func predicateForSamples(withStart startDate: Date?, end endDate: Date?, options: HKQueryOptions = []) -> NSPredicate {
        NSPredicate(value: true)
    }
}

/// healthkit/hkanchoredobjectquery: `class HKAnchoredObjectQuery : HKQuery`.
open class HKAnchoredObjectQuery: HKQuery {
    /// healthkit/hkanchoredobjectquery/init(type:predicate:anchor:limit:resultshandler:) (iOS 9, macOS 13):
    /// `init(type: HKSampleType, predicate: NSPredicate?, anchor: HKQueryAnchor?, limit: Int,
    ///  resultsHandler handler: @escaping @Sendable (HKAnchoredObjectQuery, [HKSample]?, [HKDeletedObject]?, HKQueryAnchor?, (any Error)?) -> Void)`.
    public init(type: HKSampleType, predicate: NSPredicate?, anchor: HKQueryAnchor?, limit: Int,
                resultsHandler handler: @escaping @Sendable (HKAnchoredObjectQuery, [HKSample]?, [HKDeletedObject]?, HKQueryAnchor?, (any Error)?) -> Void) {
        super.init(standIn: ())
    }
}

/// healthkit/hkobserverquerycompletionhandler: `typealias HKObserverQueryCompletionHandler = () -> Void`.
public typealias HKObserverQueryCompletionHandler = () -> Void

/// healthkit/hkobserverquery: `class HKObserverQuery : HKQuery`.
open class HKObserverQuery: HKQuery {
    /// healthkit/hkobserverquery/init(sampletype:predicate:updatehandler:):
    /// `init(sampleType: HKSampleType, predicate: NSPredicate?,
    ///  updateHandler: @escaping @Sendable (HKObserverQuery, @escaping HKObserverQueryCompletionHandler, (any Error)?) -> Void)`.
    public init(sampleType: HKSampleType, predicate: NSPredicate?,
                updateHandler: @escaping @Sendable (HKObserverQuery, @escaping HKObserverQueryCompletionHandler, (any Error)?) -> Void) {
        super.init(standIn: ())
    }
}

/// healthkit/hkqueryanchor: `class HKQueryAnchor : NSObject`, conforming (its
/// page's Relationships) to NSSecureCoding, NSCopying and Sendable.
public final class HKQueryAnchor: NSObject, NSSecureCoding, NSCopying, @unchecked Sendable {
    @available(*, unavailable)
    public override init() { fatalError("stand-in") }
    /// healthkit/hkqueryanchor/init(fromvalue:): `convenience init(fromValue value: Int)`.
    public init(fromValue value: Int) { super.init() }
    public static var supportsSecureCoding: Bool { true }
    public func encode(with coder: NSCoder) {}
    public init?(coder: NSCoder) { super.init() }
    public func copy(with zone: NSZone? = nil) -> Any { self }
}

// MARK: - The store

/// healthkit/hkupdatefrequency: `enum HKUpdateFrequency` (Int).
public enum HKUpdateFrequency: Int, Sendable {
    /// …/immediate
    case immediate = 1
    /// …/hourly
    case hourly = 2
    /// …/daily
    case daily = 3
    /// …/weekly
    case weekly = 4
}

/// healthkit/hkhealthstore: `class HKHealthStore : NSObject`.
open class HKHealthStore: NSObject {
    /// `init()`: "You need only a single HealthKit store per app."
    public override init() { super.init() }

    /// healthkit/hkhealthstore/ishealthdataavailable(): `class func isHealthDataAvailable() -> Bool`.
    open class func isHealthDataAvailable() -> Bool { false }

    /// healthkit/hkhealthstore/requestauthorization(toshare:read:completion:):
    /// `func requestAuthorization(toShare typesToShare: Set<HKSampleType>?, read typesToRead: Set<HKObjectType>?,
    ///  completion: @escaping @Sendable (Bool, (any Error)?) -> Void)`.
    open func requestAuthorization(toShare typesToShare: Set<HKSampleType>?, read typesToRead: Set<HKObjectType>?,
                                   completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {}

    /// healthkit/hkhealthstore/execute(_:): `func execute(_ query: HKQuery)`.
    open func execute(_ query: HKQuery) {}

    /// healthkit/hkhealthstore/stop(_:): `func stop(_ query: HKQuery)`.
    open func stop(_ query: HKQuery) {}

    /// healthkit/hkhealthstore/enablebackgrounddelivery(for:frequency:withcompletion:):
    /// `func enableBackgroundDelivery(for type: HKObjectType, frequency: HKUpdateFrequency,
    ///  withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void)`.
    open func enableBackgroundDelivery(for type: HKObjectType, frequency: HKUpdateFrequency,
                                       withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {}
}

// MARK: - Errors

/// healthkit/hkerror: the Swift error struct of `HKErrorDomain`, with its
/// `HKError.Code` (healthkit/hkerror/code, Int) and the static code properties.
public struct HKError: Error, Hashable, Sendable {
    /// healthkit/hkerror/code
    public enum Code: Int, Sendable {
        case noError = 0
        case errorHealthDataUnavailable = 1
        case errorHealthDataRestricted = 2
        case errorInvalidArgument = 3
        case errorAuthorizationDenied = 4
        case errorAuthorizationNotDetermined = 5
        case errorDatabaseInaccessible = 6
        case errorUserCanceled = 7
    }

    public init(_ code: Code) { self.code = code }
    /// The error's code.
    public let code: Code

    /// healthkit/hkerror/errordatabaseinaccessible: "The HealthKit data is unavailable because it's
    /// protected and the device is locked." `static var errorDatabaseInaccessible: HKError.Code { get }`.
    public static var errorDatabaseInaccessible: HKError.Code { .errorDatabaseInaccessible }
    /// healthkit/hkerror/errorauthorizationdenied
    public static var errorAuthorizationDenied: HKError.Code { .errorAuthorizationDenied }
    /// healthkit/hkerror/errorhealthdataunavailable
    public static var errorHealthDataUnavailable: HKError.Code { .errorHealthDataUnavailable }
}
