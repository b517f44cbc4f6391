import DuneEvents
import DuneTools

/// `dune-replay tail`: the last events of the log, and with `--follow` every
/// event appended after them, as another process writes it.
enum TailCommandLine {
    static let subcommand = Subcommand(
        name: "tail",
        summary: "Print the log's last events; with --follow, keep printing events as they are appended.",
        usage: "dune-replay tail [--log PATH] [-n N] [--follow] [--json]",
        details: """
        OPTIONS:
          --log PATH      The log.
          -n N            How many of the last events to print first (default 10; 0 prints none).
          -f, --follow    Keep running: print each event another process appends, as soon as its line
                          is complete (the file is polled every 100 ms), until interrupted (Ctrl-C).
                          A log that does not exist yet is waited for (its folder must exist).
          --json          The stored JSON lines instead of a table.

        Only complete lines are printed; a line whose CRC does not match is reported on stderr and skipped.
        Throttled refreshes are marked '!' (in colour on a terminal, unless NO_COLOR is set).
        """,
        run: { try await run($0) })

    /// Seconds between two looks at the file's size with `--follow`.
    static let pollNanoseconds: UInt64 = 100_000_000

    static func run(_ raw: [String]) async throws -> ExitCode {
        let arguments = try Arguments(command: "tail", arguments: raw, options: [
            LogOptions.log, .init(name: "-n", takesValue: true), .init(name: "--lines", takesValue: true),
            .init(name: "--follow", takesValue: false), .init(name: "-f", takesValue: false), .init(name: "--json", takesValue: false),
        ])
        try arguments.requireNoPositionals()
        if arguments.value("-n") != nil, arguments.value("--lines") != nil {
            throw CommandFailure(exitCode: .usage, message: "Error: '-n' and '--lines' are the same option; give it once", showUsage: true)
        }
        let count = try arguments.integer("-n", range: 0...10_000_000) ?? arguments.integer("--lines", range: 0...10_000_000) ?? 10
        let follow = arguments.flag("--follow") || arguments.flag("-f")
        let path = LogOptions.path(arguments)
        var printer = TailPrinter(json: arguments.flag("--json"), color: Terminal.colorEnabled(1), path: path)

        let file: LogTail
        let first: [LogTail.Line]
        if let opened = try LogTail.open(path: path) {
            file = opened
            first = try file.lastLines(count)
        } else {
            guard follow else { try LogOptions.requireExisting(path); return .noInput }
            try LogOptions.requireFolder(path)
            Terminal.err("tail: waiting for '\(path)' to be created…\n")
            while true {
                try await Task.sleep(nanoseconds: pollNanoseconds)
                if let opened = try LogTail.open(path: path) {
                    file = opened
                    break
                }
            }
            // A new log: every line in it is new.
            first = try file.readNewLines()
        }
        guard printer.printHeader(), printer.print(first), follow else { return .success }
        return try await followLoop(file, &printer, path: path)
    }

    private static func followLoop(_ file: LogTail, _ printer: inout TailPrinter, path: String) async throws -> ExitCode {
        var file = file
        while true {
            try await Task.sleep(nanoseconds: pollNanoseconds)
            if file.wasReplaced() {
                Terminal.err("tail: '\(path)' was replaced or truncated; following the new file from its start\n")
                guard let reopened = try LogTail.open(path: path) else { continue }
                file = reopened
            }
            let lines = try file.readNewLines()
            if !lines.isEmpty, !printer.print(lines) { return .success }
        }
    }
}

/// Formats tailed lines; stops when stdout is closed.
private struct TailPrinter {
    let json: Bool
    let color: Bool
    let path: String

    /// Prints the table header (not for JSON). `false` when stdout is closed.
    func printHeader() -> Bool {
        json ? true : Terminal.out(bytes: Array((EventFormatting.header + "\n").utf8))
    }

    /// Prints complete stored lines. `false` when stdout is closed (e.g. `| head`).
    mutating func print(_ lines: [LogTail.Line]) -> Bool {
        guard !lines.isEmpty else { return true }
        var output: [UInt8] = []
        for line in lines {
            let decoded: Result<RecordedEvent, EventCodec.DecodeError>? = line.bytes.withUnsafeBytes { buffer in
                guard StoredLine.isIntact(buffer) else { return nil }
                return Result { () throws(EventCodec.DecodeError) in try EventCodec.decode(buffer) }
            }
            if case .failure(let error)? = decoded, error.newer != nil,
               let envelope = ByteView.with(line.bytes, { StoredEnvelope($0) }), let newer = error.newer {
                // A line a later version wrote: named, printed as stored, not interpreted.
                let named = NewerLine(envelope: envelope, newer: newer, bytes: line.bytes, lineNumber: 0, byteOffset: line.byteOffset)
                output.append(contentsOf: json ? line.bytes : Array("newer version: \(named.summary.terminalSafe)".utf8))
                output.append(UInt8(ascii: "\n"))
                continue
            }
            guard case .success(let event)? = decoded else {
                Terminal.err("tail: \(path): byte \(line.byteOffset): damaged line skipped (CRC or JSON); run 'dune-replay verify'\n")
                continue
            }
            if json {
                output.append(contentsOf: line.bytes)
                output.append(UInt8(ascii: "\n"))
            } else {
                output.append(contentsOf: (EventFormatting.row(event, marker: EventMarker.marker(for: event), color: color) + "\n").utf8)
            }
        }
        return Terminal.out(bytes: output)
    }
}
