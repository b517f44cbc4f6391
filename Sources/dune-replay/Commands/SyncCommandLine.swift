import DuneEvents
import DuneHealthKit
import DuneProjections
import DuneTools

/// `dune-replay sync --trace FILE`: replays a recorded HealthKit through the
/// sync engine (docs/sync-trace.md).
enum SyncCommandLine {
    static let subcommand = Subcommand(
        name: "sync",
        summary: "Replay a recorded HealthKit sync (a trace) through the sync engine into the log.",
        usage: "dune-replay sync --trace FILE [--log PATH] [--wait|--no-wait] [--json]",
        details: """
        OPTIONS:
          --trace FILE     The trace: JSON lines of page, reconcile and fail records, in the order
                           HealthKit answered (docs/sync-trace.md); '-' reads stdin.
          --log PATH       The log (created when missing, in an existing folder).
          --wait           Wait until another writer has finished (default: wait up to 5 s, then exit 75).
          --no-wait        Exit 75 at once when another writer holds the log.
          --json           Print the summary as one JSON line.

        Each page is appended as one atomic batch: its samples, a sample.deleted per deleted id,
        then sync.anchored with the page's anchor. A sample the input rules reject is counted by
        reason, not appended, and the anchor still advances. A reconcile deletes the stored samples
        of its type on its days that it does not list. A fail line fails the type's sync task
        (feature sync.<type>); nothing else is appended for it.

        A run after an interrupted one resumes: for each type, the lines up to and including the
        page whose anchor is the type's stored anchor are skipped. A trace whose pages do not hold
        a type's stored anchor is refused (exit 65).

        The whole trace is read first: a malformed line is refused with its line number (exit 65)
        before anything is appended. Exit 0 when every line was applied (fail lines included).
        """,
        run: { try await run($0) })

    static func run(_ raw: [String]) async throws -> ExitCode {
        let arguments = try Arguments(command: "sync", arguments: raw, options: [
            LogOptions.log, .init(name: "--trace", takesValue: true), .init(name: "--json", takesValue: false),
        ] + LogOptions.wait)
        let lockWait = try LogOptions.lockWait(arguments)
        try arguments.requireNoPositionals()
        guard let tracePath = arguments.value("--trace") else {
            throw CommandFailure(exitCode: .usage, message: "Error: missing '--trace FILE'", showUsage: true)
        }
        let trace = try read(tracePath)
        let path = LogOptions.path(arguments)
        try LogOptions.requireFolder(path)
        let store = try await DuneStore.open(at: path, options: DuneStore.Options(waitForLock: lockWait, keepsSnapshots: false))
        for warning in await store.warnings { Terminal.err(warning + "\n") }
        let summary: SyncTraceReplay.Summary
        do {
            summary = try await SyncTraceReplay.run(trace, into: store, now: { EventIdentity.now() }, afterLine: pauseHook())
        } catch let refusal as SyncTraceReplay.Refusal {
            await store.close()
            throw CommandFailure(exitCode: .dataError, message: "Error: \(tracePath): \(refusal.message); nothing was appended")
        } catch {
            await store.close()
            throw error
        }
        await store.close()
        if arguments.flag("--json") {
            Terminal.out(JSONWriter.string(json(summary)) + "\n")
        } else {
            Terminal.out(text(summary))
        }
        return .success
    }

    /// Reads and parses the whole trace; a malformed line is a data error (65).
    static func read(_ path: String) throws -> SyncTrace {
        let reader = try InputLineReader(path: path)
        defer { reader.close() }
        var trace = SyncTrace()
        while let line = try reader.next() {
            do throws(SyncTrace.Malformed) {
                switch line.content {
                case .bytes(let bytes): try trace.append(line: line.number, bytes)
                case .overlong(let count):
                    throw SyncTrace.Malformed(line: line.number, reason: "the line is \(count) bytes long, over the limit of \(reader.maximumLineBytes)")
                }
            } catch {
                throw CommandFailure(exitCode: .dataError,
                                     message: "Error: \(reader.name):\(error.line): \(error.reason); nothing was appended")
            }
        }
        return trace
    }

    /// For the kill tests only (not part of the interface): with
    /// `DUNE_SYNC_LINE_DELAY_MS=N`, sleeps N ms after each applied line, so a
    /// kill lands between lines and inside them across runs.
    static func pauseHook() -> (@Sendable (Int) -> Void)? {
        guard let text = system_environment("DUNE_SYNC_LINE_DELAY_MS"), let millis = Int(text), millis > 0 else { return nil }
        return { _ in SystemClock.sleep(seconds: Double(millis) / 1000) }
    }

    static func text(_ summary: SyncTraceReplay.Summary) -> String {
        var text = "sync: \(Wording.count(summary.lines, "trace line")), \(summary.appliedLines) applied"
        if summary.skippedLines > 0 { text += ", \(summary.skippedLines) skipped (already stored before this run)" }
        text += "\n"
        for type in summary.types {
            var parts = ["\(Wording.count(type.pages, "page"))", "\(type.appended) appended", "\(type.alreadyAppended) already stored",
                         "\(type.deleted) deleted"]
            let rejected = type.rejected.values.reduce(0, +)
            if rejected > 0 {
                let reasons = type.rejected.keys.sorted().map { "\($0) \(type.rejected[$0] ?? 0)" }.joined(separator: ", ")
                parts.append("\(rejected) rejected (\(reasons))")
            }
            if type.reconciles > 0 { parts.append("\(Wording.count(type.reconciles, "reconcile")) deleting \(type.reconcileDeleted)") }
            if type.failures > 0 { parts.append(Wording.count(type.failures, "failure")) }
            if type.skippedLines > 0 { parts.append("\(type.skippedLines) lines skipped, resumed after anchor \(type.resumedFrom ?? "-")") }
            // Anchors and reason codes come from the trace: escaped, line by line.
            text += ("  \(type.type.rawValue): " + parts.joined(separator: ", ") + "; anchor \(type.anchor ?? "none")").terminalSafe + "\n"
        }
        return text
    }

    static func json(_ summary: SyncTraceReplay.Summary) -> JSONValue {
        func count(_ value: Int) -> JSONValue { .number(Double(value)) }
        var types = JSONObject()
        for type in summary.types {
            var rejected = JSONObject()
            for reason in type.rejected.keys.sorted() { rejected[reason] = count(type.rejected[reason] ?? 0) }
            types[type.type.rawValue] = .object(JSONObject([
                JSONMember("alreadyAppended", count(type.alreadyAppended)),
                JSONMember("anchor", type.anchor.map { .string($0) } ?? .null),
                JSONMember("appended", count(type.appended)),
                JSONMember("deleted", count(type.deleted)),
                JSONMember("failures", count(type.failures)),
                JSONMember("lines", count(type.lines)),
                JSONMember("pages", count(type.pages)),
                JSONMember("reconcileDeleted", count(type.reconcileDeleted)),
                JSONMember("reconciles", count(type.reconciles)),
                JSONMember("rejected", .object(rejected)),
                JSONMember("resumedFrom", type.resumedFrom.map { .string($0) } ?? .null),
                JSONMember("skippedLines", count(type.skippedLines)),
            ]))
        }
        return .object(JSONObject([
            JSONMember("appliedLines", count(summary.appliedLines)),
            JSONMember("lines", count(summary.lines)),
            JSONMember("skippedLines", count(summary.skippedLines)),
            JSONMember("types", .object(types)),
        ]))
    }
}
