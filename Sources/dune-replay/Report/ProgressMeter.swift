import DuneEvents

/// A one-line progress counter on stderr for long `rebuild`, `ingest` and
/// `report` runs: redrawn in place at most five times a second, and only when
/// stderr is a terminal (nothing at all otherwise, so logs and pipes stay clean).
final class ProgressMeter {
    private let label: String
    private var lastDraw = 0.0
    private var drawn = false
    /// Seconds between redraws.
    static let interval = 0.2

    /// A meter, or `nil` when stderr is not a terminal.
    init?(label: String) {
        guard system_isatty(2) else { return nil }
        self.label = label
        lastDraw = SystemClock.monotonicSeconds()  // for pacing the display only, never for data
    }

    /// Shows `status` ("12000 events, seq 12000") unless the last redraw was under ``interval`` ago.
    func update(_ status: @autoclosure () -> String) {
        let now = SystemClock.monotonicSeconds()
        guard now - lastDraw >= Self.interval else { return }
        lastDraw = now
        drawn = true
        Terminal.err("\r\u{1B}[K\(label): \(status())")
    }

    /// Clears the line (call before printing anything else on stderr, and at the end).
    func finish() {
        guard drawn else { return }
        drawn = false
        Terminal.err("\r\u{1B}[K")
    }
}
