import Foundation

// Usage: FoundationFold LOG — prints "events N steps-days D steps-total T".
// Decodes each line with JSONDecoder into Codable types and sums stepCount
// values per local day (the date prefix of `start`), like python_fold.py and
// the DuckDB query in bench.py.

struct Line: Decodable {
    let seq: Int
    let type: String
    let data: Payload
}

struct Payload: Decodable {
    let kind: String?
    let start: String?
    let value: Double?

    enum CodingKeys: String, CodingKey { case kind, start, value }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decodeIfPresent(String.self, forKey: .kind)
        start = try container.decodeIfPresent(String.self, forKey: .start)
        value = try? container.decodeIfPresent(Double.self, forKey: .value)  // sleep stages are strings
    }
}

guard CommandLine.arguments.count == 2, let handle = FileHandle(forReadingAtPath: CommandLine.arguments[1]) else {
    FileHandle.standardError.write(Data("usage: FoundationFold LOG\n".utf8))
    exit(64)
}
/// The fold: events counted, step values summed per day.
struct Fold {
    let decoder = JSONDecoder()
    var events = 0
    var steps: [Substring: Double] = [:]

    mutating func add(_ line: Data) {
        guard !line.isEmpty, let decoded = try? decoder.decode(Line.self, from: line) else { return }
        events += 1
        if decoded.type == "sample.ingested", decoded.data.kind == "stepCount", let start = decoded.data.start,
           let value = decoded.data.value {
            steps[start.prefix(10), default: 0] += value
        }
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
print("events \(fold.events) steps-days \(fold.steps.count) steps-total \(Int(fold.steps.values.reduce(0, +)))")
