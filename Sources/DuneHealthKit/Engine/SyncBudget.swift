/// How much a sync may do before it stops at the next page boundary.
///
/// A background delivery gets little time (iOS gives an app about 30 s), so
/// a first sync of years of history runs over many wakes: each stops at a
/// page boundary when its budget is spent, and the next resumes from the
/// stored anchor. A query still running when the budget is spent is
/// abandoned (its task cancelled); nothing of it is appended.
public struct SyncBudget: Sendable, Hashable {
    /// The most time, measured on a monotonic clock from the sync's start.
    public var time: Duration?
    /// The most pages.
    public var pages: Int?

    /// Creates a budget; `nil` limits nothing.
    /// - Parameters:
    ///   - time: The most time from the sync's start.
    ///   - pages: The most pages.
    public init(time: Duration? = nil, pages: Int? = nil) {
        self.time = time
        self.pages = pages
    }

    /// No limit: page until the source has no more changes.
    public static let unlimited = SyncBudget()

    /// A time budget.
    /// - Parameter duration: The most time from the sync's start.
    /// - Returns: The budget.
    public static func time(_ duration: Duration) -> SyncBudget { SyncBudget(time: duration) }

    /// A page budget.
    /// - Parameter count: The most pages.
    /// - Returns: The budget.
    public static func pages(_ count: Int) -> SyncBudget { SyncBudget(pages: count) }
}
