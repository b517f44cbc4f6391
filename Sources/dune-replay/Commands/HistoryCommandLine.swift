import DuneEvents
import DuneTools

/// `dune-replay history`: list events, filtered.
enum HistoryCommandLine {
    static let subcommand = Subcommand(
        name: "history",
        summary: "List the log's events, filtered by type, kind, date, seq, sample or task.",
        usage: "dune-replay history [--log PATH] [--type TYPE]... [--kind KIND]... [--since DATE] [--until DATE] [--seq A..B] [--sample ID] [--task ID] [--limit N] [--json]",
        details: """
        OPTIONS:
          --type TYPE      sample.ingested, sample.deleted, refresh.requested, task.started, task.completed,
                           task.failed, task.cancelled, profile.updated, data.forgotten (repeatable; 'task'
                           matches all task.*).
          --kind KIND      Sample kind (hrv, restingHeartRate, stepCount, bodyMass, bodyFatPercentage,
                           bodyMassIndex, sleep, workout); repeatable.
          --since DATE     Events on or after this day (YYYY-MM-DD): the day a sample counts for in the
                           read models (the local date of its start; a sleep sample's night is the local
                           date of its end + 6 h), else the local date of its 'at'.
          --until DATE     Events on or before this day.
          --seq A..B       Seq range (A.. or ..B open-ended; a single N is one event).
          --sample ID      Events about one sample id (ingests, corrections, deletion).
          --task ID        Events of one task.
          --limit N        At most N events (the first N that match). Reading stops at the N-th; the
                           '!' marks of unfinished tasks need the rest of the log only when a
                           task.started is among the N (without --limit, one extra pass reads it).
          --json           The stored JSON lines instead of a table.

        Rows marked '!' stand out: a throttled refresh, and a task that started and never ended
        (no completion, failure or cancellation later in the log). On a terminal they are in colour
        unless NO_COLOR is set.
        """,
        run: { try run($0) })

    static func run(_ raw: [String]) throws -> ExitCode {
        let arguments = try Arguments(command: "history", arguments: raw, options: [
            LogOptions.log, .init(name: "--type", takesValue: true, repeatable: true), .init(name: "--kind", takesValue: true, repeatable: true),
            .init(name: "--since", takesValue: true), .init(name: "--until", takesValue: true), .init(name: "--seq", takesValue: true),
            .init(name: "--sample", takesValue: true), .init(name: "--task", takesValue: true), .init(name: "--limit", takesValue: true),
            .init(name: "--json", takesValue: false),
        ])
        try arguments.requireNoPositionals()
        var filter = HistoryFilter()
        for name in arguments.all("--type") {
            if name == "task" {
                filter.types.formUnion([.taskStarted, .taskCompleted, .taskFailed, .taskCancelled])
            } else if let type = EventType(rawValue: name) {
                filter.types.insert(type)
            } else {
                throw CommandFailure(exitCode: .usage, message: "Error: unknown event type '\(name)'; expected \(EventType.allCases.map(\.rawValue).joined(separator: ", ")) or task", showUsage: true)
            }
        }
        for name in arguments.all("--kind") {
            guard let kind = SampleKind(rawValue: name) else {
                throw CommandFailure(exitCode: .usage, message: "Error: unknown sample kind '\(name)'; expected \(SampleKind.allCases.map(\.rawValue).joined(separator: ", "))", showUsage: true)
            }
            filter.kinds.insert(kind)
        }
        filter.since = try arguments.day("--since")
        filter.until = try arguments.day("--until")
        if let text = arguments.value("--seq") { filter.seqs = try seqRange(text) }
        filter.sampleID = arguments.value("--sample")
        filter.taskID = arguments.value("--task")
        let limit = try arguments.integer("--limit", range: 0...Int.max) ?? Int.max
        let json = arguments.flag("--json")

        let path = LogOptions.path(arguments)
        try LogOptions.requireExisting(path)
        // Tasks that never ended are known only at the log's end (tables only; skipped when the
        // filter can show no task.started event, e.g. with --kind). Without a small --limit: one
        // pass first. With one (issue 35, item 8): the rows are held, and the pass runs only when a
        // task.started is among them, so `history --limit 2` reads two events, not the whole log.
        let needsMarks = !json && filter.canMatch(.taskStarted)
        let holdsRows = needsMarks && limit <= Self.heldRowsLimit
        var unfinished: Set<Int> = needsMarks && !holdsRows ? try EventMarker.unfinishedTaskStarts(path: path) : []
        var held: [HeldRow] = []
        let color = Terminal.colorEnabled(1)
        var output = OutputBuffer()
        if !json { output.append(EventFormatting.header + "\n") }
        var shown = 0
        struct LimitReached: Error {}
        var line: [UInt8] = []
        var lastSeq = (filter.seqs?.lowerBound ?? 1) - 1
        func show(_ event: RecordedEvent) throws {
            if shown >= limit { throw LimitReached() }
            shown += 1
            if json {
                // The stored line: written back in the version it was stored in.
                line.removeAll(keepingCapacity: true)
                EventCodec.appendLine(event, to: &line)
                output.append(bytes: line)
            } else if holdsRows {
                held.append(.event(event))
            } else {
                output.append(EventFormatting.row(event, marker: EventMarker.marker(for: event, unfinishedStarts: unfinished), color: color) + "\n")
            }
            // The N-th match is the last one read.
            if shown >= limit { throw LimitReached() }
        }
        do {
            if limit == 0 { throw LimitReached() }
            let range = LogReader.Range(after: lastSeq, throughSeq: filter.seqs?.upperBound ?? .max)
            do {
                try LogReader(path: path).forEachEventBatch(range) { batch in
                    // A failed stdout write ends the listing (reported as exit 74).
                    if Terminal.outputFailed { throw LimitReached() }
                    // Filter on the compact rows; build only the events that are shown.
                    for position in 0..<batch.count where filter.matches(batch, at: position) { try show(batch[position]) }
                    if let last = batch.lastSeq { lastSeq = last }
                }
            } catch let error as DuneEventsError where error.code == .newerVersion {
                // From the first line of a newer version on, line by line: such lines are
                // named (they match every filter but the seq range: nothing of them is read).
                try LogReader(path: path).forEachInspectedLine(after: lastSeq, through: range.throughSeq) { inspected in
                    if Terminal.outputFailed { throw LimitReached() }
                    switch inspected {
                    case .event(let event):
                        if filter.matches(EventBatch([event]), at: 0) { try show(event) }
                    case .newer(let newer):
                        if shown >= limit { throw LimitReached() }
                        shown += 1
                        if json {
                            output.append(bytes: newer.bytes + [UInt8(ascii: "\n")])
                        } else if holdsRows {
                            held.append(.text("newer version: \(newer.summary.terminalSafe)\n"))
                        } else {
                            output.append("newer version: \(newer.summary.terminalSafe)\n")
                        }
                        if shown >= limit { throw LimitReached() }
                    }
                }
            }
        } catch is LimitReached {}
        if holdsRows {
            if held.contains(where: { if case .event(let event) = $0 { event.type == .taskStarted } else { false } }) {
                unfinished = try EventMarker.unfinishedTaskStarts(path: path)
            }
            for row in held {
                switch row {
                case .event(let event):
                    output.append(EventFormatting.row(event, marker: EventMarker.marker(for: event, unfinishedStarts: unfinished), color: color) + "\n")
                case .text(let text):
                    output.append(text)
                }
            }
        }
        output.flush()
        return .success
    }

    /// Up to this `--limit`, rows are held until the listing ends (see ``run(_:)``).
    static let heldRowsLimit = 100_000

    /// A row held until the marks of unfinished tasks are known.
    enum HeldRow {
        case event(RecordedEvent)
        case text(String)
    }

    /// `A..B`, `A..`, `..B` or `N`.
    static func seqRange(_ text: String) throws(CommandFailure) -> ClosedRange<Int> {
        let failure = CommandFailure(exitCode: .usage, message: "Error: '--seq' expects N, A..B, A.. or ..B with positive integers, got '\(text)'", showUsage: true)
        if let single = Int(text), single >= 1 { return single...single }
        let parts = text.split(separator: "..", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw failure }
        let lower = parts[0].isEmpty ? 1 : Int(parts[0])
        let upper = parts[1].isEmpty ? Int.max : Int(parts[1])
        guard let lower, let upper, lower >= 1, lower <= upper else { throw failure }
        return lower...upper
    }
}
