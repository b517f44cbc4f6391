import DuneEvents

/// A week against the one before, field by field.
public struct WeekComparison: Sendable, Equatable {
    /// One entry per ``WeeklyField``, in its order.
    public let changes: [WeeklyChange]

    package init(current: WeekTotals, previous: WeekTotals) {
        changes = WeeklyField.allCases.map { WeeklyChange(field: $0, current: current[$0], previous: previous[$0]) }
    }

    /// The change of `field`.
    public subscript(field: WeeklyField) -> WeeklyChange? {
        changes.first { $0.field == field }
    }
}

/// One field's change against the previous week.
public struct WeeklyChange: Sendable, Equatable {
    /// The total compared.
    public let field: WeeklyField
    /// current − previous.
    public let delta: Double
    /// delta / previous · 100; `nil` when the previous week's value is 0.
    public let changePercent: Double?

    package init(field: WeeklyField, current: Double, previous: Double) {
        self.field = field
        delta = current - previous
        changePercent = previous == 0 ? nil : (current - previous) / previous * 100
    }
}
