import DuneEvents

/// A daily mean (HRV in ms, resting heart rate in count/min).
public struct DailyMean: Sendable, Equatable {
    public let value: Double
    /// The samples averaged, in `seq` order.
    public let samples: [SampleReference]

    public init(value: Double, samples: [SampleReference]) {
        self.value = value
        self.samples = samples
    }

    init?(_ samples: [StoredSample]) {
        let values = samples.compactMap { $0.sample.quantity?.value }
        guard let mean = SampleStatistics.mean(values) else { return nil }
        value = mean
        self.samples = samples.filter { $0.sample.quantity != nil }.map(\.reference)
    }
}
