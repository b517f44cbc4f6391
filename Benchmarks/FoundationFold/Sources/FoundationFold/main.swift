import Foundation

// Usage: FoundationFold LOG — prints "events N samples S groups G value-sum V".
// Decodes each line with JSONDecoder into Codable types, counts the events and
// groups the `sample.ingested` events by kind and local day (the date written
// in `start`; for sleep the date of `end` + 6 h) with a count and a sum of
// their numeric values, like python_fold.py and duckdb_fold.py.

struct Line: Decodable {
    let seq: Int
    let type: String
    let data: Payload
}

struct Payload: Decodable {
    let kind: String?
    let start: String?
    let end: String?
    let value: Double?

    enum CodingKeys: String, CodingKey { case kind, start, end, value }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decodeIfPresent(String.self, forKey: .kind)
        start = try container.decodeIfPresent(String.self, forKey: .start)
        end = try container.decodeIfPresent(String.self, forKey: .end)
        value = try? container.decodeIfPresent(Double.self, forKey: .value)  // sleep stages are strings
    }
}

guard CommandLine.arguments.count == 2, let handle = FileHandle(forReadingAtPath: CommandLine.arguments[1]) else {
    FileHandle.standardError.write(Data("usage: FoundationFold LOG\n".utf8))
    exit(64)
}
/// The fold: events counted, samples grouped by kind and local day.
struct Fold {
    struct Key: Hashable {
        let kind: String
        let day: String
    }

    let decoder = JSONDecoder()
    var events = 0
    var groups: [Key: (count: Int, total: Double)] = [:]

    mutating func add(_ line: Data) {
        guard !line.isEmpty, let decoded = try? decoder.decode(Line.self, from: line) else { return }
        events += 1
        guard decoded.type == "sample.ingested", let kind = decoded.data.kind,
              let day = Fold.localDay(kind: kind, start: decoded.data.start, end: decoded.data.end) else { return }
        var group = groups[Key(kind: kind, day: day), default: (0, 0)]
        group.count += 1
        group.total += decoded.data.value ?? 0
        groups[Key(kind: kind, day: day)] = group
    }

    static func localDay(kind: String, start: String?, end: String?) -> String? {
        guard kind == "sleep" else { return start.map { String($0.prefix(10)) } }
        guard let end, let hour = Int(end.dropFirst(11).prefix(2)) else { return nil }
        let day = String(end.prefix(10))
        guard hour >= 18 else { return day }  // end + 6 h crosses midnight
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        formatter.timeZone = TimeZone(identifier: "UTC")
        guard let date = formatter.date(from: day) else { return nil }
        return formatter.string(from: date.addingTimeInterval(86_400))
    }
}

var fold = Fold()
var pending = Data()
while true {
    let chunk = handle.readData(ofLength: 8 << 20)
    if chunk.isEmpty { break }
    pending.append(chunk)
    var start = pending.startIndex
    while let newline = pending[start...].firstIndex(of: 10) {
        fold.add(pending[start..<newline])
        start = newline + 1
    }
    pending = Data(pending[start...])
}
fold.add(pending)
let samples = fold.groups.values.reduce(0) { $0 + $1.count }
let total = fold.groups.values.reduce(0.0) { $0 + $1.total }
print("events \(fold.events) samples \(samples) groups \(fold.groups.count) value-sum \(String(format: "%.2f", total))")
