/// A member of an input line that the fast scanners take
/// (`InputParser.scanSample` and `InputParser.parseSignal`): the
/// one lookup from a key's bytes to its name. Each scanner then takes the
/// members its line type has and leaves any other line to the reference parser.
enum InputMember {
    case at, end, error, eventID, feature, id, kind, phase, source, start, task, type, unit, value

    /// The member whose name is exactly `name` (ASCII, as written); `nil` for any other key.
    init?(_ name: UnsafeRawBufferPointer) {
        func named(_ text: StaticString) -> Bool { StoredLineScanner.matches(name, text) }
        switch name.count {
        case 2:
            if named("id") { self = .id } else if named("at") { self = .at } else { return nil }
        case 3:
            guard named("end") else { return nil }
            self = .end
        case 4:
            if named("type") {
                self = .type
            } else if named("kind") {
                self = .kind
            } else if named("unit") {
                self = .unit
            } else if named("task") {
                self = .task
            } else {
                return nil
            }
        case 5:
            if named("start") {
                self = .start
            } else if named("value") {
                self = .value
            } else if named("phase") {
                self = .phase
            } else if named("error") {
                self = .error
            } else {
                return nil
            }
        case 6:
            guard named("source") else { return nil }
            self = .source
        case 7:
            if named("eventID") { self = .eventID } else if named("feature") { self = .feature } else { return nil }
        default:
            return nil
        }
    }
}
