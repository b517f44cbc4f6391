/// A parsed JSON value that keeps object members in the order they were written.
///
/// DuneEvents parses input and stored lines into `JSONValue` so that unknown
/// fields survive a round trip, and writes it back with ``JSONWriter`` in one
/// canonical form (sorted keys, one number format) so that equal content gives
/// equal bytes on every machine.
package enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// A short name of the value's JSON type, for error messages ("a string", "a number").
    package var typeDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// One `"key": value` member of a JSON object.
package struct JSONMember: Sendable, Hashable {
    package var key: String
    package var value: JSONValue

    package init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

/// A JSON object as an ordered list of members with unique keys.
///
/// Lookups are linear; the objects in this domain have a dozen members at most,
/// where a scan beats hashing and keeps iteration order independent of the
/// process's hash seed.
package struct JSONObject: Sendable, Hashable {
    package var members: [JSONMember]

    package init(_ members: [JSONMember] = []) {
        self.members = members
    }

    /// The value for `key`, or `nil` when the object has no such member.
    package subscript(key: String) -> JSONValue? {
        get {
            for member in members where member.key == key { return member.value }
            return nil
        }
        set {
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append(JSONMember(key, newValue))
            }
        }
    }

    /// The members sorted by the UTF-8 bytes of their keys: the canonical order.
    package var sortedMembers: [JSONMember] {
        members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }

    package var isEmpty: Bool { members.isEmpty }

    /// Objects are equal when they hold the same members, in any order.
    package static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count && lhs.sortedMembers == rhs.sortedMembers
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(sortedMembers)
    }
}
