import DuneEvents

/// A projection: a pure fold of log events into a state, and a read model
/// computed from that state.
///
/// `apply` is synchronous and reads nothing but the event (no clock, no UUID,
/// no randomness, never `recordedAt`). Events with `seq ≤ throughSeq` are
/// skipped, so feeding an event twice (catch-up after a restart) changes
/// nothing. The read model is computed from the state on demand, so it is the
/// same whether the events came all at once or in batches of any size.
package protocol Projection: Sendable {
    /// The read model this projection produces.
    associatedtype Model: ReadModel

    /// Which projection this is.
    static var name: ProjectionName { get }

    /// The empty state, before any event.
    init()

    /// The `seq` of the last event folded in; 0 before any.
    var throughSeq: Int { get }

    /// Folds one event into the state; skips it when `event.seq ≤ throughSeq`.
    mutating func apply(_ event: RecordedEvent)

    /// Folds a decoded batch in order; skips events with `seq ≤ throughSeq`.
    ///
    /// The same fold as ``apply(_:)-(RecordedEvent)`` event by event — the
    /// default does exactly that — but the projections of this module read
    /// the batch's compact rows directly, without rebuilding each event.
    mutating func apply(_ batch: EventBatch)

    /// The read model of the current state.
    func readModel() -> Model
}

extension Projection {
    /// Folds `events` in order.
    /// - Complexity: O(n) folds; each is O(1) amortised plus hash updates.
    package mutating func apply<Events: Sequence<RecordedEvent>>(contentsOf events: Events) {
        for event in events { apply(event) }
    }

    /// Folds every event of `batch`, rebuilt in full, in order.
    package mutating func apply(_ batch: EventBatch) {
        for position in 0..<batch.count { apply(batch[position]) }
    }

    /// A projection that has folded `events` from scratch.
    package init<Events: Sequence<RecordedEvent>>(replaying events: Events) {
        self.init()
        apply(contentsOf: events)
    }

    /// The read model written as its file (`readiness.json`, …).
    package func file() -> ReadModelFile {
        ReadModelFile(projection: Self.name, bytes: readModel().fileBytes)
    }
}

/// A projection that keeps a ``SampleStore`` and can size it ahead of a replay.
package protocol SampleReserving {
    /// Makes room for `count` samples.
    mutating func reserveCapacity(samples count: Int)
}

/// A read model that can be written as one of the §6.1 files.
package protocol ReadModel: Sendable, Equatable {
    /// The `seq` of the last event the model reflects.
    var throughSeq: Int { get }

    /// The model as JSON, numbers rounded (3 decimals; scores 1).
    var jsonValue: JSONValue { get }

    /// Appends exactly the bytes `JSONWriter.write(jsonValue, into:)` would.
    ///
    /// The default does just that. A model with one entry per day or week
    /// writes entry by entry instead, so that only one entry's ``JSONValue``
    /// tree is alive at a time: memory stays O(one entry) beside the bytes,
    /// however many days two centuries of data span.
    func writeJSON(into output: inout [UInt8])
}

extension ReadModel {
    package func writeJSON(into output: inout [UInt8]) {
        JSONWriter.write(jsonValue, into: &output)
    }

    /// The file's bytes: canonical compact JSON (sorted keys, one number format)
    /// on one line, followed by a single `\n`.
    package var fileBytes: [UInt8] {
        var bytes: [UInt8] = []
        writeJSON(into: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}

extension JSONWriter {
    /// `[e0,e1,…]`, each element's value built and written one at a time.
    static func writeArray<Elements: Sequence>(_ elements: Elements, into output: inout [UInt8],
                                               _ value: (Elements.Element) -> JSONValue) {
        output.append(UInt8(ascii: "["))
        var first = true
        for element in elements {
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            write(value(element), into: &output)
        }
        output.append(UInt8(ascii: "]"))
    }

    /// `"key":` — for a model writing its members itself, in sorted key order.
    static func writeKey(_ key: String, first: Bool = false, into output: inout [UInt8]) {
        if !first { output.append(UInt8(ascii: ",")) }
        writeString(key, into: &output)
        output.append(UInt8(ascii: ":"))
    }
}
