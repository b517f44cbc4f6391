import DuneEvents
import DuneProjections

// MARK: - Shared pieces of explanation JSON

extension JSONValue {
    /// An unrounded number (explanations show the fold's exact intermediates), or `null`.
    static func exact(_ value: Double?) -> JSONValue {
        value.map { .number($0) } ?? .null
    }

    /// `[{"id","seq"}]`.
    static func references(_ references: [SampleReference]) -> JSONValue {
        .array(references.map { .members(["id": .string($0.id), "seq": .count($0.seq)]) })
    }

    /// A timestamp as written.
    static func time(_ timestamp: Timestamp) -> JSONValue {
        .string(timestamp.text)
    }
}

extension SampleStatistics {
    /// `{"n","mean","sd"}`, unrounded.
    var exactJSON: JSONValue {
        .members(["n": .count(n), "mean": .exact(mean), "sd": .exact(sd)])
    }
}

extension DailyWindow {
    /// `{"first","last","values":[{"date","value"}],"n","mean","sd"}`, unrounded.
    var exactJSON: JSONValue {
        let statistics = statistics
        return .members([
            "first": .date(first),
            "last": .date(last),
            "values": .array(zip(days, values).map { .members(["date": .date($0), "value": .number($1)]) }),
            "n": .count(statistics.n),
            "mean": .exact(statistics.mean),
            "sd": .exact(statistics.sd),
        ])
    }
}

extension SampleTrail {
    /// `{"id","kind","versions":[…]}`.
    package var jsonValue: JSONValue {
        .members([
            "id": .string(id),
            "kind": .string(kind.rawValue),
            "counted": .bool(isCounted),
            "versions": .array(versions.map(\.jsonValue)),
        ])
    }
}

extension SampleVersion {
    /// `{"seq","event","fate",…}` with the version's start, end, source and value.
    package var jsonValue: JSONValue {
        var members: [JSONMember] = [JSONMember("seq", .count(seq)), JSONMember("fate", .string(fate.name)),
                                     JSONMember("why", .string(fate.explanation))]
        switch fate {
        case .supersededBy(let seq), .deletedBy(let seq): members.append(JSONMember("bySeq", .count(seq)))
        case .countsForAnotherDay(let day): members.append(JSONMember("day", .date(day)))
        case .counted, .notCounted, .deletion: break
        }
        switch change {
        case .ingested(let sample):
            members.append(JSONMember("event", .string(EventType.sampleIngested.rawValue)))
            members.append(JSONMember("start", .time(sample.start)))
            members.append(JSONMember("end", .time(sample.end)))
            members.append(JSONMember("source", .string(sample.source)))
            members.append(JSONMember("value", sample.explanationValue))
        case .deleted(let at):
            members.append(JSONMember("event", .string(EventType.sampleDeleted.rawValue)))
            members.append(JSONMember("at", .time(at)))
        }
        return .object(JSONObject(members))
    }
}

extension Sample {
    /// The value as a JSON value: a number (canonical unit), a sleep stage, or a workout's numbers.
    var explanationValue: JSONValue {
        switch reading {
        case .quantity(let quantity):
            return .number(quantity.value)
        case .sleep(let stage):
            return .string(stage.rawValue)
        case .workout(let workout):
            return .members([
                "activityType": .string(workout.activityType),
                "minutes": .number(durationSeconds / 60),
                "energyKcal": .exact(workout.energyKcal),
                "distanceMeters": .exact(workout.distanceMeters),
                "volumeKg": .exact(workout.volumeKg),
            ])
        }
    }
}
