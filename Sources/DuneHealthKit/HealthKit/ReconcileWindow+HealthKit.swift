#if canImport(HealthKit)
import DuneProjections
import Foundation
import HealthKit

extension ReconcileWindow {
    /// The window as HealthKit's sample predicate: `strictStartDate` or
    /// `strictEndDate` over [start, end).
    var predicate: NSPredicate {
        HKQuery.predicateForSamples(withStart: Date(timeIntervalSince1970: Double(startSeconds)),
                                    end: Date(timeIntervalSince1970: Double(endSeconds)),
                                    options: match == .start ? .strictStartDate : .strictEndDate)
    }
}
#endif
