import DuneEvents

extension DuneEventsError {
    /// What a user of `dune-replay` can run about this error, printed on the
    /// line after it; `nil` when there is nothing to add. The library's
    /// messages say what happened in an app's terms and never name a command
    /// (an app has no terminal); the commands are the CLI's to name.
    var commandLineAdvice: String? {
        switch code {
        case .corruptLog:
            return "Run 'dune-replay verify' on the same log to see every damaged line."
        case .newerVersion:
            return "'dune-replay verify', 'history', 'show', 'tail' and 'stats' still read the log; use a dune-replay built from a later version to interpret it."
        case .invalidInput, .conflict, .logLocked, .inputUnavailable, .io, .closed:
            return nil
        }
    }
}
