import DuneEvents
import DuneTools

/// `dune-replay show SEQ`: one event in full.
enum ShowCommandLine {
    static let subcommand = Subcommand(
        name: "show",
        summary: "Show one event in full.",
        usage: "dune-replay show [--log PATH] [--json] SEQ",
        details: """
        ARGUMENTS:
          SEQ       The event's seq.

        OPTIONS:
          --log PATH  The log.
          --json      The stored JSON line, exactly as in the log.
        """,
        run: { try run($0) })

    static func run(_ raw: [String]) throws -> ExitCode {
        let arguments = try Arguments(command: "show", arguments: raw, options: [LogOptions.log, .init(name: "--json", takesValue: false)])
        guard arguments.positionals.count == 1, let seq = Int(arguments.positionals[0]), seq >= 1 else {
            throw CommandFailure(exitCode: .usage, message: "Error: expected exactly one SEQ (a positive integer)", showUsage: true)
        }
        let path = LogOptions.path(arguments)
        try LogOptions.requireExisting(path)
        let events: [RecordedEvent]
        do {
            events = try LogReader(path: path).events(after: seq - 1, through: seq)
        } catch let error as DuneEventsError where error.code == .newerVersion {
            // A line of a newer version (this one or one before it): named, not interpreted.
            var found: InspectedLine?
            try LogReader(path: path).forEachInspectedLine(after: seq - 1, through: seq) { found = $0 }
            switch found {
            case .newer(let newer)?:
                if arguments.flag("--json") {
                    Terminal.out(bytes: newer.bytes + [UInt8(ascii: "\n")])
                    return .success
                }
                Terminal.out(showNewer(newer))
                return .success
            case .event(let event)?:
                events = [event]
            case nil:
                events = []
            }
        }
        guard let event = events.first else {
            throw CommandFailure(exitCode: .dataError, message: "Error: the log '\(path)' has no event with seq \(seq)")
        }
        if arguments.flag("--json") {
            // The stored line: written back in the version it was stored in.
            var line: [UInt8] = []
            EventCodec.appendLine(event, to: &line)
            Terminal.out(bytes: line)
            return .success
        }
        // The data as this build reads it: upcast to the current shape.
        var data: [UInt8] = []
        EventCodec.appendData(of: event.event, to: &data)
        var text = """
        seq         \(event.seq)
        type        \(event.type.rawValue)
        version     \(versionText(event))
        id          \(event.id.terminalSafe)
        recordedAt  \(event.recordedAt.text)
        when        \(EventFormatting.hasOwnDate(event) ? "\(event.occurredAt.text) (day \(event.occurredAt.localDate))" : "- (no date of its own: see recordedAt)")
        summary     \(EventFormatting.detail(event))
        data        \(String(decoding: data, as: UTF8.self).terminalSafe)

        """
        if case .sampleIngested(let sample) = event.payload {
            text += "counts for  \(sample.day)\(sample.kind == .sleep ? " (the morning the night ends: local date of end + 6 h)" : "")\n"
        }
        Terminal.out(text)
        return .success
    }

    /// The stored `v`, and the version it is read as when older.
    static func versionText(_ event: RecordedEvent) -> String {
        let current = EventVersions.current(event.type)
        guard event.storedVersion < current, !event.isRedacted else { return "\(event.storedVersion)" }
        return "\(event.storedVersion) (read as version \(current))"
    }

    /// What `show` prints for a line of a newer version: its envelope and the stored line.
    static func showNewer(_ newer: NewerLine) -> String {
        """
        seq         \(newer.envelope.seq)
        type        \(newer.envelope.type.terminalSafe)
        version     \(newer.envelope.version) (newer than this build reads: \(newer.newer.type.rawValue) up to version \(newer.newer.newest))
        id          \(newer.envelope.id.terminalSafe)
        recordedAt  \(newer.envelope.recordedAt.terminalSafe)
        line        \(String(decoding: newer.bytes, as: UTF8.self).terminalSafe)

        """
    }
}

/// `dune-replay verify`: check every line of the log.
enum VerifyCommandLine {
    static let subcommand = Subcommand(
        name: "verify",
        summary: "Check the log's integrity: CRC and JSON of every line, gapless seq, unique event ids.",
        usage: "dune-replay verify [--log PATH] [--json]",
        details: """
        OPTIONS:
          --log PATH  The log.
          --json      The report as JSON.

        Exit status 0 when the log is intact, 65 when a line is damaged (each problem is named with its
        line and byte offset) or the last line is torn (the verdict says what the next writer does
        with it), 66 when the log is missing. Events an older version stored with a
        timestamp outside [1900-01-01T00:00:00Z, 2100-01-01T00:00:00Z) are listed as warnings on stderr
        (not damage: exit 0); every read model skips them. Lines of a newer version than this build
        reads (a later version wrote them) are named the same way (not damage: exit 0); commands that
        interpret the log refuse it.
        """,
        run: { try run($0) })

    static func run(_ raw: [String]) throws -> ExitCode {
        let arguments = try Arguments(command: "verify", arguments: raw, options: [LogOptions.log, .init(name: "--json", takesValue: false)])
        let path = LogOptions.path(arguments)
        try LogOptions.requireExisting(path)
        let report = try LogVerifier.verify(path: path)
        if arguments.flag("--json") {
            func lines(_ problems: [LogVerifier.Problem]) -> JSONValue {
                .array(problems.map {
                    .object(JSONObject([JSONMember("line", .number(Double($0.line))), JSONMember("byteOffset", .number(Double($0.byteOffset))),
                                        JSONMember("reason", .string($0.reason))]))
                })
            }
            Terminal.out(JSONWriter.string(.object(JSONObject([
                JSONMember("path", .string(path)), JSONMember("ok", .bool(report.isIntact)),
                JSONMember("lines", .number(Double(report.lines))), JSONMember("bytes", .number(Double(report.bytes))),
                JSONMember("lastSeq", .number(Double(report.lastSeq))), JSONMember("trailingBytes", .number(Double(report.trailingBytes))),
                JSONMember("writerActive", .bool(report.writerActive)),
                JSONMember("problemCount", .number(Double(report.problemCount))), JSONMember("problems", lines(report.problems)),
                JSONMember("warningCount", .number(Double(report.warningCount))), JSONMember("warnings", lines(report.warnings)),
                JSONMember("newerVersionCount", .number(Double(report.newerCount))),
                JSONMember("newerVersionLines", lines(report.newerLines)),
            ]))) + "\n")
        } else if report.isIntact {
            for warning in report.warnings { Terminal.err("\(path): warning: \(String(describing: warning).terminalSafe)\n") }
            if report.warningCount > report.warnings.count {
                let more = report.warningCount - report.warnings.count
                Terminal.err("\(path): warning: … and \(more) more \(Wording.noun(more, "event")) outside the timestamp window\n")
            }
            let appending = report.trailingBytes > 0 ? " (\(report.trailingBytes) more bytes are being appended by an active writer)" : ""
            Terminal.out("ok: \(path): \(Wording.count(report.lines, "event"))\(report.lines > 0 ? ", " + Wording.seqs(1, report.lastSeq) : ""), \(report.bytes - report.trailingBytes) bytes; every CRC matches, seq is gapless, ids are unique\(appending)\n")
            if report.warningCount > 0 {
                Terminal.out("warning: \(Wording.count(report.warningCount, "event")) with a timestamp outside \(TimestampWindow.description) (written by an older version): not damage; every read model skips them\n")
            }
            for newer in report.newerLines { Terminal.err("\(path): newer version: \(String(describing: newer).terminalSafe)\n") }
            if report.newerCount > 0 {
                Terminal.out("note: \(Wording.count(report.newerCount, "line")) of a newer version than this build reads (a later version wrote them): not damage; rebuild, report, explain, forget and any append refuse this log until a later version reads it\n")
            }
        } else {
            // A file that is no log at all (an input file, an export) is named as what it is first.
            if let advice = FileLook.logAdvice(path: path) { Terminal.err(advice + "\n") }
            for problem in report.problems { Terminal.err("\(path): \(String(describing: problem).terminalSafe)\n") }
            if report.problemCount > report.problems.count {
                let more = report.problemCount - report.problems.count
                Terminal.err("\(path): … and \(more) more \(Wording.noun(more, "problem"))\n")
            }
            let torn = report.trailingBytes > 0 && !report.writerActive
            if torn {
                Terminal.err("\(path): byte \(report.bytes - report.trailingBytes): \(Wording.count(report.trailingBytes, "byte")) after the last newline: a torn last line (a write cut short, never acknowledged)\n")
            }
            Terminal.out(verdict(path: path, report: report, torn: torn))
        }
        return report.isIntact ? .success : .dataError
    }

    /// The last line of a report on a log that is not intact: what is wrong,
    /// and for a torn tail what the next writer does with it.
    static func verdict(path: String, report: LogVerifier.Report, torn: Bool) -> String {
        let tail = "the next writer (ingest, forget, an app's store) moves the \(Wording.count(report.trailingBytes, "byte")) after the last newline to "
            + "\(path).torn-<UTC time> and cuts the log back to its last whole line"
        guard report.problemCount > 0 else {
            // Only a torn tail: every whole line is intact.
            let lines = report.lines > 0 ? "\(Wording.count(report.lines, "whole line")) intact (\(Wording.seqs(1, report.lastSeq)))" : "no whole line"
            return "torn tail: \(path): \(lines); \(tail)\(report.lines > 0 ? ", then appends after seq \(report.lastSeq)" : "").\n"
        }
        var text = "damaged: \(path): \(Wording.count(report.problemCount, "damaged line")) of \(report.lines)"
        if torn { text += ", and a torn tail: \(tail); appends stay refused until the damage is dealt with" }
        return text + "\n"
    }
}

/// `dune-replay stats`: counts over the log.
enum StatsCommandLine {
    static let subcommand = Subcommand(
        name: "stats",
        summary: "Count the log's events by type, sample kind and source; show its date span and size.",
        usage: "dune-replay stats [--log PATH] [--json]",
        details: """
        OPTIONS:
          --log PATH  The log.
          --json      As JSON.
        """,
        run: { try run($0) })

    static func run(_ raw: [String]) throws -> ExitCode {
        let arguments = try Arguments(command: "stats", arguments: raw, options: [LogOptions.log, .init(name: "--json", takesValue: false)])
        let path = LogOptions.path(arguments)
        try LogOptions.requireExisting(path)
        var builder = LogStatistics.Builder()
        var newer: [NewerLine] = []
        var validBytes = 0
        var lastSeq = 0
        do {
            validBytes = try LogReader(path: path).forEachBatch { batch in
                for event in batch {
                    builder.add(event)
                    lastSeq = event.seq
                }
            }.validBytes
        } catch let error as DuneEventsError where error.code == .newerVersion {
            // Counted up to the newer line; from it on, line by line, naming the newer ones.
            try LogReader(path: path).forEachInspectedLine(after: lastSeq) { line in
                switch line {
                case .event(let event): builder.add(event)
                case .newer(let line): newer.append(line)
                }
            }
            validBytes = try LogFile.openForReading(path: path).size
        }
        let stats = builder.build(bytes: validBytes)
        if arguments.flag("--json") {
            func counts(_ list: [LogStatistics.Count]) -> JSONValue {
                .object(JSONObject(list.map { JSONMember($0.name, .number(Double($0.count))) }))
            }
            Terminal.out(JSONWriter.string(.object(JSONObject([
                JSONMember("events", .number(Double(stats.events))), JSONMember("bytes", .number(Double(stats.bytes))),
                JSONMember("redacted", .number(Double(stats.redacted))), JSONMember("byType", counts(stats.byType)), JSONMember("byKind", counts(stats.byKind)), JSONMember("bySource", counts(stats.bySource)),
                JSONMember("firstDay", stats.firstDay.map { .string($0.description) } ?? .null),
                JSONMember("lastDay", stats.lastDay.map { .string($0.description) } ?? .null),
            ] + (stats.lookAlikeSources.isEmpty ? [] : [JSONMember("lookAlikeSources", .array(stats.lookAlikeSources.map { .array($0.map { .string($0) }) }))])
              + (newer.isEmpty ? [] : [JSONMember("newerVersion", .array(newer.map { .string($0.summary) }))])))) + "\n")
            return .success
        }
        var text = "\(path): \(Wording.count(stats.events, "event")), \(Wording.count(stats.bytes, "byte"))"
        if let first = stats.firstDay, let last = stats.lastDay { text += ", \(first) – \(last) (\(Wording.count(last.ordinal - first.ordinal + 1, "day")))" }
        if stats.redacted > 0 { text += "; \(stats.redacted) redacted (of forgotten samples)" }
        if !newer.isEmpty { text += "; \(newer.count) of a newer version than this build reads, not counted below" }
        text += "\n"
        for line in newer { text += "  newer version: \(line.summary.terminalSafe)\n" }
        // Look-alike sources are written with their invisible differences shown, and marked.
        var lookAlike: [SourceNames.Exact: String] = [:]
        for group in stats.lookAlikeSources {
            for name in group {
                let others = group.filter { !$0.utf8.elementsEqual(name.utf8) }
                lookAlike[SourceNames.Exact(name)] = others.map { "\"\(SourceNames.visible($0).terminalSafe)\" (\(SourceNames.difference(name, $0)))" }
                    .joined(separator: ", ")
            }
        }
        for (title, list) in [("by type", stats.byType), ("by sample kind", stats.byKind), ("by source", stats.bySource)] where !list.isEmpty {
            text += "\n\(title):\n"
            for count in list {
                guard title == "by source", let others = lookAlike[SourceNames.Exact(count.name)] else {
                    text += "  " + count.name.terminalSafe.padding(28) + String(count.count) + "\n"
                    continue
                }
                text += "  " + SourceNames.visible(count.name).terminalSafe.padding(28) + String(count.count) + "  ! looks like " + others + "\n"
            }
        }
        if !stats.lookAlikeSources.isEmpty {
            text += "\n! marks source names that differ only by case, white space or Unicode form: a selector such as\n"
                + "  'forget --source' names one of them exactly; it lists the others before it changes anything.\n"
        }
        Terminal.out(text)
        return .success
    }
}
