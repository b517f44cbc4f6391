import DuneEvents
import DuneShip
import DuneTools

/// `dune-replay ship` and `dune-replay mirror`: a log to a NATS JetStream subject and back (docs/shipping.md).
enum ShipCommandLine {
    static let subcommand = Subcommand(
        name: "ship",
        summary: "Publish the log's lines to a NATS JetStream subject, exactly once, in seq order.",
        usage: "dune-replay ship [--log PATH] --nats URL --subject S [--stream NAME] [--follow] [--json]",
        details: """
        OPTIONS:
          --log PATH       The log.
          --nats URL       The server: nats://[user:password@|token@]host[:port] (port 4222 by default).
                           Credentials over a non-loopback address travel in plain text: a warning says so
                           (put TLS in front: a proxy or a leaf node, docs/shipping.md).
          --subject S      The subject that holds this log (one subject per person, e.g. dune.person.ID).
          --stream NAME    Create this stream (file storage, capturing S) when it does not exist.
                           Without it, a stream that captures S must exist.
          --follow         Keep running: ship again each time the log changes, until interrupted.
          --json           A summary as JSON (with --follow, one line per ship that published).

        Publishes every line the subject does not hold yet, resuming from the subject's last message,
        pipelined: to a stream of the subject alone as a chain of publishes each naming the sequence before
        it, to a shared stream in atomic batches of up to 1000 lines (docs/shipping.md). Each message is the
        stored line without its newline, with the header
        Nats-Msg-Id: <event id>:<crc>:<data.forgotten events in the log>.
        After a forget, the lines the subject holds in their old form are erased and purged on the server,
        and the log is published again.
        Exit 65: the log is damaged, or the subject holds lines this log does not (nothing is published);
        66: no log; 69: the server cannot be reached (the URL is named).
        """,
        run: { try await run($0) })

    static let mirrorSubcommand = Subcommand(
        name: "mirror",
        summary: "Write a NATS JetStream subject's lines into a log, byte for byte.",
        usage: "dune-replay mirror --nats URL --subject S --log OUT [--json]",
        details: """
        OPTIONS:
          --nats URL       The server: nats://[user:password@|token@]host[:port].
          --subject S      The subject a 'ship' published to.
          --log OUT        The log to write (created 0600; its folder must exist). An existing OUT must be a
                           prefix of the subject's lines: mirror appends the rest.
          --json           A summary as JSON.

        The result is byte-identical to the shipped log: 'verify' passes and 'rebuild' gives the same bytes.
        Exit 65: OUT is not a prefix of the subject, or the subject is not a log; 66: no stream captures S;
        69: the server cannot be reached; 75: another process writes OUT.
        """,
        run: { try await runMirror($0) })

    static func run(_ raw: [String]) async throws -> ExitCode {
        let arguments = try Arguments(command: "ship", arguments: raw, options: [
            LogOptions.log, .init(name: "--nats", takesValue: true), .init(name: "--subject", takesValue: true),
            .init(name: "--stream", takesValue: true), .init(name: "--follow", takesValue: false), .init(name: "--json", takesValue: false),
        ])
        try arguments.requireNoPositionals()
        let url = try natsURL(arguments)
        let subject = try self.subject(arguments)
        if let stream = arguments.value("--stream"), stream.isEmpty || stream.contains(where: { " .*>\t".contains($0) }) {
            throw CommandFailure(exitCode: .usage, message: "Error: '--stream \(stream)' is not a stream name (no spaces, '.', '*' or '>')", showUsage: true)
        }
        let path = LogOptions.path(arguments)
        try LogOptions.requireExisting(path)
        var options = ShipOptions(logPath: path, url: url, subject: subject, stream: arguments.value("--stream"))
        options.clientName = "dune-replay ship"
        let follow = arguments.flag("--follow")
        let json = arguments.flag("--json")
        let finalOptions = options
        let outcome: Result<ShipSummary, ShipError> = try await DispatchQueueExecutor(label: "dune.ship").run {
            Result { () throws(ShipError) -> ShipSummary in
                let shipper = try LogShipper.connect(finalOptions) { Terminal.err($0 + "\n") }
                defer { shipper.close() }
                // For the kill test only (not part of the command's interface): see LogShipper.Fault.pause.
                if let after = system_environment("DUNE_SHIP_PAUSE_AFTER").flatMap({ Int($0) }) { shipper.fault = .pause(afterMessages: after) }
                if follow {
                    try shipper.follow(report: { printShip($0, json: json) })
                }
                return try shipper.ship()
            }
        }
        switch outcome {
        case .success(let summary):
            printShip(summary, json: json)
            return .success
        case .failure(let error):
            throw CommandFailure(exitCode: exitCode(error), message: "Error: ship: \(error.message)")
        }
    }

    static func runMirror(_ raw: [String]) async throws -> ExitCode {
        let arguments = try Arguments(command: "mirror", arguments: raw, options: [
            LogOptions.log, .init(name: "--nats", takesValue: true), .init(name: "--subject", takesValue: true),
            .init(name: "--json", takesValue: false),
        ])
        try arguments.requireNoPositionals()
        let url = try natsURL(arguments)
        let subject = try self.subject(arguments)
        guard let path = arguments.value("--log") else {
            throw CommandFailure(exitCode: .usage, message: "Error: mirror needs '--log OUT', the log to write", showUsage: true)
        }
        try LogOptions.requireFolder(path)
        let outcome: Result<MirrorSummary, ShipError> = try await DispatchQueueExecutor(label: "dune.mirror").run {
            Result { () throws(ShipError) -> MirrorSummary in
                try LogMirror.mirror(url: url, subject: subject, outputPath: path) { Terminal.err($0 + "\n") }
            }
        }
        switch outcome {
        case .success(let summary):
            if arguments.flag("--json") {
                Terminal.out(JSONWriter.string(.object(JSONObject([
                    JSONMember("stream", .string(summary.stream)), JSONMember("subject", .string(summary.subject)),
                    JSONMember("log", .string(path)), JSONMember("alreadyHeld", .number(Double(summary.alreadyHeld))),
                    JSONMember("appended", .number(Double(summary.appended))),
                ]))) + "\n")
            } else {
                Terminal.out("mirror: \(summary.appended) lines of '\(subject)' appended to '\(path)' (it held \(summary.alreadyHeld) already)\n")
            }
            return .success
        case .failure(let error):
            throw CommandFailure(exitCode: exitCode(error), message: "Error: mirror: \(error.message)")
        }
    }

    static func exitCode(_ error: ShipError) -> ExitCode {
        switch error.kind {
        case .unavailable: .unavailable
        case .conflict, .damagedLog: .dataError
        case .inputUnavailable: .noInput
        case .locked: .tempFail
        case .failed: .ioError
        }
    }

    private static func printShip(_ summary: ShipSummary, json: Bool) {
        if json {
            Terminal.out(JSONWriter.string(.object(JSONObject([
                JSONMember("stream", .string(summary.stream)), JSONMember("subject", .string(summary.subject)),
                JSONMember("logLines", .number(Double(summary.logLines))), JSONMember("alreadyHeld", .number(Double(summary.alreadyHeld))),
                JSONMember("published", .number(Double(summary.published))), JSONMember("replacedRedacted", .bool(summary.replacedRedacted)),
                JSONMember("purged", .number(Double(summary.purged))), JSONMember("erased", .number(Double(summary.erased))), JSONMember("forgetGeneration", .number(Double(summary.forgetGeneration))),
                JSONMember("mode", .string(summary.mode.rawValue)),
            ]))) + "\n")
            return
        }
        var text = "ship: \(summary.published) lines published to '\(summary.subject)' (stream \(summary.stream)); it held \(summary.alreadyHeld) of the log's \(summary.logLines)"
        if summary.replacedRedacted {
            text += "; first \(summary.erased) messages erased (they held lines a forget has redacted since) and \(summary.purged) more purged"
        }
        Terminal.out(text + "\n")
    }

    private static func natsURL(_ arguments: Arguments) throws(CommandFailure) -> NatsURL {
        guard let text = arguments.value("--nats") else {
            throw CommandFailure(exitCode: .usage, message: "Error: '--nats URL' is required (e.g. nats://127.0.0.1:4222)", showUsage: true)
        }
        guard let url = NatsURL(text) else {
            throw CommandFailure(exitCode: .usage, message: "Error: '--nats \(text)' is not a NATS URL: write nats://[user:password@|token@]host[:port] (TLS belongs to a proxy or a leaf node, docs/shipping.md)", showUsage: true)
        }
        return url
    }

    private static func subject(_ arguments: Arguments) throws(CommandFailure) -> String {
        guard let subject = arguments.value("--subject") else {
            throw CommandFailure(exitCode: .usage, message: "Error: '--subject S' is required (e.g. dune.person.42)", showUsage: true)
        }
        let tokens = subject.split(separator: ".", omittingEmptySubsequences: false)
        guard !subject.isEmpty, !tokens.contains(where: { $0.isEmpty || $0 == "*" || $0 == ">" }),
              !subject.contains(where: { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }), !subject.hasPrefix("$") else {
            throw CommandFailure(exitCode: .usage, message: "Error: '--subject \(subject)' is not a subject to publish to: dot-separated tokens, no spaces, no wildcards ('*', '>'), not starting with '$'", showUsage: true)
        }
        return subject
    }
}
