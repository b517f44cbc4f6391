import DuneEvents
import DuneProjections

extension SyncStatusModel: ReadModelJSON {
    /// `{"throughSeq", "refresh", "features"}` (docs/read-models.md).
    package var jsonValue: JSONValue {
        .members([
            "throughSeq": .count(throughSeq),
            "refresh": refresh.jsonValue,
            "features": .object(JSONObject(features.map { JSONMember($0.feature, $0.jsonValue) })),
        ])
    }
}

extension RefreshStatus {
    /// `{"refreshSignal","lastRefreshAt","pendingInvalidation","counts": {source: {outcome: n}}}`.
    package var jsonValue: JSONValue {
        var bySource: [JSONMember] = []
        for count in counts {
            let member = JSONMember(count.outcome.rawValue, .count(count.count))
            if let index = bySource.firstIndex(where: { $0.key == count.source.rawValue }),
               case .object(var outcomes) = bySource[index].value {
                outcomes.members.append(member)
                bySource[index].value = .object(outcomes)
            } else {
                bySource.append(JSONMember(count.source.rawValue, .object(JSONObject([member]))))
            }
        }
        return .members([
            "refreshSignal": .count(refreshSignal),
            "lastRefreshAt": .text(lastRefreshAt?.text),
            "pendingInvalidation": .bool(pendingInvalidation),
            "counts": .object(JSONObject(bySource)),
        ])
    }
}

extension FeatureLoadState {
    /// `{"phase","isLoading","currentTask","lastError","counts"}`.
    package var jsonValue: JSONValue {
        .members([
            "phase": .string(phase.rawValue),
            "isLoading": .bool(isLoading),
            "currentTask": .text(currentTask),
            "lastError": .text(lastError),
            "counts": .members([
                "started": .count(counts.started),
                "completed": .count(counts.completed),
                "failed": .count(counts.failed),
                "cancelled": .count(counts.cancelled),
                "staleIgnored": .count(counts.staleIgnored),
            ]),
        ])
    }
}
