import DuneEvents
import DuneProjections
import DuneTools

/// `dune-replay report`: a terminal summary, or a self-contained HTML report with charts.
enum ReportCommandLine {
    static let subcommand = Subcommand(
        name: "report",
        summary: "Summarise readiness, HRV, sleep, weeks and training load; --html FILE writes a report with charts.",
        usage: "dune-replay report [--log PATH] [--html FILE|-] [--no-snapshot]",
        details: """
        OPTIONS:
          --log PATH     The log.
          --html FILE    Write one self-contained HTML file (inline SVG charts, no scripts, no network):
                         readiness with sub-scores, HRV with its normal band, sleep per night, weekly
                         volume, training load, and tables. An existing regular FILE is replaced
                         atomically; a symbolic link, FIFO or device is written through, like
                         a shell's '>'. '-' writes the page to stdout.
          --no-snapshot  Replay the whole log instead of starting from <log>.snapshot.

        The read models start from <log>.snapshot when it is valid (the events after it are
        replayed; stderr says so), else from a replay of the whole log, after which a snapshot
        is written when no other process holds the log's writer lock. The report is the same
        either way.

        Without --html: readiness on the last day with data, its sub-scores and a 28-day sparkline,
        HRV against its normal range, last night's sleep, this week vs last week, CTL / ATL / TSB.
        "Today" is the last day with data (no clock is read), so the same log gives the same report.
        """,
        run: { try await run($0) })

    static func run(_ raw: [String]) async throws -> ExitCode {
        let arguments = try Arguments(command: "report", arguments: raw, options: [
            LogOptions.log, .init(name: "--html", takesValue: true), .init(name: "--no-snapshot", takesValue: false),
        ])
        try arguments.requireNoPositionals()
        let path = LogOptions.path(arguments)
        try LogOptions.requireExisting(path)
        let data = try await ReportData.load(path: path, usingSnapshot: !arguments.flag("--no-snapshot"))
        guard let html = arguments.value("--html") else {
            Terminal.out(TerminalReport.text(data, color: Terminal.colorEnabled(1)))
            return .success
        }
        let page = HTMLReport.html(data)
        if html == "-" {
            Terminal.out(page)
        } else {
            try write(Array(page.utf8), to: html)
            Terminal.out("Wrote \(html) (\(page.utf8.count) bytes)\n")
        }
        return .success
    }

    /// Writes the page to `path`: a new or regular file is replaced atomically
    /// (temporary file, fsync, rename); anything else already there — a
    /// symbolic link, a FIFO, a device — is written through, as a shell's `>`
    /// would, so the link, the pipe or the device stays what it is.
    static func write(_ page: [UInt8], to path: String) throws(CommandFailure) {
        do throws(DuneEventsError) {
            switch PathKind.entry(path) {
            case nil, .regularFile?, .directory?:
                try AtomicFile.write(page, to: path)
            case .symbolicLink?, .other?:
                try ProcessCalls.writeThrough(page, to: path)
            }
        } catch {
            throw CommandFailure(exitCode: .ioError, message: "Error: cannot write the report to '\(path)': \(error.message)")
        }
    }
}
