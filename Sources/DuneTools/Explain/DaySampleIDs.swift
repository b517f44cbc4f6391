import DuneEvents
import DuneProjections

/// The ids of the samples that ever had a version counting for a range of days:
/// the first pass of an explanation, which then reads their full history
/// (``SampleHistory``) — including versions later corrected away or deleted.
///
/// A pure fold: feed it the log's events in order.
package struct DaySampleIDs: Sendable, Equatable {
    /// The days a version must count for (``Sample/day``).
    package let days: ClosedRange<DayKey>
    /// The kinds looked at.
    package let kinds: Set<SampleKind>
    /// The ids found, in the order of their first version on one of ``days``.
    package private(set) var ids: [String] = []
    private var seen: Set<String> = []

    package init(days: ClosedRange<DayKey>, kinds: Set<SampleKind>) {
        self.days = days
        self.kinds = kinds
    }

    /// Notes the id of a `sample.ingested` of a wanted kind whose day is in ``days``.
    package mutating func apply(_ event: RecordedEvent) {
        guard case .sampleIngested(let sample) = event.payload, kinds.contains(sample.kind),
              days.contains(sample.day), !seen.contains(sample.id), !event.isOutsideTimestampWindow else { return }
        seen.insert(sample.id)
        ids.append(sample.id)
    }
}
