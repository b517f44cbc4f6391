import DuneEvents
import DuneHealthImport
import DuneHealthKit

/// A recorded HealthKit (docs/sync-trace.md): JSON lines in the
/// order HealthKit answered — pages of anchored queries, reconciles and
/// failed queries — that `dune-replay sync --trace` runs through the sync engine.
///
/// ```
/// {"page":{"sampleType":"hrv","after":null,"anchor":"a1","added":[{…sample…}],"deleted":["id"]}}
/// {"reconcile":{"sampleType":"hrv","from":"2026-01-01","to":"2026-01-31","ids":["id",…]}}
/// {"fail":{"sampleType":"hrv","error":"databaseInaccessible"}}
/// ```
package struct SyncTrace: Sendable {
    /// One line of a trace.
    package enum Entry: Sendable {
        /// An anchored query of `type` answered with a page.
        case page(type: SampleKind, after: String?, page: SyncPage)
        /// The ids the source holds of `type` on `days`.
        case reconcile(type: SampleKind, days: ClosedRange<DayKey>, ids: Set<String>)
        /// The next query of `type` failed with `error`.
        case fail(type: SampleKind, error: String)

        /// The sample type the line is about.
        package var type: SampleKind {
            switch self {
            case .page(let type, _, _), .reconcile(let type, _, _), .fail(let type, _): type
            }
        }
    }

    /// A line of the trace and its 1-based line number.
    package struct Line: Sendable {
        package var number: Int
        package var entry: Entry
    }

    /// A malformed trace line: its number and what is wrong.
    package struct Malformed: Error, Sendable, Equatable, CustomStringConvertible {
        package var line: Int
        package var reason: String
        package var description: String { "line \(line): \(reason)" }

        package init(line: Int, reason: String) {
            self.line = line
            self.reason = reason
        }
    }

    /// The trace's lines, blank lines left out (they still count in line numbers).
    package var lines: [Line] = []

    package init() {}

    /// Parses a whole trace; the first malformed line is refused.
    ///
    /// A sample that breaks the input rules is not malformed: it is a sample
    /// HealthKit delivered, and the engine counts it as rejected. A line is
    /// malformed when it is not one JSON object with exactly one of `page`,
    /// `reconcile`, `fail`, or when that member lacks a field or holds a wrong
    /// one (an unknown sample type, a date that is not `YYYY-MM-DD`, an anchor
    /// used twice for one type).
    package mutating func append(line number: Int, _ bytes: UnsafeRawBufferPointer) throws(Malformed) {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw Malformed(line: number, reason: "not valid JSON: \(error.reason) at column \(error.column)")
        }
        guard case .object(let object) = value, object.members.count == 1, let member = object.members.first else {
            throw Malformed(line: number, reason: "a trace line is one JSON object with exactly one member: page, reconcile or fail")
        }
        guard case .object(let body) = member.value else {
            throw Malformed(line: number, reason: "\"\(member.key)\" is not an object")
        }
        let fields = TraceFields(object: body, context: member.key, line: number)
        let type = try fields.sampleType()
        let entry: Entry
        switch member.key {
        case "page":
            let after = try fields.optionalString("after")
            let anchor = try fields.string("anchor")
            guard !anchor.isEmpty else { throw Malformed(line: number, reason: "page.anchor is empty") }
            if anchors[type, default: []].contains(anchor) {
                throw Malformed(line: number, reason: "page.anchor \"\(anchor)\" was already used for \(type.rawValue); anchors are unique per type")
            }
            anchors[type, default: []].insert(anchor)
            var validated: [ValidatedSample] = []
            for (index, sample) in try fields.array("added").enumerated() {
                guard case .object(var sampleObject) = sample else {
                    throw Malformed(line: number, reason: "page.added[\(index)] is not an object")
                }
                sampleObject.members.insert(JSONMember("type", .string("sample")), at: 0)
                do throws(Rejection) {
                    validated.append(.command(try InputRules.command(from: sampleObject)))
                } catch {
                    var id: String?
                    if case .string(let text)? = sampleObject["id"] { id = text }
                    validated.append(.rejected(id: id, error))
                }
            }
            var page = SyncPage(anchor: SyncAnchor(anchor), deletedIDs: try fields.strings("deleted"))
            page.validated = validated
            entry = .page(type: type, after: after, page: page)
        case "reconcile":
            let from = try fields.day("from"), to = try fields.day("to")
            guard from <= to else { throw Malformed(line: number, reason: "reconcile.from \(from) is after reconcile.to \(to)") }
            entry = .reconcile(type: type, days: from...to, ids: Set(try fields.strings("ids")))
        case "fail":
            let error = try fields.string("error")
            guard !error.isEmpty, error.utf8.count <= 256 else { throw Malformed(line: number, reason: "fail.error must be 1–256 bytes") }
            entry = .fail(type: type, error: error)
        default:
            throw Malformed(line: number, reason: "unknown trace line \"\(member.key)\"; expected page, reconcile or fail")
        }
        lines.append(Line(number: number, entry: entry))
    }

    /// Anchors seen per type, to refuse a repeated one.
    private var anchors: [SampleKind: Set<String>] = [:]
}

/// Typed access to a trace line's fields, with errors naming line and field.
private struct TraceFields {
    let object: JSONObject
    let context: String
    let line: Int

    func malformed(_ reason: String) -> SyncTrace.Malformed {
        SyncTrace.Malformed(line: line, reason: reason)
    }

    func sampleType() throws(SyncTrace.Malformed) -> SampleKind {
        let name = try string("sampleType")
        guard let kind = SampleKind(rawValue: name) else {
            throw malformed("\(context).sampleType \"\(name)\" is not a sample kind (\(SampleKind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return kind
    }

    func string(_ key: String) throws(SyncTrace.Malformed) -> String {
        guard let value = try optionalString(key) else { throw malformed("\(context).\(key) is missing") }
        return value
    }

    func optionalString(_ key: String) throws(SyncTrace.Malformed) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw malformed("\(context).\(key) is not a string")
        }
    }

    func array(_ key: String) throws(SyncTrace.Malformed) -> [JSONValue] {
        switch object[key] {
        case nil: return []
        case .array(let items)?: return items
        default: throw malformed("\(context).\(key) is not an array")
        }
    }

    func strings(_ key: String) throws(SyncTrace.Malformed) -> [String] {
        var result: [String] = []
        for (index, item) in try array(key).enumerated() {
            guard case .string(let text) = item else { throw malformed("\(context).\(key)[\(index)] is not a string") }
            result.append(text)
        }
        return result
    }

    func day(_ key: String) throws(SyncTrace.Malformed) -> DayKey {
        let text = try string(key)
        guard let day = DayKey(text) else { throw malformed("\(context).\(key) \"\(text)\" is not a date YYYY-MM-DD") }
        return day
    }
}
