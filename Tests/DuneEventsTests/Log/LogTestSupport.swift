import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import DuneEvents

/// Runs `body` with a new, empty directory under the system's temporary
/// directory (a UUID name), and removes the directory afterwards.
func withLogTestDirectory<Result>(_ body: (_ directory: String) throws -> Result) throws -> Result {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("DuneEventsLogTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(url.path)
}

/// The whole content of the file at `path`.
func logTestRead(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// Replaces the content of the file at `path` (created if missing).
func logTestWrite(_ path: String, _ bytes: [UInt8]) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}

/// The permission bits of the file at `path`.
func logTestPermissions(_ path: String) throws -> mode_t {
    var info = stat()
    guard stat(path, &info) == 0 else { throw DuneEventsError(.inputUnavailable, "stat failed", location: .init(path: path)) }
    return info.st_mode & 0o7777
}

/// The names in `directory`, sorted.
func logTestListing(_ directory: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
}

/// A sealed stored line with `seq` and a payload of `padding` bytes, ending in `\n`.
func logTestSealedLine(seq: Int, padding: Int = 3) -> [UInt8] {
    var line = Array(#"{"v":1,"seq":\#(seq),"type":"profile.updated","data":{"note":"\#(String(repeating: "x", count: padding))"}"#.utf8)
    StoredLine.seal(&line)
    return line
}

/// One line as a reader reports it, comparable as a whole value.
struct ObservedLine: Equatable, CustomStringConvertible {
    var number: Int
    var byteOffset: Int
    var bytes: [UInt8]

    var description: String { "#\(number)@\(byteOffset) \(String(decoding: bytes, as: UTF8.self).debugDescription)" }
}

/// The lines and the unterminated tail of a file, split the obvious way:
/// the reference the streaming reader is compared with.
struct NaiveSplit {
    var lines: [ObservedLine] = []
    /// Bytes after the last `\n`.
    var trailingByteCount = 0

    init(_ bytes: [UInt8], firstLineNumber: Int = 1, startOffset: Int = 0) {
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            lines.append(ObservedLine(number: firstLineNumber + lines.count, byteOffset: startOffset + start, bytes: Array(bytes[start..<index])))
            start = index + 1
        }
        trailingByteCount = bytes.count - start
    }
}
