import DuneEvents
import DuneFixtures

/// `dune-replay generate`: realistic synthetic input for demos and benchmarks.
enum GenerateCommandLine {
    static let subcommand = Subcommand(
        name: "generate",
        summary: "Write realistic synthetic input lines (docs/input-format.md) for demos and benchmarks.",
        usage: "dune-replay generate [--days N] [--seed S] [--start DATE] [--density K] | --extreme CASE [--events N] [--seed S]",
        details: """
        OPTIONS:
          --days N       Days of data (default 180).
          --seed S       Seed of the deterministic generator (default 1): the same days and seed give
                         the same bytes on every machine.
          --start DATE   The first day, YYYY-MM-DD (default \(SyntheticHealthData.defaultStart)).
          --density K    Multiply the step samples per day by K (for large benchmark inputs; default 1).

          --extreme CASE Instead, extreme but valid input for one case (benchmarks, issue 11):
                         \(ExtremeInput.Case.allCases.map(\.rawValue).joined(separator: ", ")).
          --events N     With --extreme: about N lines (default 50000).
                         --days, --start and --density do not apply with --extreme, nor --events
                         without it (exit 64).

        Lines go to stdout: overlapping sleep from several sources, naps, steps from iPhone and Watch,
        a DST change, a trip to another offset, lb/g/kJ/Cal/mi units, duplicates, corrections,
        deletions, refresh bursts, superseded and cancelled tasks.
        """,
        run: { try run($0) })

    static func run(_ raw: [String]) throws -> ExitCode {
        let arguments = try Arguments(command: "generate", arguments: raw, options: [
            .init(name: "--days", takesValue: true), .init(name: "--seed", takesValue: true),
            .init(name: "--start", takesValue: true), .init(name: "--density", takesValue: true),
            .init(name: "--extreme", takesValue: true), .init(name: "--events", takesValue: true),
        ])
        try arguments.requireNoPositionals()
        // The two modes take different options: one given to the other is refused, never ignored.
        if arguments.value("--extreme") != nil {
            for option in ["--days", "--start", "--density"] where arguments.value(option) != nil {
                throw CommandFailure(exitCode: .usage, message: "Error: '\(option)' does not apply with '--extreme' (an extreme case sets its own span; use --events N for its size)", showUsage: true)
            }
        } else if arguments.value("--events") != nil {
            throw CommandFailure(exitCode: .usage, message: "Error: '--events' applies only with '--extreme CASE'; for the realistic input use --days N", showUsage: true)
        }
        let days = try arguments.integer("--days", range: 1...100_000) ?? 180
        let density = try arguments.integer("--density", range: 1...1000) ?? 1
        var seed: UInt64 = 1
        if let text = arguments.value("--seed") {
            guard let value = UInt64(text) else {
                throw CommandFailure(exitCode: .usage, message: "Error: '--seed' expects a non-negative integer, got '\(text)'", showUsage: true)
            }
            seed = value
        }
        if let name = arguments.value("--extreme") {
            guard let extremeCase = ExtremeInput.Case(rawValue: name) else {
                throw CommandFailure(exitCode: .usage, message: "Error: unknown case '\(name)' for '--extreme'; expected \(ExtremeInput.Case.allCases.map(\.rawValue).joined(separator: ", "))", showUsage: true)
            }
            let events = try arguments.integer("--events", range: 20...10_000_000) ?? 50_000
            var output = OutputBuffer()
            for line in ExtremeInput.lines(extremeCase, count: events, seed: seed) {
                output.append(line)
                output.append("\n")
            }
            output.flush()
            return .success
        }
        let start = try arguments.day("--start") ?? SyntheticHealthData.defaultStart
        struct OutputFailed: Error {}
        do {
            try SyntheticHealthData(days: days, seed: seed, start: start, density: density).generateBlocks { block in
                // Stop at the first failed write: the caller reports it (exit 74).
                guard Terminal.out(buffer: block) else { throw OutputFailed() }
            }
        } catch is OutputFailed {}
        return .success
    }
}
