import DuneEvents
import DuneProjections

extension ReadinessExplanation {
    /// `{"model":"readiness","date","value","formula","baseline","samples"}`.
    ///
    /// `value` is the day exactly as in `readiness.json` (rounded); `formula`
    /// holds the same numbers unrounded, with the intermediates.
    package var jsonValue: JSONValue {
        .members([
            "model": .string("readiness"),
            "date": .date(day.date),
            "value": day.jsonValue,
            "formula": .members([
                "hrv": component(day.hrvComponent, value: day.hrv, window: day.hrvWindow, samples: values.hrv?.samples ?? []),
                "rhr": component(day.rhrComponent, value: day.rhr, window: day.rhrWindow, samples: values.restingHeartRate?.samples ?? []),
                "sleep": sleepJSON,
                "totalWeight": .number(day.totalWeight),
                "minimumTotalWeight": .number(ReadinessFormula.minimumTotalWeight),
                "score": .exact(day.score),
                "status": .string(day.status.rawValue),
            ]),
            "baseline": .members([
                "hrv": .array(hrvBaselineDays.map(\.jsonValue)),
                "rhr": .array(rhrBaselineDays.map(\.jsonValue)),
            ]),
            "samples": .array(samples.map(\.jsonValue)),
        ])
    }

    private func component(_ component: ReadinessComponent?, value: Double?, window: DailyWindow,
                           samples: [SampleReference]) -> JSONValue {
        let statistics = window.statistics
        return .members([
            "value": .exact(value),
            "input": .exact(component?.input),
            "baselineWindow": .members(["first": .date(window.first), "last": .date(window.last)]),
            "n": .count(statistics.n),
            "mean": .exact(statistics.mean),
            "sd": .exact(statistics.sd),
            "minimumN": .count(ReadinessFormula.minimumBaselineDays),
            "z": .exact(component?.z),
            "score": .exact(component?.score),
            "weight": .exact(component?.weight),
            "samples": .references(samples),
        ])
    }

    private var sleepJSON: JSONValue {
        let sleep = values.sleep
        return .members([
            "minutes": .exact(sleep?.minutes),
            "basis": .text(sleep?.basis.rawValue),
            "intervals": .array((sleep?.union ?? []).map {
                .members(["start": .time($0.start), "end": .time($0.end), "minutes": .number($0.seconds / 60)])
            }),
            "targetMinutes": .number(day.sleepTargetMinutes),
            "targetSeq": sleepTargetSeq.map { .count($0) } ?? .null,
            "score": .exact(day.sleepComponent?.score),
            "weight": .exact(day.sleepComponent?.weight),
            "samples": .references(sleep?.samples ?? []),
        ])
    }
}

extension BaselineDay {
    /// `{"date","value","samples":[{"id","seq"}]}`.
    package var jsonValue: JSONValue {
        .members(["date": .date(date), "value": .number(value), "samples": .references(samples)])
    }
}
