/// Count, mean and sample standard deviation of a list of values.
///
/// Sums run in the order the values are given (callers pass them in ascending
/// date or `seq` order), so the result is the same in every process.
///
/// ```swift
/// let stats = SampleStatistics([50, 60])   // n 2, mean 55, sd 7.071…
/// ```
public struct SampleStatistics: Sendable, Equatable {
    /// How many values.
    public let n: Int
    /// The arithmetic mean; `nil` when there are no values.
    public let mean: Double?
    /// The sample standard deviation (divisor n − 1); `nil` when n < 2.
    ///
    /// When every value is equal it is exactly 0 (not a rounding residue), so a
    /// constant baseline gives z = 0 rather than a ratio of two rounding errors.
    public let sd: Double?

    /// The statistics of `values`, summed in the given order.
    /// - Complexity: O(n).
    package init<Values: Collection<Double>>(_ values: Values) {
        n = values.count
        guard let first = values.first else {
            mean = nil
            sd = nil
            return
        }
        var sum = 0.0
        var allEqual = true
        for value in values {
            sum += value
            allEqual = allEqual && value == first
        }
        if allEqual {
            mean = first
            sd = n < 2 ? nil : 0
            return
        }
        let mean = sum / Double(n)
        self.mean = mean
        guard n >= 2 else {
            sd = nil
            return
        }
        var squares = 0.0
        for value in values {
            let deviation = value - mean
            squares += deviation * deviation
        }
        sd = (squares / Double(n - 1)).squareRoot()
    }

    /// The mean of `values` summed in the given order; `nil` when empty:
    /// ``mean`` of `SampleStatistics(values)`, bit for bit, without the
    /// second pass for the deviation.
    package static func mean<Values: Collection<Double>>(_ values: Values) -> Double? {
        guard let first = values.first else { return nil }
        var sum = 0.0
        var allEqual = true
        for value in values {
            sum += value
            allEqual = allEqual && value == first
        }
        return allEqual ? first : sum / Double(values.count)
    }
}
