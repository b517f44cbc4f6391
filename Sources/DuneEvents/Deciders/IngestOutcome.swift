/// Whether an input line was appended (docs/input-format.md).
package enum IngestOutcome: String, Sendable, Hashable, CaseIterable {
    /// New events were appended.
    case appended
    /// The line was already in the log; nothing was appended.
    case alreadyAppended
    /// The idempotency key was used before with different content; the line is rejected.
    case conflict
}
