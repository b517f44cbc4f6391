import DuneProjections

/// The lines of a sync trace (docs/sync-trace.md), written in DuneEvents' canonical
/// JSON (sorted keys, one number format), one object per line.
package enum SyncTraceLine {
    /// `{"page":{"sampleType":T,"after":A|null,"anchor":B,"added":[S…],"deleted":[ID…]}}`.
    package static func page(_ type: SampleKind, after: SyncAnchor?, _ page: SyncPage) -> String {
        line("page", [
            JSONMember("sampleType", .string(type.rawValue)),
            JSONMember("after", after.map { .string($0.text) } ?? .null),
            JSONMember("anchor", .string(page.anchor.text)),
            JSONMember("added", .array(page.added.map(sampleObject))),
            JSONMember("deleted", .array(page.deletedIDs.map(JSONValue.string))),
        ])
    }

    /// `{"reconcile":{"sampleType":T,"from":"YYYY-MM-DD","to":"YYYY-MM-DD","ids":[ID…]}}`, ids sorted.
    package static func reconcile(_ type: SampleKind, days: ClosedRange<DayKey>, ids: Set<String>) -> String {
        line("reconcile", [
            JSONMember("sampleType", .string(type.rawValue)),
            JSONMember("from", .string(days.lowerBound.description)),
            JSONMember("to", .string(days.upperBound.description)),
            JSONMember("ids", .array(ids.sorted().map(JSONValue.string))),
        ])
    }

    /// `{"fail":{"sampleType":T,"error":CODE}}`: a ``SyncSourceError``'s code,
    /// else the error's description.
    package static func fail(_ type: SampleKind, _ error: any Error) -> String {
        let code = (error as? SyncSourceError)?.code ?? String(describing: error)
        return line("fail", [JSONMember("sampleType", .string(type.rawValue)), JSONMember("error", .string(code))])
    }

    /// A sample as the sample object of an input line (§3) without `"type"`.
    package static func sampleObject(_ sample: SampleInput) -> JSONValue {
        var members = [
            JSONMember("id", .string(sample.id)),
            JSONMember("kind", .string(sample.kind.rawValue)),
            JSONMember("start", .string(sample.start.text)),
            JSONMember("end", .string(sample.end.text)),
            JSONMember("source", .string(sample.source)),
        ]
        func quantity(_ value: Double, _ unit: String) {
            members.append(JSONMember("value", .number(value)))
            members.append(JSONMember("unit", .string(unit)))
        }
        switch sample.reading {
        case .hrv(let value, let unit): quantity(value, unit.rawValue)
        case .restingHeartRate(let value, let unit): quantity(value, unit.rawValue)
        case .stepCount(let value, let unit): quantity(value, unit.rawValue)
        case .bodyMass(let value, let unit): quantity(value, unit.rawValue)
        case .bodyFatPercentage(let value, let unit): quantity(value, unit.rawValue)
        case .bodyMassIndex(let value, let unit): quantity(value, unit.rawValue)
        case .sleep(let stage): members.append(JSONMember("value", .string(stage.rawValue)))
        case .workout(let workout):
            members.append(JSONMember("activityType", .string(workout.activityType)))
            if let energy = workout.energy {
                members.append(JSONMember("energy", .number(energy)))
                members.append(JSONMember("energyUnit", .string(workout.energyUnit.rawValue)))
            }
            if let distance = workout.distance {
                members.append(JSONMember("distance", .number(distance)))
                members.append(JSONMember("distanceUnit", .string(workout.distanceUnit.rawValue)))
            }
            if let volume = workout.volumeKg { members.append(JSONMember("volumeKg", .number(volume))) }
        }
        if let measure = sample.hrvMeasure { members.append(JSONMember("measure", .string(measure.rawValue))) }
        return .object(JSONObject(members))
    }

    private static func line(_ name: String, _ members: [JSONMember]) -> String {
        JSONWriter.string(.object(JSONObject([JSONMember(name, .object(JSONObject(members)))])))
    }
}
