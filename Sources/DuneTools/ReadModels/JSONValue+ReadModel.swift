import DuneEvents
import DuneProjections

// MARK: - Building read-model JSON

extension JSONValue {
    /// An object from literal members in the order written (the writer sorts keys).
    package static func members(_ members: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(JSONObject(members.map { JSONMember($0.key, $0.value) }))
    }

    /// A number rounded to 3 decimals, or `null` for `nil`.
    package static func rounded(_ value: Double?) -> JSONValue {
        value.map { .number(Rounding.thousandths($0)) } ?? .null
    }

    /// A score rounded to 1 decimal, or `null`.
    package static func score(_ value: Double?) -> JSONValue {
        value.map { .number(Rounding.tenths($0)) } ?? .null
    }

    /// An integer count.
    package static func count(_ value: Int) -> JSONValue {
        .number(Double(value))
    }

    /// A string, or `null`.
    package static func text(_ value: String?) -> JSONValue {
        value.map { .string($0) } ?? .null
    }

    /// A date as `YYYY-MM-DD`.
    package static func date(_ day: DayKey) -> JSONValue {
        .string(day.description)
    }
}

// MARK: - Reading JSON values

extension JSONValue {
    /// The string payload, or `nil` for any other case.
    package var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number payload, or `nil` for any other case.
    package var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The object payload, or `nil` for any other case.
    package var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }
}

extension JSONObject {
    /// This object without the members named in `keys`.
    package func removing(_ keys: Set<String>) -> JSONObject {
        JSONObject(members.filter { !keys.contains($0.key) })
    }
}
