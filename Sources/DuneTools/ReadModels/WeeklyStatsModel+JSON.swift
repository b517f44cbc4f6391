import DuneEvents
import DuneProjections

extension WeeklyStatsModel: ReadModelJSON {
    /// `{"throughSeq", "weeks": [...]}` (docs/read-models.md).
    package var jsonValue: JSONValue {
        .members(["throughSeq": .count(throughSeq), "weeks": .array(weeks.map(\.jsonValue))])
    }

    /// ``jsonValue``'s bytes, written week by week (keys in sorted order).
    package func writeJSON(into output: inout [UInt8]) {
        output.append(UInt8(ascii: "{"))
        JSONWriter.writeKey("throughSeq", first: true, into: &output)
        JSONWriter.write(.count(throughSeq), into: &output)
        JSONWriter.writeKey("weeks", into: &output)
        JSONWriter.writeArray(weeks, into: &output) { $0.jsonValue }
        output.append(UInt8(ascii: "}"))
    }
}

extension WeekStats {
    /// The week as in `weekly-stats.json`.
    package var jsonValue: JSONValue {
        var members = [
            JSONMember("week", .string(week.description)),
            JSONMember("byActivity", .object(JSONObject(byActivity.map { JSONMember($0.activityType, $0.jsonValue) }))),
            JSONMember("daily", .array(daily.map(\.jsonValue))),
            JSONMember("vsPreviousWeek", vsPreviousWeek?.jsonValue ?? .null),
        ]
        for field in WeeklyField.allCases {
            members.append(JSONMember(field.rawValue, .rounded(totals[field])))
        }
        return .object(JSONObject(members))
    }
}

extension ActivityStats {
    /// `{"workouts","durationMinutes","activeEnergyKcal","distanceKm"}`.
    package var jsonValue: JSONValue {
        .members([
            "workouts": .count(workouts),
            "durationMinutes": .rounded(durationMinutes),
            "activeEnergyKcal": .rounded(activeEnergyKcal),
            "distanceKm": .rounded(distanceKm),
        ])
    }
}

extension WeekDayStats {
    /// `{"date","workouts","durationMinutes","activeEnergyKcal","distanceKm","strengthVolumeKg","steps"}`.
    package var jsonValue: JSONValue {
        .members([
            "date": .date(date),
            "workouts": .count(workouts),
            "durationMinutes": .rounded(durationMinutes),
            "activeEnergyKcal": .rounded(activeEnergyKcal),
            "distanceKm": .rounded(distanceKm),
            "strengthVolumeKg": .rounded(strengthVolumeKg),
            "steps": .rounded(steps),
        ])
    }
}

extension WeekComparison {
    /// `{"<field>": {"delta","changePercent"}}`.
    package var jsonValue: JSONValue {
        .object(JSONObject(changes.map { change in
            JSONMember(change.field.rawValue, .members([
                "delta": .rounded(change.delta),
                "changePercent": .rounded(change.changePercent),
            ]))
        }))
    }
}
