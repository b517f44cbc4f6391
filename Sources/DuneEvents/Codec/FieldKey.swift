/// The `data` members the scanner knows.
enum FieldKey: Int, CaseIterable {
    case activityType, distanceM, end, energyKcal, eventID, id, input, inputDistance, inputEnergy, kind, source, start, unit
    case value, volumeKg, at, outcome, reason, refreshSignal, error, feature, requestedPhase, supersededBy, task
    case sleepTargetMinutes, measure

    static let count = allCases.count

    static func mask(_ keys: [FieldKey]) -> UInt32 {
        keys.reduce(0) { $0 | 1 << UInt32($1.rawValue) }
    }

    /// The key spelled by `bytes`, if known.
    static func named(_ bytes: ByteView) -> FieldKey? {
        switch bytes.count {
        case 2: return bytes.matches("id") ? .id : (bytes.matches("at") ? .at : nil)
        case 3: return bytes.matches("end") ? .end : nil
        case 4: return bytes.matches("kind") ? .kind : (bytes.matches("unit") ? .unit : (bytes.matches("task") ? .task : nil))
        case 5:
            if bytes.matches("start") { return .start }
            if bytes.matches("value") { return .value }
            if bytes.matches("input") { return .input }
            return bytes.matches("error") ? .error : nil
        case 6: return bytes.matches("source") ? .source : (bytes.matches("reason") ? .reason : nil)
        case 7:
            if bytes.matches("eventID") { return .eventID }
            if bytes.matches("outcome") { return .outcome }
            if bytes.matches("measure") { return .measure }
            return bytes.matches("feature") ? .feature : nil
        case 8: return bytes.matches("volumeKg") ? .volumeKg : nil
        case 9: return bytes.matches("distanceM") ? .distanceM : nil
        case 10: return bytes.matches("energyKcal") ? .energyKcal : nil
        case 11: return bytes.matches("inputEnergy") ? .inputEnergy : nil
        case 12: return bytes.matches("activityType") ? .activityType : (bytes.matches("supersededBy") ? .supersededBy : nil)
        case 13: return bytes.matches("inputDistance") ? .inputDistance : (bytes.matches("refreshSignal") ? .refreshSignal : nil)
        case 14: return bytes.matches("requestedPhase") ? .requestedPhase : nil
        case 18: return bytes.matches("sleepTargetMinutes") ? .sleepTargetMinutes : nil
        default: return nil
        }
    }
}
