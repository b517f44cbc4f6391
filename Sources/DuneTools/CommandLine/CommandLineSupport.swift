import DuneEvents

/// What a path names, for commands that check a path before using it.
package enum PathKind: Sendable, Equatable {
    case regularFile
    case directory
    /// A symbolic link (only from ``entry(_:)``, which does not follow it).
    case symbolicLink
    case other

    /// The kind of what `path` names (following symbolic links), or `nil`
    /// when nothing is there or it cannot be inspected.
    package static func of(_ path: String) -> PathKind? {
        guard let status = (try? FileSystem.status(ofPath: path)) ?? nil else { return nil }
        return PathKind(status)
    }

    /// The kind of the directory entry `path` itself (`lstat(2)`: a symbolic
    /// link is `.symbolicLink`, not what it points to), or `nil` when nothing
    /// is there or it cannot be inspected.
    package static func entry(_ path: String) -> PathKind? {
        guard let status = (try? FileSystem.status(ofPath: path, followingSymbolicLinks: false)) ?? nil else { return nil }
        return PathKind(status)
    }

    private init(_ status: FileStatus) {
        self = status.isSymbolicLink ? .symbolicLink : status.isRegularFile ? .regularFile : status.isDirectory ? .directory : .other
    }
}
