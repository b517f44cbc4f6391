import DuneEvents

/// A member of an input line that the fast scanners take
/// (`InputParser.scanSample` and `InputParser.parseSignal`): the
/// one lookup from a key's bytes to its name. Each scanner then takes the
/// members its line type has and leaves any other line to the general parser.
enum InputMember {
    case at, end, error, eventID, feature, id, kind, measure, phase, source, start, task, type, unit, value

    /// The member whose name is exactly `name` (ASCII, as written); `nil` for any other key.
    static func named(_ name: ByteView) -> InputMember? {
        func matches(_ text: StaticString) -> Bool { name.matches(text) }
        switch name.count {
        case 2: return matches("id") ? .id : matches("at") ? .at : nil
        case 3: return matches("end") ? .end : nil
        case 4: return matches("type") ? .type : matches("kind") ? .kind : matches("unit") ? .unit : matches("task") ? .task : nil
        case 5: return matches("start") ? .start : matches("value") ? .value : matches("phase") ? .phase : matches("error") ? .error : nil
        case 6: return matches("source") ? .source : nil
        case 7: return matches("eventID") ? .eventID : matches("feature") ? .feature : matches("measure") ? .measure : nil
        default: return nil
        }
    }
}
