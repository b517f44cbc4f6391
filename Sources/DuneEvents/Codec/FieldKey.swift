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
    static func named(_ bytes: UnsafeRawBufferPointer) -> FieldKey? {
        typealias S = StoredLineScanner
        switch bytes.count {
        case 2: return S.matches(bytes, "id") ? .id : (S.matches(bytes, "at") ? .at : nil)
        case 3: return S.matches(bytes, "end") ? .end : nil
        case 4: return S.matches(bytes, "kind") ? .kind : (S.matches(bytes, "unit") ? .unit : (S.matches(bytes, "task") ? .task : nil))
        case 5:
            if S.matches(bytes, "start") { return .start }
            if S.matches(bytes, "value") { return .value }
            if S.matches(bytes, "input") { return .input }
            return S.matches(bytes, "error") ? .error : nil
        case 6: return S.matches(bytes, "source") ? .source : (S.matches(bytes, "reason") ? .reason : nil)
        case 7:
            if S.matches(bytes, "eventID") { return .eventID }
            if S.matches(bytes, "outcome") { return .outcome }
            if S.matches(bytes, "measure") { return .measure }
            return S.matches(bytes, "feature") ? .feature : nil
        case 8: return S.matches(bytes, "volumeKg") ? .volumeKg : nil
        case 9: return S.matches(bytes, "distanceM") ? .distanceM : nil
        case 10: return S.matches(bytes, "energyKcal") ? .energyKcal : nil
        case 11: return S.matches(bytes, "inputEnergy") ? .inputEnergy : nil
        case 12: return S.matches(bytes, "activityType") ? .activityType : (S.matches(bytes, "supersededBy") ? .supersededBy : nil)
        case 13: return S.matches(bytes, "inputDistance") ? .inputDistance : (S.matches(bytes, "refreshSignal") ? .refreshSignal : nil)
        case 14: return S.matches(bytes, "requestedPhase") ? .requestedPhase : nil
        case 18: return S.matches(bytes, "sleepTargetMinutes") ? .sleepTargetMinutes : nil
        default: return nil
        }
    }
}
