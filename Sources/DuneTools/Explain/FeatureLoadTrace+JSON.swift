import DuneEvents
import DuneProjections

extension FeatureLoadTrace {
    /// `{"model":"sync","feature","value","steps","unfinishedTasks"}`.
    ///
    /// `value` is the feature exactly as in `sync-status.json` `features.<feature>`.
    package var jsonValue: JSONValue {
        .members([
            "model": .string("sync"),
            "feature": .string(feature),
            "value": state.jsonValue,
            "settledPhase": .string(state.settledPhase.rawValue),
            "lastEventSeq": .count(state.lastEventSeq),
            "steps": .array(steps.map(\.jsonValue)),
            "unfinishedTasks": .array(unfinishedTasks.map { .members(["task": .string($0.record.task), "startedSeq": .count($0.seq)]) }),
        ])
    }
}

extension FeatureLoadStep {
    /// `{"seq","task","phase","at","effect","phaseBefore","phaseAfter","currentTask",…}`.
    package var jsonValue: JSONValue {
        .members([
            "seq": .count(seq),
            "task": .string(record.task),
            "phase": .string(record.phase.rawValue),
            "requestedPhase": .text(record.requestedPhase?.rawValue),
            "at": .time(record.at),
            "error": .text(record.error),
            "reason": .text(record.reason?.rawValue),
            "supersededBy": .text(record.supersededBy),
            "effect": .string(effect.rawValue),
            "phaseBefore": .string(phaseBefore.rawValue),
            "phaseAfter": .string(phaseAfter.rawValue),
            "currentTask": .text(currentTaskAfter),
        ])
    }
}

extension RefreshExplanation {
    /// `{"model":"refresh","seq","recorded","decided","matches","state","deltas"}`.
    package var jsonValue: JSONValue {
        .members([
            "model": .string("refresh"),
            "seq": .count(seq),
            "recorded": recorded.explanationJSON,
            "decided": decided.explanationJSON,
            "matches": .bool(decisionMatches),
            "throttleSeconds": .number(RefreshCoordinator.throttleSeconds),
            "state": .members([
                "lastPerformedAt": state.lastPerformedAt.map(JSONValue.time) ?? .null,
                "lastPerformedSeq": lastPerformedSeq.map { .count($0) } ?? .null,
                "lastObserverAt": recorded.kind.flatMap { state.lastObserverAt[$0] }.map(JSONValue.time) ?? .null,
                "lastObserverSeq": lastObserverSeq.map { .count($0) } ?? .null,
                "refreshSignal": .count(state.refreshSignal),
            ]),
            "secondsSinceLastPerformed": .exact(secondsSinceLastPerformed),
            "secondsSinceLastObserver": .exact(secondsSinceLastObserver),
        ])
    }
}

extension RefreshRecord {
    /// `{"source","kind","at","outcome","reason","refreshSignal"}`.
    var explanationJSON: JSONValue {
        .members([
            "source": .string(source.rawValue),
            "kind": .text(kind?.rawValue),
            "at": .time(at),
            "outcome": .string(outcome.rawValue),
            "reason": .text(reason?.rawValue),
            "refreshSignal": .count(refreshSignal),
        ])
    }
}
