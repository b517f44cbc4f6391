import DuneEvents
import DuneProjections

/// `dune-replay explain MODEL KEY`: which events produced a read-model value, and how.
enum ExplainCommandLine {
    static let subcommand = Subcommand(
        name: "explain",
        summary: "Explain a read-model value: its formula with every intermediate number, and every event behind it.",
        usage: "dune-replay explain [--log PATH] [--json] readiness DATE | weekly WEEK | trends METRIC [DATE] | sync FEATURE | refresh SEQ",
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
          --log PATH  The log.
          --json      The explanation as JSON; its "value" is the entry exactly as in the rebuilt file.
        """,
        run: { try run($0) })

    static func run(_ raw: [String]) throws -> ExitCode {
        let arguments = try Arguments(command: "explain", arguments: raw, options: [LogOptions.log, .init(name: "--json", takesValue: false)])
        let positionals = arguments.positionals
        guard let model = positionals.first else {
            throw usage("Error: expected a MODEL (readiness, weekly, trends, sync or refresh) and its KEY")
        }
        let keys = Array(positionals.dropFirst())
        let path = LogOptions.path(arguments)
        let json = arguments.flag("--json")
        let explanation: ExplainedValue
        switch model {
        case "readiness":
            guard keys.count == 1 else { throw usage("Error: 'explain readiness' expects one DATE (YYYY-MM-DD)") }
            let day = try date(keys[0])
            try LogOptions.requireExisting(path)
            explanation = .readiness(try readiness(path: path, day: day))
        case "weekly", "weeklyStats":
            guard keys.count == 1 else { throw usage("Error: 'explain weekly' expects one WEEK (YYYY-Www) or a date in it") }
            guard let week = WeekKey(keys[0]) ?? DayKey(keys[0])?.isoWeek else {
                throw usage("Error: expected a week YYYY-Www (e.g. 2026-W09) or a date YYYY-MM-DD, got '\(keys[0])'")
            }
            try LogOptions.requireExisting(path)
            explanation = .weekly(try weekly(path: path, week: week))
        case "trends":
            guard (1...2).contains(keys.count) else { throw usage("Error: 'explain trends' expects a METRIC and an optional DATE") }
            guard let metric = TrendMetric(rawValue: keys[0]) else {
                throw usage("Error: unknown metric '\(keys[0])'; expected \(TrendMetric.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let day = try keys.count == 2 ? date(keys[1]) : nil
            try LogOptions.requireExisting(path)
            explanation = .trend(try trend(path: path, metric: metric, day: day))
        case "sync", "syncStatus":
            guard keys.count == 1 else { throw usage("Error: 'explain sync' expects one FEATURE (e.g. readiness)") }
            try LogOptions.requireExisting(path)
            explanation = .sync(try sync(path: path, feature: keys[0]))
        case "refresh":
            guard keys.count == 1, let seq = Int(keys[0]), seq >= 1 else {
                throw usage("Error: 'explain refresh' expects the SEQ of a refresh.requested event (a positive integer)")
            }
            try LogOptions.requireExisting(path)
            explanation = .refresh(try refresh(path: path, seq: seq))
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

    private static func readiness(path: String, day: DayKey) throws -> ReadinessExplanation {
        var projection = ReadinessProjection()
        var finder = DaySampleIDs(days: day...day, kinds: ReadinessExplanation.sampleKinds)
        try scan(path) { event in
            projection.apply(event)
            finder.apply(event)
        }
        let history = try sampleHistory(path: path, ids: finder.ids)
        guard let explanation = ReadinessExplanation(projection: projection, date: day, sampleIDs: finder.ids, history: history) else {
            throw notFound("readiness has no entry for \(day): no sample counts for that day\(span(projection.samples.days))")
        }
        return explanation
    }

    private static func weekly(path: String, week: WeekKey) throws -> WeekExplanation {
        var projection = WeeklyStatsProjection()
        var finder = DaySampleIDs(days: WeekExplanation.days(of: week), kinds: WeekExplanation.sampleKinds)
        try scan(path) { event in
            projection.apply(event)
            finder.apply(event)
        }
        let history = try sampleHistory(path: path, ids: finder.ids)
        let model = projection.readModel()
        guard let explanation = WeekExplanation(week: week, projection: projection, model: model, sampleIDs: finder.ids, history: history) else {
            let weeks = model.weeks.isEmpty ? "" : " (weeks \(model.weeks[0].week) – \(model.weeks[model.weeks.count - 1].week))"
            throw notFound("weekly-stats has no entry for \(week): it lies outside the days with samples\(weeks)")
        }
        return explanation
    }

    private static func trend(path: String, metric: TrendMetric, day: DayKey?) throws -> TrendExplanation {
        var projection = TrendsProjection()
        try scan(path) { projection.apply($0) }
        let model = projection.readModel()
        guard let date = day ?? model.lastDay else { throw notFound("trends: the log has no sample") }
        var finder = DaySampleIDs(days: date...date, kinds: TrendExplanation.sampleKinds(metric))
        try scan(path) { finder.apply($0) }
        let history = try sampleHistory(path: path, ids: finder.ids)
        guard let explanation = TrendExplanation(metric: metric, date: date, projection: projection, model: model,
                                                 sampleIDs: finder.ids, history: history) else {
            throw notFound("trends has no metric \(metric.rawValue)")
        }
        return explanation
    }

    private static func sync(path: String, feature: String) throws -> FeatureLoadTrace {
        var trace = FeatureLoadTrace(feature: feature)
        var features: Set<String> = []
        try scan(path) { event in
            if case .task(let record) = event.payload { features.insert(record.feature) }
            trace.apply(event)
        }
        guard !trace.steps.isEmpty else {
            let names = features.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            throw notFound("sync-status has no feature '\(feature)': no task event names it"
                           + (names.isEmpty ? "" : "; features in the log: \(names.joined(separator: ", "))"))
        }
        return trace
    }

    private static func refresh(path: String, seq: Int) throws -> RefreshExplanation {
        var trace = RefreshTrace(seq: seq)
        try scan(path, through: seq) { trace.apply($0) }
        guard let explanation = trace.explanation else {
            if let type = trace.eventType {
                throw notFound("event \(seq) is a \(type.rawValue), not a refresh.requested; see 'dune-replay history --type refresh.requested'")
            }
            throw notFound("the log '\(path)' has no event with seq \(seq)")
        }
        return explanation
    }

    // MARK: - Reading

    /// Folds every event (through `through`) of the log at `path`, in order.
    private static func scan(_ path: String, through: Int = .max, _ body: (RecordedEvent) -> Void) throws {
        try LogReader(path: path).forEachBatch(through: through) { batch in
            for event in batch { body(event) }
        }
    }

    /// The second pass: every event naming one of `ids`.
    private static func sampleHistory(path: String, ids: [String]) throws -> SampleHistory {
        var history = SampleHistory(ids: ids)
        guard !ids.isEmpty else { return history }
        try scan(path) { history.apply($0) }
        return history
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

/// One explanation, of any model.
enum ExplainedValue {
    case readiness(ReadinessExplanation)
    case weekly(WeekExplanation)
    case trend(TrendExplanation)
    case sync(FeatureLoadTrace)
    case refresh(RefreshExplanation)

    var jsonValue: JSONValue {
        switch self {
        case .readiness(let explanation): explanation.jsonValue
        case .weekly(let explanation): explanation.jsonValue
        case .trend(let explanation): explanation.jsonValue
        case .sync(let trace): trace.jsonValue
        case .refresh(let explanation): explanation.jsonValue
        }
    }
}
