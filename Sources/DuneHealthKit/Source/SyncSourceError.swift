/// A failure of a source's query, as the engine records it: the sync's task
/// fails with ``code`` as its error (the task lifecycle, docs/input-format.md), nothing of the failed query is
/// appended, and the anchor stays.
///
/// The adapter maps HealthKit's errors to these codes (e.g.
/// `HKError.errorDatabaseInaccessible`, the device is locked, to
/// ``databaseInaccessible``); a trace's `fail` line names the code.
public struct SyncSourceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable code, e.g. `databaseInaccessible`; what a trace's `fail` line writes.
    public var code: String
    /// What happened, for people.
    public var message: String

    /// Creates a source error.
    /// - Parameters:
    ///   - code: A stable code (1–256 bytes).
    ///   - message: What happened.
    public init(code: String, message: String = "") {
        self.code = code
        self.message = message
    }

    /// The protected health database cannot be read: the device is locked (HealthKit's `errorDatabaseInaccessible`).
    public static let databaseInaccessible = SyncSourceError(code: "databaseInaccessible",
                                                             message: "the health database is inaccessible while the device is locked")
    /// The user did not authorize reading the type (HealthKit's `errorAuthorizationDenied`).
    public static let authorizationDenied = SyncSourceError(code: "authorizationDenied", message: "reading this type is not authorized")

    /// ``code``, then ``message`` when there is one.
    public var description: String { message.isEmpty ? code : "\(code): \(message)" }
}
