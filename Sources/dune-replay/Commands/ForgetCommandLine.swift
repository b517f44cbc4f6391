import DuneEvents
import DuneProjections
import DuneTools

/// `dune-replay forget`: erase samples from the log and from the files beside it.
enum ForgetCommandLine {
    static let subcommand = Subcommand(
        name: "forget",
        summary: "Erase samples from the log: their events are redacted in place, nothing of their content remains.",
        usage: "dune-replay forget [--log PATH] [--sample ID]... [--source NAME]... [--kind KIND]... [--from DATE] [--to DATE] [--deleted] [--include-look-alikes] [--dry-run] [--out DIR]... [--wait|--no-wait] [--json]",
        details: """
        OPTIONS:
          --log PATH       The log.
          --sample ID      Forget the sample with this id (repeatable).
          --source NAME    Forget samples from this source (repeatable).
          --kind KIND      Forget samples of this kind (repeatable).
          --from DATE      Forget samples on or after this day (YYYY-MM-DD): the day a sample counts for,
                           as in 'history --since' (a sleep sample's is the local date of its end + 6 h).
          --to DATE        Forget samples on or before this day.
          --deleted        Forget samples whose latest event is a deletion.
          --include-look-alikes
                           Also forget the sources whose names differ from a --source only by case,
                           white space (a non-breaking space) or Unicode form. Without it, forget
                           lists such sources and changes nothing (exit 64): name each one, or add this.
          --dry-run        Print what would be redacted; change no byte.
          --out DIR        A read-model folder to tidy after the rewrite (repeatable): its read
                           models are rebuilt, HTML reports 'report --html' wrote there are
                           re-rendered, any other file is listed as left untouched.
          --wait           Wait until another writer has finished (default: wait up to 5 s, then exit 75).
          --no-wait        Exit 75 at once when another writer holds the log.
          --json           Print the result as one JSON line.

        Values of one selector are OR'd, different selectors are AND'd; at least one is required
        (exit 64). A sample is selected when any of its versions matches. Every event of a selected
        sample keeps its seq, id, type and recordedAt; its data becomes
        {"id":"<sample id>","redacted":true}. One data.forgotten event records the selector kinds
        and counts, never their values. Later input for a forgotten id is never stored again.

        The log is rewritten beside itself and renamed over the old one; a crash leaves the old log
        or the new one, and the next writer finishes or discards the job. Torn side files, the
        checkpoint and the snapshot beside the log are deleted.

        Refuses a damaged log (exit 65), a log another writer still holds after the wait (75) and
        too little free space (74), before changing anything. A selector that matches nothing
        changes nothing.
        """,
        run: { try await run($0) })

    /// What happened in one `--out` folder.
    struct FolderResult {
        var directory: String
        var rebuilt: [String] = []
        var rerendered: [String] = []
        var untouched: [String] = []
    }

    static func run(_ raw: [String]) async throws -> ExitCode {
        let arguments = try Arguments(command: "forget", arguments: raw, options: [
            LogOptions.log, .init(name: "--sample", takesValue: true, repeatable: true),
            .init(name: "--source", takesValue: true, repeatable: true), .init(name: "--kind", takesValue: true, repeatable: true),
            .init(name: "--from", takesValue: true), .init(name: "--to", takesValue: true), .init(name: "--deleted", takesValue: false),
            .init(name: "--dry-run", takesValue: false), .init(name: "--out", takesValue: true, repeatable: true),
            .init(name: "--json", takesValue: false), .init(name: "--include-look-alikes", takesValue: false),
        ] + LogOptions.wait)
        let lockWait = try LogOptions.lockWait(arguments)
        try arguments.requireNoPositionals()
        var selection = try selection(arguments)
        guard !selection.isEmpty else {
            throw CommandFailure(exitCode: .usage,
                                 message: "Error: no selector: name what to forget with --sample, --source, --kind, --from, --to or --deleted",
                                 showUsage: true)
        }
        let path = LogOptions.path(arguments)
        try LogOptions.requireExisting(path)
        let dryRun = arguments.flag("--dry-run")
        if !selection.sources.isEmpty {
            try checkLookAlikes(&selection, sources: arguments.all("--source"), include: arguments.flag("--include-look-alikes"), path: path)
        }

        let report: ForgetReport
        if dryRun {
            // A dry run takes no lock and writes nothing (not even a checkpoint).
            report = try LogEraser.rewrite(file: try LogFile.openForReading(path: path), selection: selection, dryRun: true,
                                           protection: .default).report
        } else {
            let started = ContinuousClock.now
            // Until the store's bounded wait lands, any wait is an unbounded one.
            let log = try EventLog(path: path, options: .init(lockWait: lockWait, create: false))
            timingLine("opened", since: started)
            for warning in await log.warnings { Terminal.err(warning + "\n") }
            do {
                report = try await log.forget(selection, dryRun: false, step: stepObserver(start: started),
                                              availableBytes: availableBytesOverride())
            } catch {
                await log.close()
                throw error
            }
            timingLine("deciders' state of the new log derived", since: started)
            await log.close()
            timingLine("closed (checkpoint written)", since: started)
        }
        for warning in report.warnings { Terminal.err(warning + "\n") }

        var folders: [FolderResult] = []
        let directories = arguments.all("--out")
        if !dryRun, report.samples > 0, !directories.isEmpty {
            // One replay of the new log for every folder, and one report page, rendered when a folder has one.
            var engine = ReadModelEngine()
            _ = try await Replayer.replay(try LogReader(path: path), range: LogReader.Range(), into: &engine) { _ in }
            let files = await engine.state().files()
            var page: String?
            for directory in directories {
                folders.append(try await tidy(directory, files: files, page: &page, log: path))
            }
        }
        if arguments.flag("--json") {
            Terminal.out(JSONWriter.string(.object(json(report, folders: folders))) + "\n")
        } else {
            Terminal.out(text(report, folders: folders))
        }
        return .success
    }

    /// With `DUNE_FORGET_TIMING=1`, prints `forget timing: <what> at <seconds> s` to stderr.
    static func timingLine(_ what: String, since start: ContinuousClock.Instant) {
        guard system_environment("DUNE_FORGET_TIMING") == "1" else { return }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        Terminal.err("forget timing: \(what) at \(seconds) s\n")
    }

    /// For benchmarks and the kill tests only (not part of the command's interface):
    /// `DUNE_FORGET_TIMING=1` prints one stderr line per ``LogEraser/Step`` with the
    /// seconds since the command opened the log, so the fsync can be timed apart;
    /// `DUNE_FORGET_PAUSE_AT=<step>` prints `forget: paused at <step>` and
    /// sleeps 60 s there, so a test can kill the process at that exact moment.
    static func stepObserver(start: ContinuousClock.Instant) -> (@Sendable (LogEraser.Step) -> Void)? {
        let timing = system_environment("DUNE_FORGET_TIMING") == "1"
        let pause = system_environment("DUNE_FORGET_PAUSE_AT").flatMap(LogEraser.Step.init(rawValue:))
        guard timing || pause != nil else { return nil }
        return { step in
            if timing { timingLine(step.rawValue, since: start) }
            if step == pause {
                Terminal.err("forget: paused at \(step.rawValue)\n")
                // Held here (the forget runs on the log's own queue, not the cooperative pool); a test kills it at once.
                SystemClock.sleep(seconds: 60)
            }
        }
    }

    /// For the free-space test only (not part of the command's interface): with
    /// `DUNE_FORGET_AVAILABLE_BYTES=<n>`, forget's free-space check sees `n` free
    /// bytes instead of asking the file system, so the refusal (exit 74) can be
    /// tested without filling a disk. Everything else runs as without it.
    static func availableBytesOverride() -> Int64? {
        system_environment("DUNE_FORGET_AVAILABLE_BYTES").flatMap { Int64($0) }
    }

    // MARK: - Look-alike sources

    /// Sources in the log whose names look like a `--source` value but are
    /// other bytes (issue 35, item 12): an erasure must not keep "Apple Watch"
    /// with a non-breaking space silently. Names that differ only by Unicode
    /// normalisation are the same `String` and selected already: said on
    /// stderr. The others are added with `include`, else listed and refused
    /// (64) before anything changes.
    static func checkLookAlikes(_ selection: inout ForgetSelection, sources selectors: [String], include: Bool, path: String) throws {
        var counts: [SourceNames.Exact: Int] = [:]
        _ = try LogReader(path: path).forEachBatch { batch in
            for event in batch {
                if case .sampleIngested(let sample) = event.payload { counts[SourceNames.Exact(sample.source), default: 0] += 1 }
            }
        }
        let names = counts.keys.map(\.name).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var missed: [(name: String, selector: String)] = []
        for selector in selectors {
            for name in names where SourceNames.lookAlike(name, selector) {
                if name == selector {
                    Terminal.err("note: --source \"\(SourceNames.visible(selector).terminalSafe)\" also selects \"\(SourceNames.visible(name).terminalSafe)\" (the same name in another Unicode normalisation)\n")
                } else if !selectors.contains(where: { $0.utf8.elementsEqual(name.utf8) }), !missed.contains(where: { $0.name.utf8.elementsEqual(name.utf8) }) {
                    missed.append((name, selector))
                }
            }
        }
        guard !missed.isEmpty else { return }
        if include {
            for (name, selector) in missed {
                selection.sources.insert(name)
                Terminal.err("note: --include-look-alikes: also forgetting \"\(SourceNames.visible(name).terminalSafe)\" (differs from \"\(SourceNames.visible(selector).terminalSafe)\" by \(SourceNames.difference(name, selector)))\n")
            }
            return
        }
        var message = "Error: the log has \(Wording.count(missed.count, "source")) whose name looks like a --source but is not it; forget would keep \(missed.count == 1 ? "its" : "their") samples:\n"
        for (name, selector) in missed {
            let count = counts[SourceNames.Exact(name)] ?? 0
            message += "  \"\(SourceNames.visible(name).terminalSafe)\": \(Wording.count(count, "sample event")); differs from \"\(SourceNames.visible(selector).terminalSafe)\" by \(SourceNames.difference(name, selector))\n"
        }
        message += "Nothing was changed. Name each source to forget exactly with --source (in bash, $'Apple\\u00a0Watch' writes a non-breaking space), or add --include-look-alikes to forget them too."
        throw CommandFailure(exitCode: .usage, message: message, showUsage: false)
    }

    private static func selection(_ arguments: Arguments) throws(CommandFailure) -> ForgetSelection {
        var selection = ForgetSelection()
        selection.sampleIDs = Set(arguments.all("--sample"))
        selection.sources = Set(arguments.all("--source"))
        for name in arguments.all("--kind") {
            guard let kind = SampleKind(rawValue: name) else {
                throw CommandFailure(exitCode: .usage, message: "Error: unknown kind '\(name)'; expected \(SampleKind.allCases.map(\.rawValue).joined(separator: ", "))",
                                     showUsage: true)
            }
            selection.kinds.insert(kind)
        }
        for option in ["--from", "--to"] {
            guard let text = arguments.value(option) else { continue }
            guard let day = DayKey(text) else {
                throw CommandFailure(exitCode: .usage, message: "Error: '\(option)': '\(text)' is not a date; write YYYY-MM-DD", showUsage: true)
            }
            if option == "--from" { selection.from = day } else { selection.to = day }
        }
        selection.deleted = arguments.flag("--deleted")
        return selection
    }

    // MARK: - Read-model folders

    /// Writes the read models `files` (of the new log) into `directory`, re-renders
    /// the HTML reports this tool wrote there, and lists every other file as left untouched.
    ///
    /// - Parameter page: the report page of the new log; rendered by the first
    ///   folder that holds a report and reused by the others.
    static func tidy(_ directory: String, files: [ReadModelFile], page: inout String?, log: String) async throws -> FolderResult {
        var result = FolderResult(directory: directory)
        try RebuildCommandLine.write(files, to: directory)
        result.rebuilt = files.map(\.fileName)
        let modelNames = Set(files.map(\.fileName))
        let mark = Array(HTMLReport.generatorMark.utf8)
        for name in FileSystem.entries(ofDirectory: directory) ?? [] where !modelNames.contains(name) {
            let file = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            if let head = ProcessCalls.prefix(of: file, count: 1024), head.contains(mark) {
                if page == nil { page = HTMLReport.html(try await ReportData.load(path: log, usingSnapshot: false)) }
                do throws(DuneEventsError) {
                    try AtomicFile.write(Array((page ?? "").utf8), to: file)
                } catch {
                    throw CommandFailure(exitCode: .ioError, message: "Error: cannot re-render the report '\(file)': \(error.message)")
                }
                result.rerendered.append(name)
            } else {
                result.untouched.append(name)
            }
        }
        return result
    }

    // MARK: - Output

    static func text(_ report: ForgetReport, folders: [FolderResult]) -> String {
        if report.samples == 0 {
            return "Nothing matched: no sample was selected; the log is unchanged.\n"
        }
        if report.dryRun {
            return "Dry run: would forget \(Wording.count(report.samples, "sample")) (\(Wording.count(report.redactedEvents, "event"))): "
                + report.sampleIDs.joined(separator: ", ").terminalSafe + "\nNothing was changed.\n"
        }
        var text = "Forgot \(Wording.count(report.samples, "sample")): redacted \(Wording.count(report.redactedEvents, "event")); data.forgotten is seq \(report.forgottenSeq ?? 0).\n"
        for file in report.deletedFiles { text += "  deleted \(file.terminalSafe)\n" }
        for folder in folders {
            text += "\(folder.directory): rebuilt \(folder.rebuilt.joined(separator: ", "))"
            if !folder.rerendered.isEmpty { text += "; re-rendered \(folder.rerendered.joined(separator: ", "))" }
            text += "\n"
            for name in folder.untouched { text += "  left untouched (not written by dune-replay; check it yourself): \(name.terminalSafe)\n" }
        }
        return text
    }

    static func json(_ report: ForgetReport, folders: [FolderResult]) -> JSONObject {
        func strings(_ values: [String]) -> JSONValue { .array(values.map { .string($0) }) }
        var members = [
            JSONMember("dryRun", .bool(report.dryRun)),
            JSONMember("selectors", strings(report.selectors)),
            JSONMember("samples", .number(Double(report.samples))),
            JSONMember("events", .number(Double(report.redactedEvents))),
            JSONMember("forgottenSeq", report.forgottenSeq.map { .number(Double($0)) } ?? .null),
            JSONMember("deleted", strings(report.deletedFiles)),
            JSONMember("folders", .array(folders.map { folder in
                .object(JSONObject([
                    JSONMember("directory", .string(folder.directory)), JSONMember("rebuilt", strings(folder.rebuilt)),
                    JSONMember("rerendered", strings(folder.rerendered)), JSONMember("untouched", strings(folder.untouched)),
                ]))
            })),
        ]
        if report.dryRun { members.append(JSONMember("sampleIDs", strings(report.sampleIDs))) }
        return JSONObject([JSONMember("forget", .object(JSONObject(members)))])
    }
}
