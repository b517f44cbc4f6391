// A `Timestamp` from the `Date` and `TimeZone` an app holds, on the platforms
// where an app has Foundation. DuneEvents stays Foundation-free elsewhere
// (Linux programs such as `dune-replay` never link it); the arithmetic is
// `Timestamp.init(secondsSinceReferenceDate:offsetSeconds:)`, tested on every
// platform.
#if canImport(Darwin) && canImport(Foundation)
import Foundation

extension Timestamp {
    /// The instant `date`, written in the UTC offset `timeZone` has at that instant.
    ///
    /// This is how an app turns an `HKSample`'s dates into timestamps: the
    /// offset keeps the local date the user lived (a night in Tokyo stays on
    /// Tokyo's calendar after the phone moves to Paris). The instant is kept
    /// to the microsecond and the offset to the minute.
    ///
    /// ```swift
    /// let start = Timestamp(sample.startDate, in: .current)
    /// ```
    /// - Parameters:
    ///   - date: The instant.
    ///   - timeZone: The zone whose offset at `date` the timestamp is written in.
    public init(_ date: Date, in timeZone: TimeZone) {
        self.init(secondsSinceReferenceDate: date.timeIntervalSinceReferenceDate,
                  offsetSeconds: timeZone.secondsFromGMT(for: date))
    }
}
#endif
