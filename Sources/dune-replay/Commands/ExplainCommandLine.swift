import DuneEvents
import DuneProjections
import DuneTools

/// `dune-replay explain MODEL KEY`: which events produced a read-model value, and how.
enum ExplainCommandLine {
    static let subcommand = Subcommand(
        name: "explain",
        summary: "Explain a read-model value: its formula with every intermediate number, and every event behind it.",
        usage: "dune-replay explain [--log PATH] [--json] [--no-snapshot] readiness DATE | weekly WEEK | trends METRIC [DATE] | sync FEATURE | refresh SEQ",
        details: """
        MODELS:
          readiness DATE          The day's score: sub-scores, weights, z = (x − μ)/σ over the D−60…D−1
                                  baseline (n, μ, σ and every baseline day), the sleep intervals after union,
                                  and every hrv / resting-HR / sleep sample of the day by seq.
          weekly WEEK             A week (2026-W09, or any date in it): totals, each workout, each day's
                                  steps per source, and the change against the week before.
          trends METRIC [DATE]    A metric of trends.json (hrv, restingHeartRate, sleepMinutes, steps, bodyMass,
                                  bodyFatPercentage, bodyMassIndex, workoutMinutes) on DATE (default: the last
                                  day): value, avg7 and avg28 windows; on the last day the change% against
                                  the L−34…L−7 baseline, the HRV normal range, the training load.
          sync FEATURE            A feature's load phase, task event by task event, and tasks never ended.
          refresh SEQ             The refresh coordinator's state at request SEQ: the last performed refresh,
                                  the last observer of its kind, the time since each against the 60 s throttles.

        Samples are listed with every event that named their id: corrections (superseded versions),
        deletions, versions that moved to another day, and samples of the day that do not count, with why.

        OPTIONS:
          --log PATH     The log.
          --json         The explanation as JSON; its "value" is the entry exactly as in the rebuilt file.
          --no-snapshot  Replay the whole log instead of starting from <log>.snapshot.

        readiness, weekly and trends start from <log>.snapshot when it is valid (the events after
        it are replayed; stderr says so), else from a replay of the whole log, after which a
        snapshot is written when no other process holds the log's writer lock; then one pass over
        the log finds the samples and every event that named them. The explanation is the same
        either way. sync and refresh read the log's task and refresh events in one pass.
        """,
        run: { try await run($0) })

    static func run(_ raw: [String]) async throws -> ExitCode {
        let arguments = try Arguments(command: "explain", arguments: raw, options: [
            LogOptions.log, .init(name: "--json", takesValue: false), .init(name: "--no-snapshot", takesValue: false),
        ])
        let positionals = arguments.positionals
        guard let model = positionals.first else {
            throw usage("Error: expected a MODEL (readiness, weekly, trends, sync or refresh) and its KEY")
        }
        let keys = Array(positionals.dropFirst())
        let path = LogOptions.path(arguments)
        let json = arguments.flag("--json")
        let explainer = LogExplainer(logPath: path)
        let usingSnapshot = !arguments.flag("--no-snapshot")
        if !usingSnapshot, ["sync", "syncStatus", "refresh"].contains(model) {
            throw usage("Error: '--no-snapshot' does not apply to 'explain \(model)': it reads the log's task and refresh events, never a snapshot")
        }
        func engine() async throws -> ReadModelEngine {
            try await RestoredProjections.load(path: path, usingSnapshot: usingSnapshot, command: "explain", readsIndex: true).engine
        }
        let explanation: ExplainedValue
        switch model {
        case "readiness":
            guard keys.count == 1 else { throw usage("Error: 'explain readiness' expects one DATE (YYYY-MM-DD)") }
            let day = try date(keys[0])
            try LogOptions.requireExisting(path)
            explanation = .readiness(try readiness(explainer, await engine(), day: day))
        case "weekly", "weeklyStats":
            guard keys.count == 1 else { throw usage("Error: 'explain weekly' expects one WEEK (YYYY-Www) or a date in it") }
            guard let week = WeekKey(keys[0]) ?? DayKey(keys[0])?.isoWeek else {
                throw usage("Error: expected a week YYYY-Www (e.g. 2026-W09) or a date YYYY-MM-DD, got '\(keys[0])'")
            }
            try LogOptions.requireExisting(path)
            explanation = .weekly(try weekly(explainer, await engine(), week: week))
        case "trends":
            guard (1...2).contains(keys.count) else { throw usage("Error: 'explain trends' expects a METRIC and an optional DATE") }
            guard let metric = TrendMetric(rawValue: keys[0]) else {
                throw usage("Error: unknown metric '\(keys[0])'; expected \(TrendMetric.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let day = try keys.count == 2 ? date(keys[1]) : nil
            try LogOptions.requireExisting(path)
            explanation = .trend(try trend(explainer, await engine(), metric: metric, day: day))
        case "sync", "syncStatus":
            guard keys.count == 1 else { throw usage("Error: 'explain sync' expects one FEATURE (e.g. readiness)") }
            try LogOptions.requireExisting(path)
            explanation = .sync(try sync(explainer, feature: keys[0]))
        case "refresh":
            guard keys.count == 1, let seq = Int(keys[0]), seq >= 1 else {
                throw usage("Error: 'explain refresh' expects the SEQ of a refresh.requested event (a positive integer)")
            }
            try LogOptions.requireExisting(path)
            explanation = .refresh(try refresh(explainer, seq: seq))
        default:
            throw usage("Error: unknown model '\(model)'; expected readiness, weekly, trends, sync or refresh")
        }
        if json {
            Terminal.out(JSONWriter.string(explanation.jsonValue) + "\n")
        } else {
            Terminal.out(ExplainText.text(explanation, color: Terminal.colorEnabled(1)))
        }
        return .success
    }

    // MARK: - Models

    private static func readiness(_ explainer: LogExplainer, _ projection: ReadModelEngine, day: DayKey) throws -> ReadinessExplanation {
        guard let explanation = try explainer.readiness(projection, day: day) else {
            throw notFound("readiness has no entry for \(day): no sample counts for that day\(span(projection.samples.days))")
        }
        return explanation
    }

    private static func weekly(_ explainer: LogExplainer, _ engine: ReadModelEngine, week: WeekKey) throws -> WeekExplanation {
        var engine = engine
        let model = engine.state().weeklyStats
        guard let explanation = try explainer.weekly(engine, model: model, week: week) else {
            let weeks = model.weeks.isEmpty ? "" : " (weeks \(model.weeks[0].week) – \(model.weeks[model.weeks.count - 1].week))"
            throw notFound("weekly-stats has no entry for \(week): it lies outside the days with samples\(weeks)")
        }
        return explanation
    }

    private static func trend(_ explainer: LogExplainer, _ projection: ReadModelEngine, metric: TrendMetric, day: DayKey?) throws -> TrendExplanation {
        var projection = projection
        let model = projection.state().trends
        guard let date = day ?? model.lastDay else { throw notFound("trends: the log has no sample") }
        guard let explanation = try explainer.trend(projection, model: model, metric: metric, date: date) else {
            throw notFound("trends has no metric \(metric.rawValue)")
        }
        return explanation
    }

    private static func sync(_ explainer: LogExplainer, feature: String) throws -> FeatureLoadTrace {
        let scan = try explainer.sync(feature: feature)
        guard !scan.trace.steps.isEmpty else {
            throw notFound("sync-status has no feature '\(feature.terminalSafe)': no task event names it"
                           + (scan.features.isEmpty ? "" : "; features in the log: \(scan.features.joined(separator: ", ").terminalSafe)"))
        }
        return scan.trace
    }

    private static func refresh(_ explainer: LogExplainer, seq: Int) throws -> RefreshExplanation {
        let trace = try explainer.refresh(seq: seq)
        guard let explanation = trace.explanation else {
            if let type = trace.eventType {
                throw notFound("event \(seq) is a \(type.rawValue), not a refresh.requested; see 'dune-replay history --type refresh.requested'")
            }
            throw notFound("the log '\(explainer.logPath)' has no event with seq \(seq)")
        }
        return explanation
    }

    // MARK: - Errors

    private static func date(_ text: String) throws(CommandFailure) -> DayKey {
        guard let day = DayKey(text) else { throw usage("Error: expected a date YYYY-MM-DD, got '\(text)'") }
        return day
    }

    private static func span(_ days: [DayKey]) -> String {
        guard let first = days.first, let last = days.last else { return "; the log has no sample" }
        return " (days with samples: \(first) – \(last))"
    }

    private static func usage(_ message: String) -> CommandFailure {
        CommandFailure(exitCode: .usage, message: message, showUsage: true)
    }

    private static func notFound(_ message: String) -> CommandFailure {
        CommandFailure(exitCode: .dataError, message: "Error: " + message)
    }
}
