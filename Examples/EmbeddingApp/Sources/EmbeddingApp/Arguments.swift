/// The command line, parsed by hand (the example links nothing but DuneProjections).
///
/// With no arguments the example runs its demo. With any of these it runs one
/// process of a multi-process test instead:
///
/// - `--log PATH`: the log to open (required with the flags below);
/// - `--append N --source NAME`: append N HRV samples from source NAME, one
///   append call each, ids unique per source; prints `appended K`;
/// - `--read-only`: open the log read-only (as a widget would);
/// - `--hold SECONDS`: after the appends, observe the store that long and
///   print `state throughSeq=N` for every state received, the current one first.
struct Arguments: Equatable {
    var logPath: String?
    var appendCount: Int?
    var source: String?
    var readOnly = false
    var holdSeconds: Double?

    /// Whether no flag was given: the demo runs.
    var isDemo: Bool { self == Arguments() }

    static let usage = """
        usage: EmbeddingApp                                  run the demo
               EmbeddingApp --log PATH [--append N --source NAME] [--read-only] [--hold SECONDS]
        """

    /// A command line that cannot be run, with the reason.
    struct Invalid: Error {
        let message: String
    }

    /// Parses `arguments` (without the program name).
    init(_ arguments: [String]) throws(Invalid) {
        var remaining = arguments[...]
        func value(of flag: String) throws(Invalid) -> String {
            guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                throw Invalid(message: "\(flag) needs a value")
            }
            return value
        }
        while let flag = remaining.popFirst() {
            switch flag {
            case "--log":
                logPath = try value(of: flag)
            case "--append":
                let text = try value(of: flag)
                guard let count = Int(text), count >= 0 else { throw Invalid(message: "--append needs a count ≥ 0, not '\(text)'") }
                appendCount = count
            case "--source":
                source = try value(of: flag)
            case "--read-only":
                readOnly = true
            case "--hold":
                let text = try value(of: flag)
                guard let seconds = Double(text), seconds >= 0, seconds.isFinite else {
                    throw Invalid(message: "--hold needs a number of seconds ≥ 0, not '\(text)'")
                }
                holdSeconds = seconds
            default:
                throw Invalid(message: "unknown argument '\(flag)'")
            }
        }
        guard !isDemo else { return }
        guard logPath != nil else { throw Invalid(message: "--log PATH is required with the other flags") }
        if appendCount != nil, source == nil { throw Invalid(message: "--append needs --source NAME") }
        if source != nil, appendCount == nil { throw Invalid(message: "--source is used only with --append") }
        if let source, source.isEmpty { throw Invalid(message: "--source needs a non-empty name") }
    }

    /// The empty command line.
    init() {}
}
