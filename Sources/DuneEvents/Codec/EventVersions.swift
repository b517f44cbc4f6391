/// The version of each event type's `data` shape: what `v` in a stored line
/// means (docs/log-format.md, "Versions").
///
/// Each type has its own current version; a change of a type's shape bumps
/// only that type. A line of an older version is read through
/// ``Upcasting``; a line of a newer version than ``current(_:)`` is refused by
/// everything that interprets it (``NewerVersion``).
///
/// | type | current `v` | changes |
/// |---|---|---|
/// | `sample.ingested` | 2 | v2: an hrv sample stores `measure` |
/// | `sync.anchored` | 1 | added by HealthKit sync (docs/sync-trace.md) |
/// | every other type | 1 | |
package enum EventVersions {
    /// The version this build writes, and the newest it reads, for `type`.
    @inline(__always)
    package static func current(_ type: EventType) -> Int {
        switch type {
        case .sampleIngested: 2
        case .sampleDeleted, .refreshRequested, .taskStarted, .taskCompleted, .taskFailed, .taskCancelled, .profileUpdated,
             .dataForgotten, .syncAnchored: 1
        }
    }

    /// The table as text, types in name order: `data.forgotten=1,…,sample.ingested=2,…`.
    /// Snapshots and checkpoints are stamped with it: one built under another
    /// table is ignored.
    package static let stamp: String = EventType.allCases.sorted().map { "\($0.rawValue)=\(current($0))" }.joined(separator: ",")

    /// The stamp as 32 bits (CRC-32 of ``stamp``), for binary headers.
    package static let stampCRC: UInt32 = CRC32.update(0, Array(stamp.utf8))
}

/// A stored line whose `v` is newer than this build reads for its type.
///
/// Everything that interprets events refuses such a log with it:
/// a later build wrote the line, and this one cannot know what it means.
package struct NewerVersion: Sendable, Equatable {
    /// The line's event type.
    package var type: EventType
    /// The line's `v`.
    package var version: Int
    /// The line's `seq`, when it could be read.
    package var seq: Int?

    /// The newest version of ``type`` this build reads.
    package var newest: Int { EventVersions.current(type) }

    /// What happened and how to fix it, without naming a command.
    package var reason: String {
        let at = seq.map { "seq \($0) is " } ?? "the line is "
        return "\(at)a \(type.rawValue) event of version \(version), newer than this build reads (\(type.rawValue) up to version \(newest)): "
            + "a later version of the app wrote it; read this log with that version or a later one"
    }

    /// The error every interpreting reader throws for this line.
    package func error(path: String?, line: Int? = nil, byteOffset: Int? = nil) -> DuneEventsError {
        DuneEventsError(.newerVersion, reason, location: .init(path: path, line: line, byteOffset: byteOffset, seq: seq))
    }
}
