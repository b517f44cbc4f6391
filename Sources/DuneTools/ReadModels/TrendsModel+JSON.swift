import DuneEvents
import DuneProjections

extension TrendsModel: ReadModelJSON {
    /// `{"throughSeq", "lastDay", "metrics", "hrvNormalRange", "trainingLoad"}` (docs/read-models.md).
    package var jsonValue: JSONValue {
        .members([
            "throughSeq": .count(throughSeq),
            "lastDay": lastDay.map(JSONValue.date) ?? .null,
            "metrics": .object(JSONObject(metrics.map { JSONMember($0.metric.rawValue, $0.jsonValue) })),
            "hrvNormalRange": hrvNormalRange?.jsonValue ?? .null,
            "trainingLoad": .array(trainingLoad.map(\.jsonValue)),
        ])
    }

    /// ``jsonValue``'s bytes, the training load (a day per day of the span) and
    /// each metric's series written point by point (keys in sorted order).
    package func writeJSON(into output: inout [UInt8]) {
        output.append(UInt8(ascii: "{"))
        JSONWriter.writeKey("hrvNormalRange", first: true, into: &output)
        JSONWriter.write(hrvNormalRange?.jsonValue ?? .null, into: &output)
        JSONWriter.writeKey("lastDay", into: &output)
        JSONWriter.write(lastDay.map(JSONValue.date) ?? .null, into: &output)
        JSONWriter.writeKey("metrics", into: &output)
        output.append(UInt8(ascii: "{"))
        for (index, metric) in metrics.sorted(by: { $0.metric.rawValue.utf8.lexicographicallyPrecedes($1.metric.rawValue.utf8) }).enumerated() {
            JSONWriter.writeKey(metric.metric.rawValue, first: index == 0, into: &output)
            metric.writeJSON(into: &output)
        }
        output.append(UInt8(ascii: "}"))
        JSONWriter.writeKey("throughSeq", into: &output)
        JSONWriter.write(.count(throughSeq), into: &output)
        JSONWriter.writeKey("trainingLoad", into: &output)
        JSONWriter.writeArray(trainingLoad, into: &output) { $0.jsonValue }
        output.append(UInt8(ascii: "}"))
    }
}

extension MetricTrend {
    /// `{"daily": [{"date","value","avg7","avg28"}], "changePercent", "direction"}`,
    /// and for hrv `"measure"` (`"sdnn"`, `"rmssd"` or `null`).
    package var jsonValue: JSONValue {
        var members = [
            JSONMember("daily", .array(daily.map(\.jsonValue))),
            JSONMember("changePercent", .rounded(changePercent)),
            JSONMember("direction", .string(direction.rawValue)),
        ]
        if metric == .hrv { members.append(JSONMember("measure", .text(measure?.rawValue))) }
        return .object(JSONObject(members))
    }

    /// ``jsonValue``'s bytes, written point by point (keys in sorted order).
    func writeJSON(into output: inout [UInt8]) {
        output.append(UInt8(ascii: "{"))
        JSONWriter.writeKey("changePercent", first: true, into: &output)
        JSONWriter.write(.rounded(changePercent), into: &output)
        JSONWriter.writeKey("daily", into: &output)
        JSONWriter.writeArray(daily, into: &output) { $0.jsonValue }
        JSONWriter.writeKey("direction", into: &output)
        JSONWriter.write(.string(direction.rawValue), into: &output)
        if metric == .hrv {
            JSONWriter.writeKey("measure", into: &output)
            JSONWriter.write(.text(measure?.rawValue), into: &output)
        }
        output.append(UInt8(ascii: "}"))
    }
}

extension TrendPoint {
    /// `{"date","value","avg7","avg28"}`, an entry of a metric's `daily`.
    package var jsonValue: JSONValue {
        .members(["date": .date(date), "value": .rounded(value), "avg7": .rounded(avg7), "avg28": .rounded(avg28)])
    }
}

extension HRVNormalRange {
    /// `{"low","high","avg7","position","mean","sd","n"}`, in ln(ms).
    package var jsonValue: JSONValue {
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
    package var jsonValue: JSONValue {
        .members([
            "date": .date(date),
            "load": .rounded(load),
            "ctl": .rounded(ctl),
            "atl": .rounded(atl),
            "tsb": .rounded(tsb),
        ])
    }
}
