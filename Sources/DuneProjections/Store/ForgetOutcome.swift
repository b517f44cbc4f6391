import DuneEvents

/// What ``DuneStore/forget(sampleIDs:sources:kinds:from:to:deleted:dryRun:)`` did, or would do.
public struct ForgetOutcome: Sendable, Hashable {
    /// The ids of the forgotten (or, in a dry run, selected) samples, sorted.
    public var sampleIDs: [String]
    /// How many events were (or would be) redacted.
    public var redactedEvents: Int
    /// Whether nothing was changed because it was a dry run.
    public var dryRun: Bool
    /// The read models whose content the redaction changed; empty for a dry run or when nothing matched.
    public var changedModels: Set<ProjectionName>

    /// Creates an outcome; the store builds these.
    public init(sampleIDs: [String], redactedEvents: Int, dryRun: Bool, changedModels: Set<ProjectionName>) {
        self.sampleIDs = sampleIDs
        self.redactedEvents = redactedEvents
        self.dryRun = dryRun
        self.changedModels = changedModels
    }
}
