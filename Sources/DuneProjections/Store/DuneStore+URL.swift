// `DuneStore.open(at: URL)`: an app holds its App Group container and its
// documents folder as `URL`s. Foundation (FoundationEssentials where it is a
// module of its own, as on Linux) only for that type; the store itself works on paths.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension DuneStore {
    /// Opens the log at the file URL `url`; as the path form of `open(at:options:)` does.
    ///
    /// ```swift
    /// let folder = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example.health")!
    /// let store = try await DuneStore.open(at: folder.appending(path: "events.jsonl"))
    /// ```
    /// - Parameters:
    ///   - url: A `file:` URL of the log.
    ///   - options: Durability, lock waiting, snapshots, access, file protection and folder creation.
    /// - Returns: The open store, its read models current with the log.
    /// - Throws: ``DuneEventsError/Code/inputUnavailable`` when `url` is not a
    ///   file URL; otherwise what the path form throws.
    public static func open(at url: URL, options: Options = Options()) async throws -> DuneStore {
        guard url.isFileURL else {
            throw DuneEventsError(.inputUnavailable, "'\(url.absoluteString)' is not a file URL; a store's log is a file on this device",
                                  location: .init(path: url.absoluteString))
        }
        return try await open(at: url.path(percentEncoded: false), options: options)
    }
}
