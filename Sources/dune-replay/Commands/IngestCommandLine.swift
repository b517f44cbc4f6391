import DuneEvents
import DuneTools
import Synchronization

/// `dune-replay ingest`: validate input lines and append them to the log.
enum IngestCommandLine {
    static let subcommand = Subcommand(
        name: "ingest",
        summary: "Validate input lines (JSON lines, see docs/input-format.md) and append them to the log.",
        usage: "dune-replay ingest [--log PATH] [--format jsonl|apple-health] [--atomic] [--durability fsync|batch|none] [--wait|--no-wait] [--json] [--progress-json] [FILE...|-]",
        details: """
        ARGUMENTS:
          FILE...                 Input files; '-' (or no FILE with piped stdin) reads stdin.

        OPTIONS:
          --log PATH              The log (default: $DUNE_LOG, else Logs/events.jsonl).
          --format FORMAT         jsonl (JSON lines; default) or apple-health (the Health app's
                                  export.xml, streamed; prints a summary per record type).
          --atomic                Append nothing if any line is rejected or conflicts.
          --durability MODE       fsync (every event), batch (one fsync per batch; default), none.
          --wait                  Wait until another writer has finished (default: wait up to 5 s,
                                  then exit 75).
          --no-wait               Exit 75 at once when another writer holds the log.
          --json                  Print the summary as JSON.
          --progress-json         After each durable batch print {"acknowledgedLines":M,"durableSeq":N} on stderr.

        Rejected lines are reported on stderr as INPUT:LINE: reason, at most 4 of one kind per input,
        then "… and N more lines rejected like this" (--json prints every one). An input that is plainly
        not JSON lines (CSV, XML, one JSON document, a log) is named first, with what to do, and only 8
        of its rejections are printed. Exit status: 0 when every line
        was appended or already present, 65 when any line was rejected, 66 when an input is missing,
        74 on an I/O error, 75 when another process still holds the log after the wait, 130 on Ctrl-C
        (143 on SIGTERM), after saying how many lines are durable and how to resume. The log's
        folder must exist (exit 66 otherwise); the log file is created in it when missing.
        """,
        run: { try await run($0) })

    static func run(_ raw: [String]) async throws -> ExitCode {
        let arguments = try Arguments(command: "ingest", arguments: raw, options: [
            LogOptions.log, .init(name: "--atomic", takesValue: false), .init(name: "--durability", takesValue: true),
            .init(name: "--json", takesValue: false),
            .init(name: "--progress-json", takesValue: false), .init(name: "--format", takesValue: true),
        ] + LogOptions.wait)
        let lockWait = try LogOptions.lockWait(arguments)
        let durabilityName = try arguments.choice("--durability", EventLog.Durability.allCases.map(\.rawValue)) ?? "batch"
        let durability = EventLog.Durability(rawValue: durabilityName) ?? .batch
        let appleHealth = try arguments.choice("--format", ["jsonl", "apple-health"]) == "apple-health"
        var inputs = arguments.positionals
        if inputs.isEmpty {
            guard !system_isatty(0) else {
                throw CommandFailure(exitCode: .usage, message: "Error: no input; give FILE... or '-' for stdin", showUsage: true)
            }
            inputs = ["-"]
        }
        if inputs.filter({ $0 == "-" }).count > 1 {
            throw CommandFailure(exitCode: .usage, message: "Error: '-' (stdin) given more than once", showUsage: true)
        }
        // Open every input before taking the lock, so a typo fails fast with 66 and writes nothing.
        var readers: [InputLineReader] = []
        defer { readers.forEach { $0.close() } }
        for input in inputs { readers.append(try InputLineReader(path: input)) }

        let path = LogOptions.path(arguments)
        try LogOptions.requireFolder(path)
        let log = try EventLog(path: path, options: .init(durability: durability, lockWait: lockWait))
        for warning in await log.warnings { Terminal.err(warning + "\n") }
        let progressJSON = arguments.flag("--progress-json")
        let meter = progressJSON ? nil : ProgressMeter(label: "ingest")
        let rejections = RejectionReporter(capped: !arguments.flag("--json"))
        let durable = DurableProgress()
        InterruptWatch.install { status in
            // A progress line on a terminal is ended first (the meter itself belongs to the ingest).
            Terminal.err((system_isatty(2) ? "\n" : "") + durable.interruptedText() + "\n")
            system_exit(status)
        }
        var session = IngestSession(
            log: log, atomic: arguments.flag("--atomic"),
            onRejection: {
                meter?.finish()
                rejections.report($0)
            },
            onDurable: { progress in
                durable.update(progress)
                if progressJSON {
                    Terminal.err("{\"acknowledgedLines\":\(progress.acknowledgedLines),\"durableSeq\":\(progress.durableSeq)}\n")
                }
                meter?.update("\(progress.acknowledgedLines) lines acknowledged, log at seq \(progress.durableSeq)")
            })
        if appleHealth {
            readers.forEach { $0.close() }
            defer { rejections.finish() }
            let status = try await AppleHealthIngest.run(inputs: inputs, session: &session, json: arguments.flag("--json"), meter: meter)
            await log.close()
            return status
        }
        let pause = system_environment("DUNE_INGEST_PAUSE_AFTER_DURABLE") == "1" ? durable : nil
        let summary = try await ingestAll(readers, into: &session, rejections: rejections, pausingOnceDurable: pause)
        meter?.finish()
        rejections.finish()
        await log.close()
        if arguments.flag("--json") {
            Terminal.out(JSONWriter.string(.object(summaryObject(summary))) + "\n")
        } else {
            Terminal.out(describe(summary) + "\n")
        }
        return summary.rejected + summary.conflicts > 0 ? .dataError : .success
    }

    /// For the interrupt and kill tests only (not part of the command's interface):
    /// with `pausingOnceDurable` (`DUNE_INGEST_PAUSE_AFTER_DURABLE=1`), the first
    /// time a line is acknowledged the ingest prints `ingest: paused with N lines
    /// acknowledged` on stderr and waits there (up to 300 s, on no thread), so a
    /// test can signal it at a known point, mid-ingest, however fast the build.
    private static func ingestAll(_ readers: [InputLineReader], into session: inout IngestSession,
                                  rejections: RejectionReporter,
                                  pausingOnceDurable pause: DurableProgress?) async throws -> IngestSession.Summary {
        var pause = pause
        do {
            for reader in readers {
                // A file that is plainly not JSON lines is named once, before its lines are rejected.
                if let advice = FileLook.of(path: reader.name)?.ingestAdvice(input: reader.name) {
                    Terminal.err(reader.name.terminalSafe + ": " + advice + "\n")
                    rejections.markWrongFile(reader.name)
                }
                while let line = try reader.next() {
                    try await session.submit(line: line, input: reader.name)
                    if let acknowledged = pause?.acknowledgedLines, acknowledged > 0 {
                        pause = nil
                        Terminal.err("ingest: paused with \(acknowledged) lines acknowledged\n")
                        try await Task.sleep(for: .seconds(300))
                    }
                }
            }
        } catch {
            // An input that fails to read: let the batch already handed to the log finish its write.
            try? await session.settle()
            throw error
        }
        return try await session.finish()
    }

    /// What is durable so far, for the words printed on Ctrl-C (issue 35, item 13).
    final class DurableProgress: Sendable {
        private let progress = Mutex<IngestSession.Progress?>(nil)

        func update(_ progress: IngestSession.Progress) {
            self.progress.withLock { $0 = progress }
        }

        /// Lines acknowledged so far.
        var acknowledgedLines: Int { progress.withLock { $0?.acknowledgedLines ?? 0 } }

        /// "Interrupted: …": how many lines are in the log and how to resume.
        func interruptedText() -> String {
            let last = progress.withLock { $0 }
            let resume = "Run the same command again to resume: every line already in the log is skipped as already appended."
            guard let last, last.acknowledgedLines > 0 else {
                return "Interrupted: no line of this ingest was acknowledged yet (a batch being written may be in the log or not). " + resume
            }
            var text = "Interrupted: \(Wording.count(last.acknowledgedLines, "input line")) acknowledged (appended or already in the log; "
            text += "the log is durable through seq \(last.durableSeq)); lines of a batch still being written may or may not be in it. " + resume
            return text
        }
    }

    static func summaryObject(_ summary: IngestSession.Summary) -> JSONObject {
        JSONObject([
            JSONMember("lines", .number(Double(summary.lines))),
            JSONMember("appended", .number(Double(summary.appended))),
            JSONMember("alreadyAppended", .number(Double(summary.alreadyAppended))),
            JSONMember("forgotten", .number(Double(summary.forgotten))),
            JSONMember("conflict", .number(Double(summary.conflicts))),
            JSONMember("rejected", .number(Double(summary.rejected))),
            JSONMember("eventsAppended", .number(Double(summary.eventsAppended))),
            JSONMember("firstSeq", summary.firstSeq.map { .number(Double($0)) } ?? .null),
            JSONMember("lastSeq", summary.lastSeq.map { .number(Double($0)) } ?? .null),
            JSONMember("withheld", .bool(summary.withheld)),
        ])
    }

    static func describe(_ summary: IngestSession.Summary) -> String {
        var text = "\(Wording.count(summary.lines, "line")): \(summary.appended) appended"
        if let first = summary.firstSeq, let last = summary.lastSeq {
            text += " (\(Wording.count(summary.eventsAppended, "event")), \(Wording.seqs(first, last)))"
        }
        text += ", \(summary.alreadyAppended) already appended"
        if summary.forgotten > 0 {
            text += " (\(summary.forgotten) forgotten: \(summary.forgotten == 1 ? "the sample was" : "each sample was") forgotten (erased by forget); it is never stored again)"
        }
        text += ", \(Wording.count(summary.conflicts, "conflict")), \(summary.rejected) rejected"
        if summary.withheld { text += "; --atomic: nothing was appended" }
        return text
    }
}
