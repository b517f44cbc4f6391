/// Which samples `forget` erases: values of one selector are OR'd, different
/// selectors are AND'd (docs/log-format.md, "Forgetting samples").
///
/// A sample is selected when any of its versions matches; `deleted` asks that
/// the sample's highest-seq event be a `sample.deleted`. Samples already
/// forgotten never match.
///
/// ```swift
/// var selection = ForgetSelection()
/// selection.sources = ["Old Scale"]
/// selection.to = DayKey("2025-12-31")
/// ```
package struct ForgetSelection: Sendable, Hashable {
    package var sampleIDs: Set<String> = []
    package var sources: Set<String> = []
    package var kinds: Set<SampleKind> = []
    /// Inclusive bounds on the sample's ``Sample/day`` (the local date of its
    /// start; for sleep of `end + 6 h`, the night it counts for).
    package var from: DayKey?
    package var to: DayKey?
    /// Only samples whose latest event is a deletion.
    package var deleted = false

    package init() {}

    /// Whether no selector is given (a usage error: `forget` never erases everything by default).
    package var isEmpty: Bool { selectorKinds.isEmpty }

    /// The selector kinds in use, sorted — what the `data.forgotten` event records (never the values).
    package var selectorKinds: [String] {
        var kinds: [String] = []
        if deleted { kinds.append("deleted") }
        if from != nil { kinds.append("from") }
        if !self.kinds.isEmpty { kinds.append("kind") }
        if !sampleIDs.isEmpty { kinds.append("sample") }
        if !sources.isEmpty { kinds.append("source") }
        if to != nil { kinds.append("to") }
        return kinds
    }

    /// Whether one version of a sample matches every selector except `deleted`.
    package func matches(_ sample: Sample) -> Bool {
        if !sampleIDs.isEmpty, !sampleIDs.contains(sample.id) { return false }
        if !sources.isEmpty, !sources.contains(sample.source) { return false }
        if !kinds.isEmpty, !kinds.contains(sample.kind) { return false }
        if from != nil || to != nil {
            let day = sample.day
            if let from, day < from { return false }
            if let to, day > to { return false }
        }
        return true
    }
}

/// What a `forget` did, or would do (`dryRun`).
package struct ForgetReport: Sendable, Hashable {
    /// Whether nothing was changed because it was a dry run.
    package var dryRun: Bool
    /// The selector kinds used, sorted.
    package var selectors: [String]
    /// The ids of the selected samples, sorted (printed by a dry run; never stored).
    package var sampleIDs: [String]
    /// How many events were (or would be) redacted.
    package var redactedEvents: Int
    /// The seq of the `data.forgotten` event; `nil` for a dry run or when nothing matched.
    package var forgottenSeq: Int?
    /// The files beside the log that were deleted (torn side files, checkpoint, snapshot, temporary files).
    package var deletedFiles: [String] = []
    /// Warnings, one line each (a torn tail moved aside, an unfinished earlier job finished).
    package var warnings: [String] = []

    /// How many samples were (or would be) forgotten.
    package var samples: Int { sampleIDs.count }
}
