#if canImport(HealthKit)
import DuneProjections
import Foundation
import HealthKit

/// The instants a reconcile's HealthKit query covers for a range of local
/// days (SPEC §12): wide enough that every sample whose day (§2) lies in the
/// range is among the answers, whatever its offset; the engine then keeps
/// only the ids whose day rule puts them in the range.
///
/// - A sample's day is the local date of its `start`: a start in local day D
///   lies in [D 00:00 − 14 h, D+1 00:00 + 14 h) UTC for offsets −12…+14 h
///   (±14 h both ways). Query: `strictStartDate` over that interval.
/// - A sleep sample's day is the local date of `end + 6 h`: its `end` lies 6 h
///   earlier still. Query: `strictEndDate` over [first 00:00 − 20 h, last+1 00:00 + 14 h).
struct HealthKitReconcileWindow {
    /// The first instant covered.
    let start: Date
    /// The instant after the last covered.
    let end: Date
    /// Whether the sample's start or its end must fall in [start, end).
    let options: HKQueryOptions

    /// The window of `days` for `kind`.
    init(kind: SampleKind, days: ClosedRange<DayKey>) {
        let hour = 3600.0
        let first = Date(timeIntervalSince1970: Double(days.lowerBound.ordinal) * 86_400)
        let afterLast = Date(timeIntervalSince1970: Double(days.upperBound.ordinal + 1) * 86_400)
        if kind == .sleep {
            start = first.addingTimeInterval(-20 * hour)
            end = afterLast.addingTimeInterval(14 * hour)
            options = .strictEndDate
        } else {
            start = first.addingTimeInterval(-14 * hour)
            end = afterLast.addingTimeInterval(14 * hour)
            options = .strictStartDate
        }
    }
}
#endif
