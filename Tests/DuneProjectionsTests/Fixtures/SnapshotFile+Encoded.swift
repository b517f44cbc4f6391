import DuneEvents
@testable import DuneProjections

extension SnapshotFile {
    /// The bytes of `<log>.snapshot` for `snapshot`, taken at `stamp`, as one
    /// array: the parts the library streams to the file, joined (tests only).
    static func encoded(_ snapshot: ProjectionSnapshot, at stamp: LogStamp,
                        foldVersions: [UInt32] = ProjectionSnapshot.foldVersions,
                        eventVersions: String = EventVersions.stamp) -> [UInt8] {
        withParts(snapshot, at: stamp, foldVersions: foldVersions, eventVersions: eventVersions) { parts, index in
            var bytes = parts.flatMap(Array.init)
            index { bytes += Array($0) }
            return bytes
        } ?? []
    }
}
