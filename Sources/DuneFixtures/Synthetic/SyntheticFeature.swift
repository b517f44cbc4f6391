import DuneEvents

/// The app screens whose loads become `task` lines.
enum SyntheticFeature: Int, CaseIterable {
    case readiness
    case trends
    case weeklyStats

    var name: StaticString {
        switch self {
        case .readiness: "readiness"
        case .trends: "trends"
        case .weeklyStats: "weeklyStats"
        }
    }
}
