import DuneEvents

/// What ``DuneStore`` did with one ``StoreInput``.
public enum AppendOutcome: Sendable, Hashable {
    /// Appended and durable; `seq` is the input's own event (a superseding
    /// cancellation the task decider added comes just before it).
    case appended(seq: Int)
    /// Already in the log with the same content: nothing was appended.
    case alreadyAppended
    /// The `eventID` (or the task's phase) is already stored with other content: nothing was appended.
    case conflict(reason: String)
    /// The input failed validation: the rejection's code and field say which
    /// rule and field, its message what `ingest` prints for the same line.
    case rejected(Rejection)

    /// Whether the input is in the log now (appended or already there).
    public var isStored: Bool {
        switch self {
        case .appended, .alreadyAppended: true
        case .conflict, .rejected: false
        }
    }
}
