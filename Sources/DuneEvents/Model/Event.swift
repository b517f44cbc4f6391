/// A domain event: what happened, before the log gives it a `seq`.
package struct Event: Sendable, Hashable {
    package var payload: Payload
    /// The idempotency key the input line carried, if any.
    package var eventID: String?
    /// Input fields DuneEvents does not know, kept verbatim (never interpreted).
    package var extra: JSONObject

    /// The typed content of an event.
    package enum Payload: Sendable, Hashable {
        case sampleIngested(Sample)
        case sampleDeleted(SampleDeletion)
        case refreshRequested(RefreshRecord)
        /// A task lifecycle event; its ``TaskRecord/phase`` gives the event type.
        case task(TaskRecord)
        case profileUpdated(ProfileUpdate)
        /// An event of a forgotten sample: only its sample id and type remain.
        case redacted(RedactedEvent)
        /// The record `forget` leaves of a rewrite; folds to nothing.
        case dataForgotten(ForgetRecord)
        /// The end of a page of a HealthKit sync (docs/sync-trace.md); folds only into sync status.
        case syncAnchored(SyncAnchorRecord)
    }

    package init(_ payload: Payload, eventID: String? = nil, extra: JSONObject = JSONObject()) {
        self.payload = payload
        self.eventID = eventID
        self.extra = extra
    }

    /// The log `type` of this event.
    package var type: EventType {
        switch payload {
        case .sampleIngested: .sampleIngested
        case .sampleDeleted: .sampleDeleted
        case .refreshRequested: .refreshRequested
        case .task(let task): task.phase.eventType
        case .profileUpdated: .profileUpdated
        case .redacted(let redacted): redacted.type
        case .dataForgotten: .dataForgotten
        case .syncAnchored: .syncAnchored
        }
    }
}

/// What remains of an event of a forgotten sample: its type and the sample's id.
package struct RedactedEvent: Sendable, Hashable {
    /// The id of the forgotten sample.
    package var sampleID: String
    /// The event's type: `sample.ingested` or `sample.deleted`.
    package var type: EventType
}

/// The `data.forgotten` event: the selector kinds a `forget` used and how much
/// it redacted — never the selectors' values nor any redacted content.
package struct ForgetRecord: Sendable, Hashable {
    /// The selector kinds used (`deleted`, `from`, `kind`, `sample`, `source`, `to`), sorted.
    package var selectors: [String]
    /// How many samples were forgotten.
    package var samples: Int
    /// How many events were redacted.
    package var events: Int

    package init(selectors: [String], samples: Int, events: Int) {
        self.selectors = selectors.sorted()
        self.samples = samples
        self.events = events
    }
}

/// An event as stored in the log: the event plus its position and metadata.
package struct RecordedEvent: Sendable, Hashable {
    /// Position in the log: 1, 2, 3, … without gaps.
    package var seq: Int
    /// The event's UUID, unique in the log.
    package var id: String
    /// Wall-clock time of the append (UTC). Metadata only: no projection reads it.
    package var recordedAt: Timestamp
    package var event: Event
    /// The `v` of the stored line: the version of the type's `data` shape it
    /// was written in (``EventVersions``). ``event`` is always in the current
    /// shape (upcast when this is older); the encoder writes the line back in
    /// this version, so a stored line is printed as it is in the log.
    package var storedVersion: Int

    /// - Parameter storedVersion: the line's `v`; `nil` is the type's current
    ///   version (what a new append writes).
    package init(seq: Int, id: String, recordedAt: Timestamp, event: Event, storedVersion: Int? = nil) {
        self.seq = seq
        self.id = id
        self.recordedAt = recordedAt
        self.event = event
        self.storedVersion = storedVersion ?? EventVersions.current(event.type)
    }

    package var type: EventType { event.type }
    package var payload: Event.Payload { event.payload }
}

/// A request to delete a sample by id.
public struct SampleDeletion: Sendable, Hashable {
    /// The id of the sample to delete.
    public var sampleID: String
    /// When the sample was deleted.
    public var at: Timestamp

    /// Creates a deletion of the sample with id `sampleID`, deleted at `at`.
    public init(sampleID: String, at: Timestamp) {
        self.sampleID = sampleID
        self.at = at
    }
}

/// A profile change; today only the nightly sleep target.
public struct ProfileUpdate: Sendable, Hashable {
    /// The nightly sleep target in minutes: more than 0, at most 1440.
    public var sleepTargetMinutes: Double
    /// When the setting changed.
    public var at: Timestamp

    /// Creates a profile change to a sleep target of `sleepTargetMinutes`, made at `at`.
    public init(sleepTargetMinutes: Double, at: Timestamp) {
        self.sleepTargetMinutes = sleepTargetMinutes
        self.at = at
    }
}
