import DuneEvents
import DuneProjections

extension TrendExplanation {
    /// `{"model":"trends","metric","date","lastDay","value","formula","samples"}`.
    ///
    /// `value` is the day's entry exactly as in `trends.json` `metrics.<metric>.daily`
    /// (rounded), or `null`; on L it also holds `changePercent` and `direction` as there.
    package var jsonValue: JSONValue {
        var value: [JSONMember] = []
        if case .object(let entry)? = point?.jsonValue { value = entry.members }
        if isLastDay {
            value.append(JSONMember("changePercent", .rounded(trend.changePercent)))
            value.append(JSONMember("direction", .string(trend.direction.rawValue)))
        }
        var formula: [JSONMember] = [
            JSONMember("value", .exact(point?.value)),
            JSONMember("avg7", .members(["mean": .exact(point?.avg7), "window": avg7Window.exactJSON])),
            JSONMember("avg28", .members(["mean": .exact(point?.avg28), "window": avg28Window.exactJSON])),
        ]
        if isLastDay {
            formula.append(JSONMember("change", .members([
                "recent": trend.recent?.exactJSON ?? .null,
                "baseline": trend.baseline?.exactJSON ?? .null,
                "minimumRecent": .count(TrendFormula.minimumRecentValues),
                "minimumBaseline": .count(TrendFormula.minimumBaselineValues),
                "changePercent": .exact(trend.changePercent),
                "direction": .string(trend.direction.rawValue),
            ])))
        }
        if let range = hrvNormalRange {
            formula.append(JSONMember("hrvNormalRange", .members([
                "window": range.window.exactJSON,
                "low": .number(range.low), "high": .number(range.high),
                "recent": range.recent.exactJSON, "avg7": .exact(range.avg7),
                "position": .text(range.position?.rawValue),
            ])))
        }
        if !trainingLoad.isEmpty {
            formula.append(JSONMember("trainingLoad", .array(trainingLoad.map {
                .members(["date": .date($0.date), "load": .number($0.load), "ctl": .number($0.ctl), "atl": .number($0.atl), "tsb": .number($0.tsb)])
            })))
            formula.append(JSONMember("ctlFactor", .number(TrendFormula.ctlFactor)))
            formula.append(JSONMember("atlFactor", .number(TrendFormula.atlFactor)))
        }
        return .members([
            "model": .string("trends"),
            "metric": .string(metric.rawValue),
            "date": .date(date),
            "lastDay": lastDay.map(JSONValue.date) ?? .null,
            "value": point == nil && !isLastDay ? .null : .object(JSONObject(value)),
            "formula": .object(JSONObject(formula)),
            "samples": .array(samples.map(\.jsonValue)),
        ])
    }
}
