/// The one upcasting chain: turns a stored event's `data` of an older version
/// into the current shape, one pure step (vN → vN+1) at a time
/// (docs/log-format.md, "Versions").
///
/// Every reader of stored lines goes through ``upcast(_:type:from:)``: the
/// reference decoder (``EventCodec/decode(_:)``) over the parsed `data`
/// object, the fast scanner (``StoredLineScanner``) over the members it
/// scanned. Each hands the chain its own view of `data`
/// (``UpcastableData``), so the steps are written once. Lines are never
/// rewritten: a line keeps the `v` it was written with and is upcast each
/// time it is read. Redacted lines are not upcast (they fold to nothing at
/// every version); the decoders return them before calling the chain.
///
/// The steps:
/// - `sample.ingested` v1 → v2: an hrv sample gains `measure`, derived from its
///   `source` by ``HRVMeasure/init(source:)`` (what v1 meant); a measure a v1
///   line may hold by accident is not read.
package enum Upcasting {
    /// Applies every step from `version` up to the type's current version.
    ///
    /// - Precondition: `1 <= version <= EventVersions.current(type)`; the
    ///   decoders check it first (a newer version is a ``NewerVersion``).
    @inline(__always)
    package static func upcast<Data: UpcastableData>(_ data: inout Data, type: EventType, from version: Int) {
        var at = version
        while at < EventVersions.current(type) {
            step(&data, type: type, from: at)
            at += 1
        }
    }

    /// One step: `data` of `type` at `version` into `version + 1`.
    @inline(__always)
    private static func step<Data: UpcastableData>(_ data: inout Data, type: EventType, from version: Int) {
        switch (type, version) {
        case (.sampleIngested, 1):
            data.deriveHRVMeasureFromSource()
        default:
            break
        }
    }
}

/// A decoder's view of one stored line's `data`, as the upcasting steps need it.
package protocol UpcastableData {
    /// `sample.ingested` v1 → v2: for an hrv sample, sets `measure` to what
    /// its source name implies (``HRVMeasure/init(source:)``), replacing any
    /// it holds; for every other kind, drops any `measure` (v1 had none).
    mutating func deriveHRVMeasureFromSource()
}
