/// An optional member that is well-formed: its value, or `nil` when absent.
struct Present<Value> {
    var value: Value?
}
