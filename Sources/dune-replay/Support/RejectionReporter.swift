import DuneTools

/// Prints `ingest`'s rejected lines on stderr, a few of each kind (issue 35,
/// item 10): a wrong file gave thousands of identical lines before. Per
/// input, at most ``examplesPerKind`` rejections of one kind are printed —
/// the kind is the reason with its numbers and quoted values blanked, so
/// "invalid JSON at column 3" and "… column 9" are one kind — and the rest
/// are counted and named once at the end: "… and 9,230 more like this".
/// With `--json` nothing is held back (a program reads every line).
final class RejectionReporter {
    static let examplesPerKind = 4

    private let capped: Bool
    /// Printed so far, by input and kind.
    private var printed: [String: Int] = [:]
    /// Held back, by input and kind, in the order first held back.
    private var heldBack: [(input: String, example: String, count: Int)] = []
    private var heldBackIndex: [String: Int] = [:]
    /// Inputs that are plainly not JSON lines (``FileLook``): at most
    /// ``examplesOfAWrongFile`` of their rejections are printed in all.
    private var wrongFiles: [String: Int] = [:]
    static let examplesOfAWrongFile = 8

    init(capped: Bool) {
        self.capped = capped
    }

    /// Marks `input` as plainly not what is read (its advice was printed):
    /// its rejections say little more than the advice, so few are printed.
    func markWrongFile(_ input: String) {
        wrongFiles[input] = 0
    }

    /// Reports one rejected line.
    func report(_ rejection: IngestSession.Rejection) {
        let text = "\(rejection.input):\(rejection.line): \(rejection.reason.terminalSafe)\n"
        guard capped else {
            Terminal.err(text)
            return
        }
        if let printedOfWrongFile = wrongFiles[rejection.input] {
            let key = rejection.input + "\u{0}\u{0}wrong file"
            if printedOfWrongFile < Self.examplesOfAWrongFile {
                wrongFiles[rejection.input] = printedOfWrongFile + 1
                Terminal.err(text)
            } else if let index = heldBackIndex[key] {
                heldBack[index].count += 1
            } else {
                heldBackIndex[key] = heldBack.count
                heldBack.append((rejection.input, "", 1))
            }
            return
        }
        let key = rejection.input + "\u{0}" + Self.kind(of: rejection.reason)
        let count = printed[key, default: 0]
        if count < Self.examplesPerKind {
            printed[key] = count + 1
            Terminal.err(text)
        } else if let index = heldBackIndex[key] {
            heldBack[index].count += 1
        } else {
            heldBackIndex[key] = heldBack.count
            heldBack.append((rejection.input, rejection.reason, 1))
        }
    }

    /// Prints what was held back, one line per input and kind.
    func finish() {
        for group in heldBack where group.example.isEmpty {
            Terminal.err("\(group.input): … and \(Self.grouped(group.count)) more \(Wording.noun(group.count, "line")) rejected: the file is not JSON lines (see above); --json prints every one\n")
        }
        for group in heldBack where !group.example.isEmpty {
            let example = group.example.count > 70 ? String(group.example.prefix(70)) + "…" : group.example
            Terminal.err("\(group.input): … and \(Self.grouped(group.count)) more \(Wording.noun(group.count, "line")) rejected like this (\(example.terminalSafe)); --json prints every one\n")
        }
        heldBack.removeAll()
        heldBackIndex.removeAll()
    }

    /// The reason with digits and quoted values blanked: what rejections "like this" share.
    static func kind(of reason: String) -> String {
        var kind = ""
        var inQuote = false
        var lastWasDigit = false
        let characters = Array(reason)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            index += 1
            // A quoted character ('x', as JSON errors name one) is blanked too.
            if character == "'", index + 1 < characters.count, characters[index + 1] == "'" {
                kind.append("'…'")
                index += 2
                lastWasDigit = false
                continue
            }
            if character == "\"" {
                inQuote.toggle()
                if inQuote { kind.append("\"…\"") }
                lastWasDigit = false
                continue
            }
            if inQuote { continue }
            if character.isASCII, character.isNumber {
                if !lastWasDigit { kind.append("#") }
                lastWasDigit = true
                continue
            }
            lastWasDigit = false
            kind.append(character)
        }
        return kind
    }

    /// `9230` as `9,230`.
    static func grouped(_ value: Int) -> String {
        let digits = String(value)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}
