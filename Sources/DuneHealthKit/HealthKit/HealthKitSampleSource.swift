#if canImport(HealthKit)
import DuneProjections
import Foundation
import HealthKit

/// The HealthKit adapter: a ``HealthSampleSource`` that asks HealthKit.
///
/// It only translates — ``HealthSyncEngine`` decides everything (paging,
/// appends, anchors, reconcile, budgets, when a completion handler runs):
/// - ``changes(of:after:limit:)`` runs one `HKAnchoredObjectQuery` with
///   `limit`, from the anchor the engine stored (base64 of the archived
///   `HKQueryAnchor`), and maps its samples (docs/healthkit-sync.md's table; units through
///   `HKUnit`; offsets from `HKMetadataKeyTimeZone`, else the device's zone,
///   at each instant).
/// - ``sampleIDs(of:on:)`` pages `HKAnchoredObjectQuery`s over the days with
///   the ±14 h (and, for sleep, 6 h) margins of §12.
/// - ``startObserving(_:onChange:)`` registers one `HKObserverQuery` per type
///   and enables background delivery; each notification becomes an
///   ``ObserverWake`` that carries HealthKit's completion handler to the engine.
///
/// Written from Apple's documentation and type-checked on Linux against a
/// stand-in of HealthKit (`Scripts/check-darwin.sh`); it has not run on a device.
///
/// ```swift
/// let source = HealthKitSampleSource()
/// try await source.requestAuthorization(toRead: SampleKind.allCases)
/// let engine = HealthSyncEngine(store: store, source: source)
/// try await engine.startObserving(SampleKind.allCases)
/// ```
public actor HealthKitSampleSource: HealthSampleSource {
    /// How the source maps and observes.
    public nonisolated let options: HealthKitSourceOptions
    private let healthStore: HKHealthStore
    private var observers: [HKObserverQuery] = []

    /// Creates the adapter.
    /// - Parameters:
    ///   - healthStore: The app's HealthKit store ("you need only a single HealthKit store per app").
    ///   - options: Background delivery, the device's zone, the app's state.
    public init(healthStore: HKHealthStore = HKHealthStore(), options: HealthKitSourceOptions = HealthKitSourceOptions()) {
        self.healthStore = healthStore
        self.options = options
    }

    /// Whether HealthKit is available on this device (`HKHealthStore.isHealthDataAvailable()`).
    public static var isHealthDataAvailable: Bool { HKHealthStore.isHealthDataAvailable() }

    /// Asks the user to let the app read `types` (and, for workouts, the
    /// active energy and distance samples their totals come from).
    /// - Parameter types: The sample kinds the app syncs.
    /// - Throws: HealthKit's error; a refusal is not an error (HealthKit hides it: queries answer nothing).
    public func requestAuthorization(toRead types: [SampleKind]) async throws {
        var read = Set<HKObjectType>()
        for type in types {
            read.insert(HealthKitSampleTypes.sampleType(for: type))
            if type == .workout {
                read.insert(HKQuantityType(.activeEnergyBurned))
                for distance in HealthKitSampleMapping.workoutDistanceTypes { read.insert(HKQuantityType(distance)) }
            }
        }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            healthStore.requestAuthorization(toShare: nil, read: read) { _, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }

    // MARK: - HealthSampleSource

    /// One `HKAnchoredObjectQuery` of `type` after `anchor`, `limit` changes at most.
    public func changes(of type: SampleKind, after anchor: SyncAnchor?, limit: Int) async throws -> SyncPage {
        let queryAnchor = try anchor.map(HealthKitAnchorArchive.queryAnchor(from:))
        let mapping = HealthKitSampleMapping(kind: type, deviceTimeZone: options.deviceTimeZone)
        return try await answer { answer in
            HKAnchoredObjectQuery(type: HealthKitSampleTypes.sampleType(for: type), predicate: nil,
                                  anchor: queryAnchor, limit: max(1, limit)) { _, samples, deleted, newAnchor, error in
                answer.resume(with: Result {
                    try mapping.page(samples: samples, deleted: deleted, newAnchor: newAnchor, error: error)
                })
            }
        }
    }

    /// The ids HealthKit holds of `type` in the instants that can fall on
    /// `days` (see `ReconcileWindow`), paged by anchored queries.
    public func sampleIDs(of type: SampleKind, on days: ClosedRange<DayKey>) async throws -> Set<String> {
        let window = ReconcileWindow(kind: type, days: days)
        var ids = Set<String>()
        var anchor: HKQueryAnchor?
        while true {
            let predicate = window.predicate
            let from = anchor
            let part = try await answer { answer in
                HKAnchoredObjectQuery(type: HealthKitSampleTypes.sampleType(for: type), predicate: predicate,
                                      anchor: from, limit: options.reconcilePageSize) { _, samples, deleted, newAnchor, error in
                    answer.resume(with: Result {
                        if let error { throw HealthKitSourceErrors.sourceError(error) }
                        return HealthKitIDPage(ids: (samples ?? []).map { $0.uuid.uuidString },
                                               changes: (samples?.count ?? 0) + (deleted?.count ?? 0), anchor: newAnchor)
                    })
                }
            }
            ids.formUnion(part.ids)
            guard part.changes >= options.reconcilePageSize, let next = part.anchor else { return ids }
            anchor = next
        }
    }

    /// Registers an `HKObserverQuery` per type and, when
    /// ``HealthKitSourceOptions/backgroundDelivery`` is set, enables background
    /// delivery for it. Call it from `application(_:didFinishLaunchingWithOptions:)`
    /// (through ``HealthSyncEngine/startObserving(_:budget:)``): HealthKit
    /// launches the app in the background and needs the query registered
    /// before it can deliver.
    public func startObserving(_ types: [SampleKind], onChange: @escaping @Sendable (ObserverWake) -> Void) async throws {
        let isInBackground = options.isInBackground
        for type in types {
            let sampleType = HealthKitSampleTypes.sampleType(for: type)
            let query = HKObserverQuery(sampleType: sampleType, predicate: nil) { _, completionHandler, _ in
                // An error here (e.g. the device is locked) is not decided here: the
                // engine's sync meets it, records it, and completes the wake.
                let completion = HealthKitObserverCompletion(completionHandler)
                onChange(ObserverWake(type: type, isBackgroundDelivery: isInBackground(), completion: { completion.call() }))
            }
            observers.append(query)
            healthStore.execute(query)
            if let frequency = options.backgroundDelivery {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    healthStore.enableBackgroundDelivery(for: sampleType, frequency: frequency) { enabled, error in
                        if let error {
                            continuation.resume(throwing: HealthKitSourceErrors.sourceError(error))
                        } else if !enabled {
                            continuation.resume(throwing: SyncSourceError(code: "backgroundDeliveryRefused",
                                                                          message: "HealthKit did not enable background delivery for \(type.rawValue)"))
                        } else {
                            continuation.resume()
                        }
                    }
                }
            }
        }
    }

    /// Stops every observer query ``startObserving(_:onChange:)`` registered.
    public func stopObserving() async {
        for query in observers { healthStore.stop(query) }
        observers.removeAll()
    }

    // MARK: - Running a query

    /// Executes the query `makeQuery` builds and waits for its one answer; on
    /// cancellation stops waiting at once (a query may never answer) and stops the query.
    private func answer<Value: Sendable>(_ makeQuery: (HealthKitQueryAnswer<Value>) -> HKQuery) async throws -> Value {
        let answer = HealthKitQueryAnswer<Value>()
        var query: HKQuery?
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                    guard answer.install(continuation) else { return }  // cancelled before it began
                    let built = makeQuery(answer)
                    query = built
                    healthStore.execute(built)
                }
            } onCancel: {
                answer.resume(with: .failure(CancellationError()))
            }
        } catch is CancellationError {
            if let query { healthStore.stop(query) }
            throw CancellationError()
        }
    }
}
#endif
