#if canImport(HealthKit)
import DuneHealthKit
import DuneProjections
import HealthKit

/// What the app does on a device with HealthKit data: the adapter as the
/// source (background delivery on), recorded to a trace when the user turned
/// on the debug setting. Called from `application(_:didFinishLaunchingWithOptions:)`
/// so the observers are registered when HealthKit launches the app.
enum HealthKitWiring {
    static func source(tracePath: String?) -> any HealthSampleSource {
        let adapter = HealthKitSampleSource(options: HealthKitSourceOptions(backgroundDelivery: .immediate))
        guard let tracePath else { return adapter }
        return TraceRecordingSource(recording: adapter, toTraceAt: tracePath)
    }
}
#endif
