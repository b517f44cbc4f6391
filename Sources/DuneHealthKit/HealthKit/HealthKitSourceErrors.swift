#if canImport(HealthKit)
import DuneProjections
import HealthKit

/// HealthKit's errors as the engine records them (``SyncSourceError`` codes).
enum HealthKitSourceErrors {
    /// `error` translated: `errorDatabaseInaccessible` (the device is locked)
    /// and `errorAuthorizationDenied` to their codes, any other `HKError` to
    /// `healthKit<code>`; an error of another domain passes through.
    static func sourceError(_ error: any Error) -> any Error {
        guard let healthKitError = error as? HKError else { return error }
        switch healthKitError.code {
        case .errorDatabaseInaccessible:
            return SyncSourceError.databaseInaccessible
        case .errorAuthorizationDenied:
            return SyncSourceError.authorizationDenied
        default:
            return SyncSourceError(code: "healthKit\(healthKitError.code.rawValue)", message: "\(error)")
        }
    }
}
#endif
