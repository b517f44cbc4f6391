#if canImport(HealthKit)
import DuneProjections
import Foundation
import HealthKit

/// How ``HealthKitSampleSource`` maps and observes.
public struct HealthKitSourceOptions: Sendable {
    /// The background-delivery frequency enabled for each observed type;
    /// `nil` observes only while the app runs. Needs the
    /// `com.apple.developer.healthkit.background-delivery` entitlement.
    public var backgroundDelivery: HKUpdateFrequency?
    /// The zone of a sample without `HKMetadataKeyTimeZone`: its offset at
    /// each of the sample's instants is the timestamp's offset.
    public var deviceTimeZone: TimeZone
    /// Whether the app is in the background when an observer fires (HealthKit
    /// does not say): it sets ``ObserverWake/isBackgroundDelivery``. Called on
    /// HealthKit's queue, so read a value the app keeps (e.g. from its scene phase).
    public var isInBackground: @Sendable () -> Bool
    /// How many samples a reconcile's anchored query reads at a time.
    public var reconcilePageSize: Int

    /// Creates options.
    /// - Parameters:
    ///   - backgroundDelivery: The frequency to enable, or `nil` for none (default `.immediate`).
    ///   - deviceTimeZone: The device's zone (default: the system's, following its changes).
    ///   - isInBackground: Whether the app is in the background (default: never).
    ///   - reconcilePageSize: Samples per reconcile query (default 1000, at least 1).
    public init(backgroundDelivery: HKUpdateFrequency? = .immediate, deviceTimeZone: TimeZone = .autoupdatingCurrent,
                isInBackground: @escaping @Sendable () -> Bool = { false }, reconcilePageSize: Int = 1000) {
        self.backgroundDelivery = backgroundDelivery
        self.deviceTimeZone = deviceTimeZone
        self.isInBackground = isInBackground
        self.reconcilePageSize = max(1, reconcilePageSize)
    }
}
#endif
