/// The one error type of `DuneEvents`.
///
/// Every error says what happened, how to fix it, and where in the data it
/// happened (file, line, byte offset, seq) when that is known. A message
/// never names a command or flag of `dune-replay`: an app has no terminal,
/// and the CLI adds its own advice where it reports the error.
///
/// ```swift
/// throw DuneEventsError(.logLocked, "log 'Logs/events.jsonl' is in use by another writer",
///                       location: .init(path: "Logs/events.jsonl"))
/// ```
public struct DuneEventsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is; the CLI maps codes to exit statuses.
    public enum Code: String, Sendable, Equatable {
        /// An input line or value failed validation.
        case invalidInput
        /// An idempotency key was reused with different content.
        case conflict
        /// The log is damaged somewhere other than a torn last line.
        case corruptLog
        /// Another process holds the writer lock.
        case logLocked
        /// A file could not be found or read.
        case inputUnavailable
        /// A write, fsync, truncate or other I/O call failed.
        case io
        /// The store or log was closed, or suspended: open (or resume) it first.
        case closed
        /// The log holds an event of a newer version than this build reads
        /// (a later version of the app wrote it): nothing is interpreted or
        /// appended; read the log with that version or a later one.
        case newerVersion
    }

    /// Where in the data the error happened; every field is optional.
    public struct Location: Sendable, Equatable, CustomStringConvertible {
        /// The file the error is about, as the caller named it.
        public var path: String?
        /// The 1-based line number in that file.
        public var line: Int?
        /// The byte offset of the line (or of the damage) from the start of the file.
        public var byteOffset: Int?
        /// The `seq` of the stored event involved.
        public var seq: Int?

        /// Creates a location; leave out what is not known.
        public init(path: String? = nil, line: Int? = nil, byteOffset: Int? = nil, seq: Int? = nil) {
            self.path = path
            self.line = line
            self.byteOffset = byteOffset
            self.seq = seq
        }

        /// The known parts joined by commas, e.g. `Logs/events.jsonl, line 12, byte 3071`;
        /// empty when nothing is known.
        public var description: String {
            var parts: [String] = []
            if let path { parts.append(path) }
            if let line { parts.append("line \(line)") }
            if let byteOffset { parts.append("byte \(byteOffset)") }
            if let seq { parts.append("seq \(seq)") }
            return parts.joined(separator: ", ")
        }
    }

    /// What kind of failure this is.
    public var code: Code
    /// What happened and how to fix it.
    public var message: String
    /// Where in the data it happened; empty when it is not about one place.
    public var location: Location

    /// Creates an error.
    /// - Parameters:
    ///   - code: What kind of failure this is.
    ///   - message: What happened and how to fix it.
    ///   - location: Where in the data it happened.
    public init(_ code: Code, _ message: String, location: Location = Location()) {
        self.code = code
        self.message = message
        self.location = location
    }

    /// The location, when known, then the message: `Logs/events.jsonl, line 12: …`.
    public var description: String {
        let at = location.description
        return at.isEmpty ? message : "\(at): \(message)"
    }
}
