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

extension ProjectionName {
    /// The read-model file name (docs/read-models.md).
    package var fileName: String {
        switch self {
        case .readiness: "readiness.json"
        case .trends: "trends.json"
        case .weeklyStats: "weekly-stats.json"
        case .syncStatus: "sync-status.json"
        }
    }

    /// The projection named `cliName` on the command line (`weekly`, `sync`, …);
    /// the Swift case names (`weeklyStats`, `syncStatus`) are accepted too.
    /// `nil` for anything else.
    package init?(cliName: String) {
        guard let name = ProjectionName.allCases.first(where: { $0.cliName == cliName || $0.rawValue == cliName }) else {
            return nil
        }
        self = name
    }
}

extension StoreState {
    /// The files of `names`' models, in ``ProjectionName`` order, each
    /// rendered in a task of its own (the models are computed; their JSON is not yet).
    /// - Complexity: O(d) for d days of the models.
    package func files(_ names: some Sequence<ProjectionName> = ProjectionName.allCases) async -> [ReadModelFile] {
        await withTaskGroup(of: ReadModelFile.self) { group in
            for name in Set(names) {
                group.addTask { ReadModelFile(projection: name, bytes: self.fileBytes(name)) }
            }
            var files: [ReadModelFile] = []
            for await file in group { files.append(file) }
            return files.sorted { $0.projection < $1.projection }
        }
    }

    /// The bytes of model `name`'s file.
    package func fileBytes(_ name: ProjectionName) -> [UInt8] {
        switch name {
        case .readiness: readiness.fileBytes
        case .trends: trends.fileBytes
        case .weeklyStats: weeklyStats.fileBytes
        case .syncStatus: syncStatus.fileBytes
        }
    }
}
