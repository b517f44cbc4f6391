/// The instants DuneEvents accepts (docs/input-format.md): from 1900-01-01T00:00:00Z
/// (included) to 2100-01-01T00:00:00Z (excluded).
///
/// A device with a broken clock (year 1, year 9999) must not stretch the read
/// models over centuries: `ingest` and the Apple Health import reject a line
/// with any timestamp outside the window, and events an older version stored
/// outside it are skipped by every projection (``Event/isOutsideTimestampWindow``)
/// and reported by `verify` as a warning.
///
/// ```swift
/// TimestampWindow.contains(try Timestamp(parsing: "2099-12-31T12:00:00Z"))  // true
/// TimestampWindow.contains(try Timestamp(parsing: "2100-01-01T00:00:00Z"))  // false
/// ```
@usableFromInline package enum TimestampWindow {
    /// 1900-01-01T00:00:00Z in seconds since the epoch (the first instant inside).
    @usableFromInline package static let lowerEpochSeconds: Int64 = -2_208_988_800
    /// 2100-01-01T00:00:00Z in seconds since the epoch (the first instant after).
    @usableFromInline package static let upperEpochSeconds: Int64 = 4_102_444_800
    /// The window as text, for messages.
    package static let description = "[1900-01-01T00:00:00Z, 2100-01-01T00:00:00Z)"

    /// Whether the instant `epochSeconds` (plus any fraction below one second) is inside.
    @inlinable @inline(__always)
    package static func contains(epochSeconds: Int64) -> Bool {
        epochSeconds >= lowerEpochSeconds && epochSeconds < upperEpochSeconds
    }

    /// Whether `timestamp`'s instant is inside the window.
    @inlinable @inline(__always)
    package static func contains(_ timestamp: Timestamp) -> Bool {
        contains(epochSeconds: timestamp.epochSeconds)
    }

    /// Why `timestamp` in field `field` is rejected, or `nil` when it is inside.
    static func rejection(field: String, _ timestamp: Timestamp) -> String? {
        guard !contains(timestamp) else { return nil }
        let side = timestamp.epochSeconds < lowerEpochSeconds ? "before 1900-01-01T00:00:00Z" : "at or after 2100-01-01T00:00:00Z"
        return "field \"\(field)\": timestamp \"\(timestamp.text)\" is \(side), outside the accepted window \(description);"
            + " check the device clock and send the sample's real date"
    }
}

extension Event {
    /// Whether any of the event's timestamps (a sample's `start` and `end`,
    /// the `at` of every other event) lies outside ``TimestampWindow``: such
    /// an event was stored by an older version and every projection skips it.
    package var isOutsideTimestampWindow: Bool {
        switch payload {
        case .sampleIngested(let sample): !TimestampWindow.contains(sample.start) || !TimestampWindow.contains(sample.end)
        case .sampleDeleted(let deletion): !TimestampWindow.contains(deletion.at)
        case .refreshRequested(let record): !TimestampWindow.contains(record.at)
        case .task(let record): !TimestampWindow.contains(record.at)
        case .profileUpdated(let update): !TimestampWindow.contains(update.at)
        case .redacted, .dataForgotten, .syncAnchored: false  // an anchor's earliestStart comes from accepted samples
        }
    }
}

extension RecordedEvent {
    /// See ``Event/isOutsideTimestampWindow``.
    package var isOutsideTimestampWindow: Bool { event.isOutsideTimestampWindow }
}

extension SampleBlock {
    /// Whether row `row`'s sample starts or ends outside ``TimestampWindow``.
    @inline(__always)
    package func isOutsideTimestampWindow(row: Int) -> Bool {
        let packed = rows[row]
        if packed.isFull {
            let sample = fullSamples[packed.fullIndex]
            return !TimestampWindow.contains(sample.start) || !TimestampWindow.contains(sample.end)
        }
        return !TimestampWindow.contains(epochSeconds: packed.startSeconds) || !TimestampWindow.contains(epochSeconds: packed.endSeconds)
    }
}

extension EventBatch {
    /// Whether the event at `position` has a timestamp outside ``TimestampWindow``
    /// (see ``Event/isOutsideTimestampWindow``).
    @inline(__always)
    package func isOutsideTimestampWindow(at position: Int) -> Bool {
        let row = rows[position]
        return row >= 0 ? samples.isOutsideTimestampWindow(row: Int(row)) : others[Int(~row)].isOutsideTimestampWindow
    }
}
