/// One validated input line: the event it asks for, before the deciders run.
///
/// Produced by ``InputParser`` from an input JSON line (or an equivalent
/// object, e.g. from the Apple Health importer). ``content`` is the canonical
/// form of the line without its `eventID`; two lines with equal content are
/// "the same" for idempotency.
package struct IngestCommand: Sendable, Hashable {
    /// What the line asks for.
    package enum Intent: Sendable, Hashable {
        case sample(Sample)
        case deleteSample(SampleDeletion)
        case refresh(RefreshRequest)
        case task(TaskCommand)
        case profile(ProfileUpdate)
    }

    package var intent: Intent
    /// The optional idempotency key.
    package var eventID: String?
    /// Fields the parser did not know, kept verbatim.
    package var extra: JSONObject
    /// Canonical JSON bytes of the line without `eventID`.
    package var content: [UInt8]

    package init(intent: Intent, eventID: String?, extra: JSONObject, content: [UInt8]) {
        self.intent = intent
        self.eventID = eventID
        self.extra = extra
        self.content = content
    }
}

/// A refresh request before the coordinator decides on it.
public struct RefreshRequest: Sendable, Hashable {
    public var source: RefreshSource
    public var kind: SampleKind?
    public var at: Timestamp

    public init(source: RefreshSource, kind: SampleKind?, at: Timestamp) {
        self.source = source
        self.kind = kind
        self.at = at
    }
}

/// A task lifecycle report before the lifecycle decider runs.
public struct TaskCommand: Sendable, Hashable {
    public var task: String
    public var feature: String
    public var phase: TaskPhase
    public var at: Timestamp
    public var error: String?

    public init(task: String, feature: String, phase: TaskPhase, at: Timestamp, error: String? = nil) {
        self.task = task
        self.feature = feature
        self.phase = phase
        self.at = at
        self.error = error
    }
}
