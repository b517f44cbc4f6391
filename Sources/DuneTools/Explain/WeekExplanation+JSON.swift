import DuneEvents
import DuneProjections

extension WeekExplanation {
    /// `{"model":"weekly","week","value","previous","workouts","days","samples"}`.
    ///
    /// `value` is the week exactly as in `weekly-stats.json`. Every workout and every
    /// source's step samples are listed under `workouts` and `days`; `samples` adds the
    /// full history of those that were corrected, deleted or moved.
    package var jsonValue: JSONValue {
        .members([
            "model": .string("weekly"),
            "week": .string(stats.week.description),
            "value": stats.jsonValue,
            "previous": previous.map(\.exactJSON) ?? .null,
            "totals": stats.totals.exactJSON,
            "workouts": .array(stats.workouts.map { workout in
                .members([
                    "id": .string(workout.sample.id), "seq": .count(workout.sample.seq),
                    "start": .time(workout.start), "activityType": .string(workout.activityType),
                    "source": .text(workoutSources[workout.sample]),
                    "minutes": .number(workout.minutes), "energyKcal": .exact(workout.energyKcal),
                    "distanceMeters": .exact(workout.distanceMeters), "volumeKg": .exact(workout.volumeKg),
                ])
            }),
            "days": .array(days.map { day in
                .members([
                    "date": .date(day.date),
                    "steps": .exact(day.steps?.value),
                    "stepsSource": .text(day.steps?.source),
                    "sources": .array((day.steps?.sources ?? []).map { source in
                        .members(["source": .string(source.source), "steps": .number(source.steps),
                                  "samples": .references(source.samples)])
                    }),
                ])
            }),
            "samples": .array(samples.filter { $0.versions.count > 1 }.map(\.jsonValue)),
        ])
    }
}

extension WeekTotals {
    /// The totals, unrounded.
    var exactJSON: JSONValue {
        .object(JSONObject(WeeklyField.allCases.map { JSONMember($0.rawValue, .number(self[$0])) }))
    }
}
