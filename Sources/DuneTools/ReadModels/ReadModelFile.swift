import DuneProjections

/// A read model rendered as the bytes of its file.
package struct ReadModelFile: Sendable, Hashable {
    /// The projection the file came from.
    package let projection: ProjectionName
    /// The bytes to write: canonical JSON and one trailing `\n`.
    package let bytes: [UInt8]

    package init(projection: ProjectionName, bytes: [UInt8]) {
        self.projection = projection
        self.bytes = bytes
    }

    /// The file name, e.g. `weekly-stats.json`.
    package var fileName: String { projection.fileName }
}
