import DuneEvents

/// Writers for the input line shapes (docs/input-format.md), on top of the batch's member writers.
extension SyntheticLineBatch {
    /// Opens a `sample` line up to and including its `end`; the caller adds the
    /// value members and `source`, then calls ``end()``.
    mutating func beginSample(keyMillis: Int64, kind: StaticString, id: SyntheticID,
                              start: Int64, startOffset: Int32, end: Int64, endOffset: Int32) {
        begin(keyMillis: keyMillis)
        string("type", "sample")
        string("kind", kind)
        uuid("id", id)
        time("start", start, offset: startOffset)
        time("end", end, offset: endOffset)
    }

    /// A `refresh` line at `atMillis`.
    @discardableResult
    mutating func refresh(atMillis: Int64, offset: Int32, source: StaticString, kind: StaticString? = nil,
                          eventID: SyntheticID? = nil, appVersion: StaticString? = nil) -> Int {
        begin(keyMillis: atMillis)
        string("type", "refresh")
        string("source", source)
        if let kind { string("kind", kind) }
        time("at", millis: atMillis, offset: offset)
        if let eventID { uuid("eventID", eventID) }
        if let appVersion { string("appVersion", appVersion) }
        return end()
    }

    /// A `task` line for task `<feature>-<number>` at `atMillis`.
    mutating func task(atMillis: Int64, offset: Int32, feature: SyntheticFeature, number: Int,
                       phase: StaticString, error: StaticString? = nil) {
        begin(keyMillis: atMillis)
        string("type", "task")
        numbered("task", prefix: feature.name, number: number)
        string("feature", feature.name)
        string("phase", phase)
        time("at", millis: atMillis, offset: offset)
        if let error { string("error", error) }
        end()
    }

    /// A `sampleDeleted` line for `id` at `at` (epoch seconds).
    mutating func sampleDeleted(id: SyntheticID, at: Int64, offset: Int32) {
        begin(keyMillis: at * 1000)
        string("type", "sampleDeleted")
        uuid("id", id)
        time("at", at, offset: offset)
        end()
    }

    /// A `profile` line setting the nightly sleep target.
    @discardableResult
    mutating func profile(atMillis: Int64, offset: Int32, sleepTargetMinutes: Int, eventID: SyntheticID) -> Int {
        begin(keyMillis: atMillis)
        string("type", "profile")
        int("sleepTargetMinutes", sleepTargetMinutes)
        time("at", millis: atMillis, offset: offset)
        uuid("eventID", eventID)
        return end()
    }
}
