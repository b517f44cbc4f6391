import DuneEvents

extension TrendsModel {
    /// `{"throughSeq", "lastDay", "metrics", "hrvNormalRange", "trainingLoad"}` (docs/read-models.md).
    public var jsonValue: JSONValue {
        .members([
            "throughSeq": .count(throughSeq),
            "lastDay": lastDay.map(JSONValue.date) ?? .null,
            "metrics": .object(JSONObject(metrics.map { JSONMember($0.metric.rawValue, $0.jsonValue) })),
            "hrvNormalRange": hrvNormalRange?.jsonValue ?? .null,
            "trainingLoad": .array(trainingLoad.map(\.jsonValue)),
        ])
    }
}

extension MetricTrend {
    /// `{"daily": [{"date","value","avg7","avg28"}], "changePercent", "direction"}`.
    public var jsonValue: JSONValue {
        .members([
            "daily": .array(daily.map { point in
                .members([
                    "date": .date(point.date),
                    "value": .rounded(point.value),
                    "avg7": .rounded(point.avg7),
                    "avg28": .rounded(point.avg28),
                ])
            }),
            "changePercent": .rounded(changePercent),
            "direction": .string(direction.rawValue),
        ])
    }
}

extension HRVNormalRange {
    /// `{"low","high","avg7","position","mean","sd","n"}`, in ln(ms).
    public var jsonValue: JSONValue {
        .members([
            "low": .rounded(low),
            "high": .rounded(high),
            "avg7": .rounded(avg7),
            "position": .text(position?.rawValue),
            "mean": .rounded(statistics.mean),
            "sd": .rounded(statistics.sd),
            "n": .count(statistics.n),
        ])
    }
}

extension TrainingLoadDay {
    /// `{"date","load","ctl","atl","tsb"}`.
    public var jsonValue: JSONValue {
        .members([
            "date": .date(date),
            "load": .rounded(load),
            "ctl": .rounded(ctl),
            "atl": .rounded(atl),
            "tsb": .rounded(tsb),
        ])
    }
}
