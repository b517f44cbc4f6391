/// Exit statuses, as sysexits(3) and swift-argument-parser use them (docs/cli.md).
enum ExitCode: Int32 {
    case success = 0
    /// A command-line usage error.
    case usage = 64
    /// Input data was rejected, or `verify` found damage.
    case dataError = 65
    /// An input file is missing or unreadable.
    case noInput = 66
    /// A server cannot be reached (`ship`, `mirror`: docs/shipping.md).
    case unavailable = 69
    /// A write, fsync or other I/O call failed.
    case ioError = 74
    /// Another process holds the log's writer lock.
    case tempFail = 75
}

/// An error that ends the command with a message on stderr and an exit status.
struct CommandFailure: Error {
    var exitCode: ExitCode
    var message: String
    /// Print the command's usage line and a help hint after the message.
    var showUsage = false
}
