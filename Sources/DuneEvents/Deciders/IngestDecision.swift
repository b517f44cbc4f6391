/// The decision for one input line.
package struct IngestDecision: Sendable, Hashable {
    package var outcome: IngestOutcome
    /// The events to append, in order (empty unless `appended`).
    package var events: [Event] = []
    /// Why the line was not appended (for `alreadyAppended` and `conflict`).
    package var reason: String?
}
