/// Why an input was refused: what `ingest` prints for a rejected line, and
/// what `DuneStore`'s typed appends answer for a rejected value.
///
/// One rule set checks both (docs/input-format.md): an input line and the
/// same input built as a Swift value are refused with the same ``code``,
/// ``field`` and ``message``. Match on ``code`` and ``field`` in code; show
/// ``message`` to people.
///
/// ```swift
/// if case .rejected(let rejection) = outcome, rejection.code == .outOfRange {
///     log("\(rejection.field ?? "input"): \(rejection.message)")
///     // value: hrv 600 ms is outside the plausible range 1–500 ms
/// }
/// ```
public struct Rejection: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of rule the input broke. The raw values are stable: they
    /// may be stored or sent, and never change meaning.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// An input line is longer than 1 MiB (only lines).
        case lineTooLong
        /// An input line is not valid JSON (only lines).
        case invalidJSON
        /// An input line is JSON but not an object (only lines).
        case notAnObject
        /// The line's `type` is not one of the input types (only lines).
        case unknownType
        /// A required field is absent: any field of a line, or a refresh's
        /// `kind` when the source is `healthKitObserver`.
        case missingField
        /// A field holds the wrong JSON type, e.g. a string for a number (only lines).
        case wrongType
        /// A text field (an id, a source, a task, a feature, an activity type, an `eventID`) is empty.
        case emptyText
        /// A text field is longer than 256 bytes.
        case textTooLong
        /// A name is not in its fixed list: a kind, a unit-less enumeration, a sleep stage (only lines).
        case unknownName
        /// A timestamp is not RFC 3339 with seconds and a UTC offset, or a
        /// typed timestamp has an offset that is not whole minutes within ±23:59.
        case invalidTimestamp
        /// A timestamp lies outside [1900-01-01T00:00:00Z, 2100-01-01T00:00:00Z).
        case timestampOutsideWindow
        /// A sample ends before it starts.
        case endBeforeStart
        /// A sample lasts longer than its kind allows (24 h; a workout 48 h).
        case durationTooLong
        /// A unit is not accepted for the kind or the field (only lines: typed units are always accepted).
        case unitNotAccepted
        /// A workout unit is given without its number (only lines).
        case unitWithoutValue
        /// A number is outside its plausible range, or negative where it cannot be.
        case outOfRange
        /// A number is not finite (NaN or an infinity; only typed values: JSON has no such numbers).
        case notFinite
        /// An hrv sample's `measure` is not `sdnn` or `rmssd` (only lines: the typed measure is an ``HRVMeasure``).
        case unknownMeasure
        /// A sample that is not hrv carries a `measure` (a line's `measure`, a typed ``SampleInput/hrvMeasure``).
        case measureNotHRV
    }

    /// What kind of rule the input broke.
    public let code: Code
    /// The input field the rejection concerns (`"value"`, `"start"`,
    /// `"energyUnit"`, …), named as in an input line; `nil` when it is about
    /// the whole line.
    public let field: String?
    /// What is wrong, in one printable line: the reason `ingest` prints for
    /// the same input, e.g. `hrv 600 ms is outside the plausible range 1–500 ms`.
    public let message: String

    /// Creates a rejection; `message` is made printable (see ``printable(_:)``).
    package init(_ code: Code, field: String?, _ message: String) {
        self.code = code
        self.field = field
        self.message = Self.printable(message)
    }

    /// The message.
    public var description: String { message }

    /// Messages longer than this many characters are cut (an input value
    /// quoted in a message may be up to a line's 1 MiB).
    package static let maximumMessageCharacters = 300

    /// `message` as one printable line: control characters (a newline, a
    /// terminal escape, NUL — an input value quoted in the message may hold
    /// any of them) are written as `\n`, `\r`, `\t` or `\u00XX`, and the text
    /// is cut after ``maximumMessageCharacters`` characters with `…`.
    static func printable(_ message: String) -> String {
        var result = ""
        for (count, scalar) in message.unicodeScalars.enumerated() {
            if count == maximumMessageCharacters {
                result += "…"
                break
            }
            switch scalar.value {
            case 0x0A: result += "\\n"
            case 0x0D: result += "\\r"
            case 0x09: result += "\\t"
            case 0x00..<0x20, 0x7F..<0xA0, 0x2028, 0x2029:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
