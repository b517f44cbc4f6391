import DuneEvents
import DuneTools

/// `dune-replay`: append to, rebuild from, inspect and verify a DuneEvents log.
@main
struct DuneReplay {
    static let version = "0.1.0"

    /// Every subcommand: its name, one-line summary, usage and handler.
    static let commands: [Subcommand] = [
        IngestCommandLine.subcommand,
        RebuildCommandLine.subcommand,
        HistoryCommandLine.subcommand,
        ShowCommandLine.subcommand,
        VerifyCommandLine.subcommand,
        StatsCommandLine.subcommand,
        GenerateCommandLine.subcommand,
        ExplainCommandLine.subcommand,
        TailCommandLine.subcommand,
        ReportCommandLine.subcommand,
        ForgetCommandLine.subcommand,
        // issue 33 (HealthKit sync): trace replay through the sync engine.
        SyncCommandLine.subcommand,
        // Shipping to NATS JetStream (issue 36, SPEC §14).
        ShipCommandLine.subcommand,
        ShipCommandLine.mirrorSubcommand,
    ]

    static func main() async {
        // A closed stdout becomes a write error, and past a file-size limit write(2) fails with
        // EFBIG (reported as exit 74, the batch rolled back) instead of the kernel killing the
        // process mid-write.
        system_ignoreBrokenPipeAndFileSizeSignals()
        let arguments = Array(CommandLine.arguments.dropFirst())
        let status = await run(arguments)
        system_exit(status.rawValue)
    }

    /// Runs one command line; a failed or short stdout write makes it exit 74
    /// with the reason, whatever the command returned.
    static func run(_ arguments: [String]) async -> ExitCode {
        let status = await runCommand(arguments)
        if let failure = Terminal.outputFailure {
            Terminal.err("Error: the output is incomplete: \(failure.message)\n")
            return .ioError
        }
        return status
    }

    private static func runCommand(_ arguments: [String]) async -> ExitCode {
        guard let first = arguments.first else {
            Terminal.err(overview)
            return .usage
        }
        switch first {
        case "--help", "-h", "help":
            if arguments.count > 1, let command = commands.first(where: { $0.name == arguments[1] }) {
                Terminal.out(command.help)
            } else {
                Terminal.out(overview)
            }
            return .success
        case "--version":
            Terminal.out("dune-replay \(version)\n")
            return .success
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            Terminal.err("Error: unknown command '\(first)'\n\(overview)")
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            Terminal.out(command.help)
            return .success
        }
        do {
            return try await command.run(rest)
        } catch let failure as CommandFailure {
            Terminal.err(failure.message.hasSuffix("\n") ? failure.message : failure.message + "\n")
            if failure.showUsage {
                Terminal.err("Usage: \(command.usage)\n  See 'dune-replay \(command.name) --help' for more information.\n")
            }
            return failure.exitCode
        } catch let error as DuneEventsError where error.code == .logLocked {
            // The library's text is for any caller; the advice names this command's options.
            let path = error.location.path ?? "the log"
            Terminal.err("Error: the log '\(path)' is in use by another writer" + LogOptions.lockedAdvice(command: command.name, arguments: rest) + "\n")
            return ExitCode(error)
        } catch let error as DuneEventsError where error.code == .corruptLog && error.location.path.flatMap(FileLook.logAdvice) != nil {
            // Not damage: the file given as the log is something else (an input file, an export).
            Terminal.err("Error: " + (error.location.path.flatMap(FileLook.logAdvice) ?? "\(error)") + "\n")
            return ExitCode(error)
        } catch let error as DuneEventsError {
            Terminal.err("Error: \(error)\n" + (error.commandLineAdvice.map { $0 + "\n" } ?? ""))
            return ExitCode(error)
        } catch {
            Terminal.err("Error: \(error)\n")
            return .ioError
        }
    }

    static var overview: String {
        var text = """
        OVERVIEW: Append to, rebuild from, inspect and verify a DuneEvents log.

        USAGE: dune-replay <command> [options]

        COMMANDS:

        """
        for command in commands {
            text += "  " + command.name.padding(9) + command.summary + "\n"
        }
        text += """

        The log is --log PATH, else $DUNE_LOG, else Logs/events.jsonl.
        See 'dune-replay <command> --help' for a command's options; 'dune-replay --version'.

        """
        return text
    }
}

/// A subcommand of `dune-replay`.
struct Subcommand: Sendable {
    var name: String
    var summary: String
    var usage: String
    /// The text after the usage line in `--help`.
    var details: String
    var run: @Sendable ([String]) async throws -> ExitCode

    var help: String {
        "OVERVIEW: \(summary)\n\nUSAGE: \(usage)\n\n\(details)\n"
    }
}

extension ExitCode {
    /// The exit status for a library error.
    init(_ error: DuneEventsError) {
        switch error.code {
        case .invalidInput, .conflict, .corruptLog, .newerVersion: self = .dataError
        case .logLocked: self = .tempFail
        case .inputUnavailable: self = .noInput
        case .io, .closed: self = .ioError
        }
    }
}

extension String {
    /// The string padded with spaces to `width` characters.
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}

/// Options every log command shares.
enum LogOptions {
    static let log = Arguments.Option(name: "--log", takesValue: true)
    /// `--wait` and `--no-wait`, for the commands that write the log.
    static let wait = [Arguments.Option(name: "--wait", takesValue: false), Arguments.Option(name: "--no-wait", takesValue: false)]
    /// How long a writing command waits for the lock without `--wait`/`--no-wait` (docs/log-format.md).
    static let defaultLockWait = LockWait.atMost(.seconds(5))
    /// The commands that write the log, and so take `--wait` and `--no-wait`.
    static let writingCommands = ["ingest", "forget", "sync"]

    /// `--wait` → wait until the lock is free, `--no-wait` → fail at once,
    /// neither → wait at most 5 s; both is a usage error.
    static func lockWait(_ arguments: Arguments) throws(CommandFailure) -> LockWait {
        switch (arguments.flag("--wait"), arguments.flag("--no-wait")) {
        case (true, true):
            throw CommandFailure(exitCode: .usage, message: "Error: '--wait' and '--no-wait' do not go together; give one of them", showUsage: true)
        case (true, false): return .untilAvailable
        case (false, true): return .never
        case (false, false): return defaultLockWait
        }
    }

    /// What a user of `command` can do about a log another process holds:
    /// the lock options only where the command has them.
    static func lockedAdvice(command: String, arguments: [String]) -> String {
        guard writingCommands.contains(command) else { return "; try again when it has finished" }
        if arguments.contains("--wait") { return "; try again when it has finished" }
        if arguments.contains("--no-wait") {
            return "; try again when it has finished, or leave out --no-wait to wait up to 5 s for it (--wait: until it has finished)"
        }
        return " (waited 5 s for it); try again when it has finished, or pass --wait to wait until it has"
    }

    /// Fails with exit 66 when the folder that should hold the log at `path`
    /// does not exist: a log is created in an existing folder, never with its folder.
    static func requireFolder(_ path: String) throws(CommandFailure) {
        let folder = FileSystem.parentDirectory(of: path)
        switch PathKind.of(folder) {
        case .directory?:
            return
        case nil:
            throw CommandFailure(exitCode: .noInput, message: "Error: the log's folder '\(folder)' does not exist; create it first, or pass --log PATH / set DUNE_LOG to a log in an existing folder")
        default:
            throw CommandFailure(exitCode: .noInput, message: "Error: the log's folder '\(folder)' is not a folder; pass --log PATH / set DUNE_LOG to a log in a folder")
        }
    }

    /// `--log`, else `$DUNE_LOG`, else `Logs/events.jsonl`.
    static func path(_ arguments: Arguments) -> String {
        if let path = arguments.value("--log") { return path }
        if let path = system_environment("DUNE_LOG"), !path.isEmpty { return path }
        return "Logs/events.jsonl"
    }

    /// Fails with exit 66 when a reading command's log does not exist.
    static func requireExisting(_ path: String) throws(CommandFailure) {
        guard let kind = PathKind.of(path) else {
            throw CommandFailure(exitCode: .noInput, message: "Error: no log at '\(path)'. Ingest something first ('dune-replay ingest FILE'), or pass --log PATH / set DUNE_LOG")
        }
        if kind == .directory {
            throw CommandFailure(exitCode: .noInput, message: "Error: '\(path)' is a directory, not a log file; pass --log PATH to a file")
        }
        if let warning = LogEraser.interruptedJobWarning(path: path) { Terminal.err(warning + "\n") }
    }
}
