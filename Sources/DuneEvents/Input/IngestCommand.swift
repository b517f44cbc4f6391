/// One validated input line: the event it asks for, before the deciders run.
///
/// Made from a typed value an app appends, or by `InputRules.command(from:)`
/// (in DuneHealthImport) from an input object (a JSON input line, an Apple Health record). ``content`` is the canonical
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
        /// The end of a page of a HealthKit sync (docs/sync-trace.md): always appended,
        /// never by an input line (only the sync engine and `dune-replay sync` build it).
        case syncAnchor(SyncAnchorRecord)
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

    /// The command for an intent ``InputRules`` accepted, with its content
    /// written by ``InputContent``: what both front ends (an input line, a
    /// typed value) end in, so equal values are equal content.
    package init(validated intent: Intent, eventID: String?, extra: JSONObject) {
        var content: [UInt8] = []
        InputContent.write(intent, unknown: extra, into: &content)
        self.init(intent: intent, eventID: eventID, extra: extra, content: content)
    }
}

/// A refresh request before the coordinator decides on it.
public struct RefreshRequest: Sendable, Hashable {
    /// What asked for the refresh.
    public var source: RefreshSource
    /// The sample kind an observer fired for: required for ``RefreshSource/healthKitObserver``, optional otherwise.
    public var kind: SampleKind?
    /// When the request was made; the throttles compare these times, never the clock.
    public var at: Timestamp

    /// Creates a refresh request.
    /// - Parameters:
    ///   - source: What asked for the refresh.
    ///   - kind: The sample kind an observer fired for; required for ``RefreshSource/healthKitObserver``.
    ///   - at: When the request was made.
    public init(source: RefreshSource, kind: SampleKind?, at: Timestamp) {
        self.source = source
        self.kind = kind
        self.at = at
    }
}

/// A task lifecycle report before the lifecycle decider runs.
public struct TaskCommand: Sendable, Hashable {
    /// The task's id, 1–256 bytes; every phase of one task carries the same id.
    public var task: String
    /// The feature the task loads (`readiness`, `trends`, `weeklyStats` or a name of the app's own), 1–256 bytes.
    public var feature: String
    /// The phase being reported.
    public var phase: TaskPhase
    /// When the phase happened.
    public var at: Timestamp
    /// The error of a failure; a failure whose error is `cancelled` (any letter case) is stored as a cancellation.
    public var error: String?

    /// Creates a task report.
    /// - Parameters:
    ///   - task: The task's id.
    ///   - feature: The feature the task loads.
    ///   - phase: The phase being reported.
    ///   - at: When the phase happened.
    ///   - error: The error of a failure, if any.
    public init(task: String, feature: String, phase: TaskPhase, at: Timestamp, error: String? = nil) {
        self.task = task
        self.feature = feature
        self.phase = phase
        self.at = at
        self.error = error
    }
}
