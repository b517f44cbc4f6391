/// A read model rendered as the bytes of its file.
public struct ReadModelFile: Sendable, Hashable {
    /// The projection the file came from.
    public let projection: ProjectionName
    /// The bytes to write: canonical JSON and one trailing `\n`.
    public let bytes: [UInt8]

    public init(projection: ProjectionName, bytes: [UInt8]) {
        self.projection = projection
        self.bytes = bytes
    }

    /// The file name, e.g. `weekly-stats.json`.
    public var fileName: String { projection.fileName }
}
