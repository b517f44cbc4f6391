import DuneEvents
import DuneProjections
import DuneTools

/// `dune-replay rebuild`: replay the log from scratch into read-model files.
enum RebuildCommandLine {
    static let subcommand = Subcommand(
        name: "rebuild",
        summary: "Rebuild the read models from scratch by replaying the log.",
        usage: "dune-replay rebuild [--log PATH] [--out DIR] [--projection NAME]... [--until-seq N] [--as-of TIME] [--json]",
        details: """
        OPTIONS:
          --log PATH         The log.
          --out DIR          Write readiness.json, trends.json, weekly-stats.json, sync-status.json to DIR
                             (created if missing; files are replaced atomically).
          --projection NAME  readiness, trends, weekly or sync (repeatable; default: all four).
          --until-seq N      The read models as they were after event N.
          --as-of TIME       The read models as the log knew them at TIME (RFC 3339 with offset):
                             events *recorded* (appended, recordedAt) after it are not read. It cuts
                             on when events were appended, not on when samples happened: history
                             imported today is all recorded after a past TIME, so it is all cut.
          --json             Print the read models to stdout as JSON lines (one file per line)
                             instead of the summary, then one line
                             {"rebuild":{"events","skippedOutsideTimestampWindow","throughSeq"}}.

        Events an older version stored with a timestamp outside [1900-01-01T00:00:00Z,
        2100-01-01T00:00:00Z) are skipped by every read model, counted in the summary and
        named by 'dune-replay verify'.

        The same log gives byte-identical files on every run and machine. A damaged log is refused
        (exit 65) and no numbers are printed; run 'dune-replay verify' to see where it is damaged.
        """,
        run: { try await run($0) })

    static func run(_ raw: [String]) async throws -> ExitCode {
        let arguments = try Arguments(command: "rebuild", arguments: raw, options: [
            LogOptions.log, .init(name: "--out", takesValue: true), .init(name: "--projection", takesValue: true, repeatable: true),
            .init(name: "--until-seq", takesValue: true), .init(name: "--as-of", takesValue: true), .init(name: "--json", takesValue: false),
        ])
        try arguments.requireNoPositionals()
        var names: [ProjectionName] = []
        for name in arguments.all("--projection") {
            guard let projection = ProjectionName(cliName: name) else {
                throw CommandFailure(exitCode: .usage, message: "Error: unknown projection '\(name)'; expected \(ProjectionName.allCases.map(\.cliName).joined(separator: ", "))", showUsage: true)
            }
            if !names.contains(projection) { names.append(projection) }
        }
        if names.isEmpty { names = ProjectionName.allCases }
        var range = LogReader.Range()
        if let until = try arguments.integer("--until-seq", range: 0...Int.max) { range.throughSeq = until }
        if let text = arguments.value("--as-of") {
            do {
                range.asOf = try Timestamp(parsing: text)
            } catch {
                throw CommandFailure(exitCode: .usage, message: "Error: '--as-of': \(error.reason)", showUsage: true)
            }
        }
        let path = LogOptions.path(arguments)
        try LogOptions.requireExisting(path)

        if system_environment("DUNE_REBUILD_PROFILE") == "1" {
            try profile(path: path, names: names, out: arguments.value("--out"))
            return .success
        }
        var engine = ReadModelEngine()
        let summary: Replayer.Summary
        let meter = ProgressMeter(label: "rebuild")
        do {
            defer { meter?.finish() }
            summary = try await Replayer.replay(try LogReader(path: path), range: range, into: &engine) { progress in
                meter?.update("\(progress.events) events, seq \(progress.throughSeq)")
            }
        } catch let error as DuneEventsError where error.code == .corruptLog {
            if let advice = FileLook.logAdvice(path: path) {
                // Not damage: the file given as the log is something else (an input file, an export).
                throw CommandFailure(exitCode: .dataError, message: "Error: " + advice + " Nothing was rebuilt.")
            }
            throw CommandFailure(exitCode: .dataError, message: "Error: \(error)\n" + damageAdvice(error, path: path))
        }
        let state = engine.state()
        let files = await state.files(names)
        if let directory = arguments.value("--out") {
            try write(files, to: directory)
        }
        if let asOf = range.asOf, summary.events == 0, let hint = try asOfHint(path: path, asOf: asOf) {
            Terminal.err(hint + "\n")
        }
        if summary.skippedOutsideTimestampWindow > 0 {
            Terminal.err("warning: skipped \(RebuildSummary.skippedText(summary.skippedOutsideTimestampWindow))\n")
        }
        if arguments.flag("--json") {
            var output = OutputBuffer()
            for file in files { output.append(bytes: file.bytes) }
            output.append(bytes: Array((JSONWriter.string(.object(JSONObject([JSONMember("rebuild", .object(JSONObject([
                JSONMember("events", .number(Double(summary.events))),
                JSONMember("skippedOutsideTimestampWindow", .number(Double(summary.skippedOutsideTimestampWindow))),
                JSONMember("throughSeq", .number(Double(summary.throughSeq))),
            ])))]))) + "\n").utf8))
            output.flush()
            return .success
        }
        Terminal.out(RebuildSummary.text(state: state, names: names, replay: summary, files: files, directory: arguments.value("--out")))
        return .success
    }

    /// When `--as-of` left no event but the log holds samples dated before
    /// it (issue 35, item 14): the cut is on `recordedAt`, which surprises a
    /// user whose history was imported after the dates it covers. `nil` when
    /// no sample starts before `asOf` (then an empty result is what was asked).
    static func asOfHint(path: String, asOf: Timestamp) throws -> String? {
        var earlier = 0
        var firstRecorded: Timestamp?
        _ = try LogReader(path: path).forEachBatch { batch in
            for event in batch {
                if firstRecorded == nil { firstRecorded = event.recordedAt }
                if case .sampleIngested(let sample) = event.payload, sample.start < asOf { earlier += 1 }
            }
        }
        guard earlier > 0, let firstRecorded else { return nil }
        return "note: --as-of cuts on when events were recorded (appended to the log), not on when samples happened: "
            + "no event was recorded by \(asOf.text) (the first was recorded \(firstRecorded.text)), though "
            + "\(Wording.count(earlier, "sample")) \(earlier == 1 ? "is" : "are") dated before it. For the read models of a past "
            + "day, rebuild without --as-of and read that day; --until-seq N cuts at an event."
    }

    /// What to do about a damaged log: the line before the damage is the last
    /// good one, and in an intact prefix line N holds seq N, so that seq is the
    /// `--until-seq` that rebuilds everything before the damage.
    static func damageAdvice(_ error: DuneEventsError, path: String) -> String {
        var text = """
            Nothing was rebuilt: read models computed from a damaged log would be wrong.
            To proceed: run 'dune-replay verify --log \(path)' to list the damage; restore the log from a backup
            """
        if let line = error.location.line, line > 1 {
            let lastGood = line - 1
            text += ",\nor rebuild the part before the damage (\(Wording.seqs(1, lastGood))) with --until-seq \(lastGood)."
        } else {
            text += ".\nThe damage is on the first line: there is nothing before it to rebuild."
        }
        return text
    }

    /// Writes each file to `directory/<name>` atomically (temporary file, fsync, rename), through
    /// the platform layer: mode 0600, the default protection class.
    static func write(_ files: [ReadModelFile], to directory: String) throws {
        do throws(DuneEventsError) {
            try AtomicFile.createDirectories(directory)
            for file in files {
                try AtomicFile.write(file.bytes, to: directory.hasSuffix("/") ? directory + file.fileName : directory + "/" + file.fileName)
            }
        } catch {
            throw CommandFailure(exitCode: .ioError, message: "Error: cannot write the read models to '\(directory)': \(error.message)")
        }
    }

    // MARK: - DUNE_REBUILD_PROFILE=1

    /// Prints to stderr how long each stage of a rebuild takes on its own, on
    /// one thread: reading, finding lines, CRC, decoding (``LogReader/profileStages()``),
    /// then the engine's fold over every batch, its daily stage and models,
    /// each selected model's JSON, and last writing the files to `out`. Times
    /// are the thread's CPU time, which other processes on a busy machine do
    /// not stretch (writing's fsync waits are not in it). The replay overlaps
    /// these stages on several threads, so its wall time is less than their sum.
    static func profile(path: String, names: [ProjectionName], out: String?) throws {
        let start = SystemClock.threadCPUSeconds()
        let wallStart = SystemClock.monotonicSeconds()
        let read = try LogReader(path: path).profileStages()
        var laps = StageLaps(rows: read.stages)
        var engine = ReadModelEngine()
        engine.reserveCapacity(samples: read.batches.reduce(0) { $0 + $1.samples.count })
        laps.restart()
        for batch in read.batches { engine.apply(batch) }
        laps.lap("fold (samples, sleep target, sync status)")
        let state = engine.state()
        laps.lap("daily stage and models")
        var files: [ReadModelFile] = []
        for name in ProjectionName.allCases where names.contains(name) {
            let bytes = state.fileBytes(name)
            laps.lap("JSON \(name.cliName) (\(bytes.count) bytes)")
            files.append(ReadModelFile(projection: name, bytes: bytes))
        }
        if let out {
            laps.restart()
            try write(files, to: out)
            laps.lap("write the files (temporary, fsync, rename; CPU, not the fsync waits)")
        }
        var text = "rebuild profile: \(read.lines) lines, one thread, stage by stage (thread CPU time)\n"
        for (name, seconds) in laps.rows {
            text += "  \(name): \(milliseconds(seconds)) ms\n"
        }
        text += "  total: \(milliseconds(SystemClock.threadCPUSeconds() - start)) ms CPU, \(milliseconds(SystemClock.monotonicSeconds() - wallStart)) ms wall\n"
        Terminal.err(text)
    }

    private static func milliseconds(_ seconds: Double) -> Int { Int((seconds * 1000).rounded()) }
}

/// The profile's rows: each stage's thread CPU seconds since the previous lap (or restart).
private struct StageLaps {
    var rows: [(name: String, seconds: Double)]
    private var clock = SystemClock.threadCPUSeconds()

    init(rows: [(name: String, seconds: Double)]) {
        self.rows = rows
    }

    /// Starts timing the next stage now, leaving out what ran since the last lap.
    mutating func restart() {
        clock = SystemClock.threadCPUSeconds()
    }

    /// Ends the stage `name`.
    mutating func lap(_ name: String) {
        let now = SystemClock.threadCPUSeconds()
        rows.append((name, now - clock))
        clock = now
    }
}
