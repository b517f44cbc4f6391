import DuneEvents

/// The current samples of one kind in a range of days, read with
/// ``DuneStore/samples(of:in:)``: the points behind a chart.
///
/// Corrections and deletions are applied (each sample id once, its latest
/// version), HRV samples carry their ``Sample/hrvMeasure``, and the samples
/// are in time order (by start, then by the order they were stored).
///
/// ```swift
/// let lastDay = DayKey(year: 2026, month: 3, day: 31)
/// let hrv = await store.samples(of: .hrv, in: lastDay.adding(days: -89)...lastDay)
/// let points = hrv.samples.compactMap { sample in sample.quantity.map { (sample.start, $0.value) } }
/// ```
public struct SampleQueryResult: Sendable, Equatable {
    /// The seq of the last event the result reflects: the `throughSeq` of the store's state read at the same moment.
    public let throughSeq: Int
    /// The samples, in time order.
    public let samples: [Sample]
}
