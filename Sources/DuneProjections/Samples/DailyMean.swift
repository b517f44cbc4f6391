import DuneEvents

/// A daily mean (HRV in ms, resting heart rate in count/min).
package struct DailyMean: Sendable, Equatable {
    package let value: Double
    /// The samples averaged, in `seq` order.
    package let samples: [SampleReference]
}

extension DailyMean {
    /// The mean of the `samples` that have a quantity, summed in `seq` order; `nil` when none has one.
    init?(_ samples: [StoredSample]) {
        let values = samples.compactMap { $0.sample.quantity?.value }
        guard let mean = SampleStatistics.mean(values) else { return nil }
        value = mean
        self.samples = samples.filter { $0.sample.quantity != nil }.map(\.reference)
    }
}
