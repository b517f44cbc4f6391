import DuneEvents
import DuneProjections
import DuneTools

/// One explanation, of any model.
enum ExplainedValue {
    case readiness(ReadinessExplanation)
    case weekly(WeekExplanation)
    case trend(TrendExplanation)
    case sync(FeatureLoadTrace)
    case refresh(RefreshExplanation)

    var jsonValue: JSONValue {
        switch self {
        case .readiness(let explanation): explanation.jsonValue
        case .weekly(let explanation): explanation.jsonValue
        case .trend(let explanation): explanation.jsonValue
        case .sync(let trace): trace.jsonValue
        case .refresh(let explanation): explanation.jsonValue
        }
    }
}
