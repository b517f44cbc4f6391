import DuneEvents

/// A small command-line parser: `--flag`, `--option value`, `--option=value`,
/// `-` as a positional (stdin), and `--` ending options.
///
/// Each command declares its options; anything undeclared is a usage error
/// (exit 64) that names the command's help.
struct Arguments {
    /// A declared option.
    struct Option {
        var name: String
        var takesValue: Bool
        var repeatable = false
    }

    let command: String
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []

    init(command: String, arguments: [String], options: [Option]) throws(CommandFailure) {
        self.command = command
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" { optionsEnded = true; continue }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = options.first(where: { $0.name == name }) else {
                throw CommandFailure(exitCode: .usage, message: "Error: unknown option '\(name)'", showUsage: true)
            }
            if option.takesValue {
                var value = inlineValue
                if value == nil {
                    guard index < arguments.count else {
                        throw CommandFailure(exitCode: .usage, message: "Error: missing value for '\(name)'", showUsage: true)
                    }
                    value = arguments[index]
                    index += 1
                }
                if !option.repeatable, values[name] != nil {
                    throw CommandFailure(exitCode: .usage, message: "Error: '\(name)' given more than once", showUsage: true)
                }
                values[name, default: []].append(value ?? "")
            } else {
                guard inlineValue == nil else {
                    throw CommandFailure(exitCode: .usage, message: "Error: '\(name)' takes no value", showUsage: true)
                }
                flags.insert(name)
            }
        }
    }

    /// Refuses any positional argument (exit 64), for commands that take none.
    func requireNoPositionals() throws(CommandFailure) {
        guard let first = positionals.first else { return }
        throw CommandFailure(exitCode: .usage, message: "Error: unexpected argument '\(first)'", showUsage: true)
    }

    func flag(_ name: String) -> Bool { flags.contains(name) }

    func value(_ name: String) -> String? { values[name]?.last }

    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// An integer option, validated.
    func integer(_ name: String, range: ClosedRange<Int> = Int.min...Int.max) throws(CommandFailure) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw CommandFailure(exitCode: .usage, message: "Error: '\(name)' expects an integer in \(range.lowerBound)...\(range.upperBound), got '\(text)'", showUsage: true)
        }
        return number
    }

    /// A date option, `YYYY-MM-DD`.
    func day(_ name: String) throws(CommandFailure) -> DayKey? {
        guard let text = value(name) else { return nil }
        guard let day = DayKey(text) else {
            throw CommandFailure(exitCode: .usage, message: "Error: '\(name)' expects a date YYYY-MM-DD, got '\(text)'", showUsage: true)
        }
        return day
    }

    /// An option whose value must be one of `choices`.
    func choice(_ name: String, _ choices: [String]) throws(CommandFailure) -> String? {
        guard let text = value(name) else { return nil }
        guard choices.contains(text) else {
            throw CommandFailure(exitCode: .usage, message: "Error: '\(name)' expects one of \(choices.joined(separator: ", ")), got '\(text)'", showUsage: true)
        }
        return text
    }
}
