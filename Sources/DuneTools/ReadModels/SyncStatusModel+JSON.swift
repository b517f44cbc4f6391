import DuneEvents
import DuneProjections

extension SyncStatusModel: ReadModelJSON {
    /// `{"throughSeq", "refresh", "features"}` (docs/read-models.md), and
    /// `"sampleTypes"` only when the log has HealthKit sync pages (`sync.anchored`),
    /// so a log without any keeps its bytes.
    package var jsonValue: JSONValue {
        var object = JSONObject([
            JSONMember("throughSeq", .count(throughSeq)),
            JSONMember("refresh", refresh.jsonValue),
            JSONMember("features", .object(JSONObject(features.map { JSONMember($0.feature, $0.jsonValue) }))),
        ])
        if !sampleTypes.isEmpty {
            object.members.append(JSONMember("sampleTypes", .object(JSONObject(sampleTypes.map { JSONMember($0.sampleType.rawValue, $0.jsonValue) }))))
        }
        return .object(object)
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

extension SampleTypeSyncState {
    /// `{"anchor","pages","samples","deleted","rejected": {reason: n},"earliestStart","phase","lastError"}`.
    package var jsonValue: JSONValue {
        .members([
            "anchor": .string(anchor),
            "pages": .count(pages),
            "samples": .count(samples),
            "deleted": .count(deleted),
            "rejected": .object(JSONObject(rejected.map { JSONMember($0.reason, .count($0.count)) })),
            "earliestStart": .text(earliestStart?.text),
            "phase": .string(phase.rawValue),
            "lastError": .text(lastError),
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
