/// Counts and ranges in the CLI's sentences, with the right number: "1 line",
/// "2 lines", "seq 7", "seq 7–9".
enum Wording {
    /// `count` and the noun, singular for exactly 1: `count(1, "event")` is "1 event".
    /// - Parameter plural: the plural when it is not the noun plus "s".
    static func count(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? noun : plural ?? noun + "s")
    }

    /// The noun alone, singular for exactly 1.
    static func noun(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        count == 1 ? noun : plural ?? noun + "s"
    }

    /// "seq 7" for one seq, "seq 7–9" for a range.
    static func seqs(_ first: Int, _ last: Int) -> String {
        first == last ? "seq \(first)" : "seq \(first)–\(last)"
    }
}
