import DuneEvents
import DuneProjections

extension ReadinessModel: ReadModelJSON {
    /// `{"throughSeq", "sleepTargetMinutes", "days": [...]}` (docs/read-models.md).
    package var jsonValue: JSONValue {
        .members([
            "throughSeq": .count(throughSeq),
            "sleepTargetMinutes": .rounded(sleepTargetMinutes),
            "days": .array(days.map(\.jsonValue)),
        ])
    }

    /// ``jsonValue``'s bytes, written day by day (keys in sorted order).
    package func writeJSON(into output: inout [UInt8]) {
        output.append(UInt8(ascii: "{"))
        JSONWriter.writeKey("days", first: true, into: &output)
        JSONWriter.writeArray(days, into: &output) { $0.jsonValue }
        JSONWriter.writeKey("sleepTargetMinutes", into: &output)
        JSONWriter.write(.rounded(sleepTargetMinutes), into: &output)
        JSONWriter.writeKey("throughSeq", into: &output)
        JSONWriter.write(.count(throughSeq), into: &output)
        output.append(UInt8(ascii: "}"))
    }
}

extension ReadinessDay {
    /// The day as in `readiness.json`: values to 3 decimals, scores to 1.
    package var jsonValue: JSONValue {
        .members([
            "date": .date(date),
            "score": .score(score),
            "status": .string(status.rawValue),
            "hrvScore": .score(hrvScore),
            "rhrScore": .score(rhrScore),
            "sleepScore": .score(sleepScore),
            "hrv": .rounded(hrv),
            "hrvMeasure": .text(hrvMeasure?.rawValue),
            "rhr": .rounded(rhr),
            "sleepMinutes": .rounded(sleepMinutes),
            "hrvBaseline": hrvBaseline.map(\.baselineJSON) ?? .null,
            "rhrBaseline": rhrBaseline.map(\.baselineJSON) ?? .null,
        ])
    }
}

extension SampleStatistics {
    /// `{"mean","sd","n"}`, rounded.
    var baselineJSON: JSONValue {
        .members(["mean": .rounded(mean), "sd": .rounded(sd), "n": .count(n)])
    }
}
