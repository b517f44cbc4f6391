@testable import DuneEvents

/// Which syncs make data durable when the crash states are derived.
enum CrashMode: Sendable, CustomStringConvertible {
    /// Linux: `fsync`, `fdatasync` (and `F_FULLFSYNC`) make a file's data durable;
    /// a directory's entries are durable once the directory is synced.
    case linux
    /// Darwin: only `F_FULLFSYNC` is durable; a plain `fsync` leaves the data
    /// in the drive's cache, which a power loss may drop.
    case darwin

    func isDurable(_ call: RecordedSyncCall) -> Bool {
        switch self {
        case .linux: true
        case .darwin: call == .fullFsync
        }
    }

    var description: String { self == .linux ? "linux" : "darwin" }
}

/// A state a crash may leave: the files and directories under the recorded root.
struct CrashState: Sendable {
    /// How many recorded operations had run.
    var cut: Int
    /// Path, the recorded inode it names, bytes; sorted by path.
    var files: [(path: String, inode: Int, bytes: [UInt8])]
    var directories: [String]
    /// How the state was chosen, for a violation's message.
    var label: String

    /// Feeds the files and directories to `hasher` (for skipping a state already checked).
    func fingerprint(into hasher: inout Hasher) {
        hasher.combine(directories)
        for file in files {
            hasher.combine(file.path)
            hasher.combine(file.bytes.count)
            file.bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }
}

/// Derives, for a recorded run and each cut point (after each call that
/// changes something), the states a crash may leave:
///
/// - every write made durable by a sync of its file is kept;
/// - any subset of the writes and truncations not yet durable is lost
///   (all subsets while there are at most `enumerateUpTo` pending changes,
///   else every prefix plus `samples` seeded random subsets); a lost write
///   before a kept one leaves zeros;
/// - each pending write is torn at each 512-byte sector boundary it crosses
///   (the sectors before the boundary kept, the rest lost), with the later
///   changes lost or kept;
/// - creates, renames, unlinks and mkdirs not yet made durable by a sync of
///   their directory are undone (in any subset, like writes).
struct CrashStateGenerator {
    var mode: CrashMode = .linux
    var enumerateUpTo = 6
    var samples = 64
    var tearsPerWrite = 8
    var seed: UInt64 = 0x5EED

    /// One pending change.
    enum Pending {
        case content(inode: Int, ContentChange)
        case directory(parent: String, DirectoryChange)
    }

    enum ContentChange {
        case write(offset: Int, bytes: [UInt8])
        case truncate(size: Int)
    }

    enum DirectoryChange {
        case create(path: String, inode: Int)
        case rename(from: String, to: String)
        case unlink(path: String)
        case makeDirectory(path: String)
    }

    /// The durable part and the pending changes after some prefix of the run.
    struct Model {
        var names: [String: Int] = [:]
        var directories: Set<String> = []
        var content: [Int: [UInt8]] = [:]
        /// Pending changes in call order, with their index in the run.
        var pending: [(index: Int, change: Pending)] = []
        /// The directories there before the run (never removed).
        var initialDirectories: Set<String> = []
    }

    /// Calls `body` with each state of each cut point, in order.
    func forEachState(of recorder: RecordingFileSystem, operations: [RecordedOperation],
                      _ body: (CrashState) -> Void) {
        var model = Model()
        for file in recorder.initialFiles {
            model.names[file.path] = file.inode
            model.content[file.inode] = file.bytes
        }
        model.directories = recorder.initialDirectories
        model.initialDirectories = recorder.initialDirectories
        var random = SplitMix(seed: seed)
        for state in states(model, cut: 0, random: &random) { body(state) }
        for (index, operation) in operations.enumerated() {
            apply(operation, index: index, to: &model)
            guard operation.isCall else { continue }
            for state in states(model, cut: index + 1, random: &random) { body(state) }
        }
    }

    private func apply(_ operation: RecordedOperation, index: Int, to model: inout Model) {
        switch operation {
        case .create(let path, let inode):
            model.content[inode] = []
            model.pending.append((index, .directory(parent: FileSystem.parentDirectory(of: path), .create(path: path, inode: inode))))
        case .write(let inode, let offset, let bytes):
            model.pending.append((index, .content(inode: inode, .write(offset: offset, bytes: bytes))))
        case .truncate(let inode, let size):
            model.pending.append((index, .content(inode: inode, .truncate(size: size))))
        case .sync(let inode, let call):
            guard mode.isDurable(call) else { return }
            var content = model.content[inode] ?? []
            model.pending.removeAll { item in
                guard case .content(inode, let change) = item.change else { return false }
                Self.apply(change, to: &content)
                return true
            }
            model.content[inode] = content
        case .syncDirectory(let path, let call):
            guard mode.isDurable(call) else { return }
            model.pending.removeAll { item in
                guard case .directory(path, let change) = item.change else { return false }
                Self.apply(change, names: &model.names, directories: &model.directories)
                return true
            }
        case .rename(let from, let to):
            model.pending.append((index, .directory(parent: FileSystem.parentDirectory(of: to), .rename(from: from, to: to))))
        case .unlink(let path):
            model.pending.append((index, .directory(parent: FileSystem.parentDirectory(of: path), .unlink(path: path))))
        case .makeDirectory(let path):
            model.pending.append((index, .directory(parent: FileSystem.parentDirectory(of: path), .makeDirectory(path: path))))
        case .open, .close, .acknowledged, .forgetBegan, .forgetEnded:
            break
        }
    }

    static func apply(_ change: ContentChange, to content: inout [UInt8], keeping kept: Int? = nil) {
        switch change {
        case .write(let offset, let bytes):
            let count = min(kept ?? bytes.count, bytes.count)
            if content.count < offset + count {
                content += [UInt8](repeating: 0, count: offset + count - content.count)
            }
            content.withUnsafeMutableBytes { target in
                bytes.withUnsafeBytes { source in
                    UnsafeMutableRawBufferPointer(rebasing: target[offset..<(offset + count)])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[..<count]))
                }
            }
        case .truncate(let size):
            if content.count > size {
                content.removeSubrange(size...)
            } else {
                content.append(contentsOf: repeatElement(0, count: size - content.count))
            }
        }
    }

    static func apply(_ change: DirectoryChange, names: inout [String: Int], directories: inout Set<String>) {
        switch change {
        case .create(let path, let inode): names[path] = inode
        case .rename(let from, let to):
            if let inode = names.removeValue(forKey: from) { names[to] = inode }
        case .unlink(let path): names.removeValue(forKey: path)
        case .makeDirectory(let path): directories.insert(path)
        }
    }

    /// The states at one cut point.
    private func states(_ model: Model, cut: Int, random: inout SplitMix) -> [CrashState] {
        var list: [CrashState] = []
        let count = model.pending.count
        var subsets: [[Bool]] = []
        if count <= enumerateUpTo {
            for bits in 0..<(1 << count) { subsets.append((0..<count).map { bits & (1 << $0) != 0 }) }
        } else {
            for prefix in 0...count { subsets.append((0..<count).map { $0 < prefix }) }
            for _ in 0..<samples { subsets.append((0..<count).map { _ in random.next() & 1 == 1 }) }
        }
        for subset in subsets {
            list.append(materialize(model, cut: cut, kept: subset, torn: nil, label: "cut \(cut), kept \(Self.describe(subset))"))
        }
        // Torn writes.
        for (position, item) in model.pending.enumerated() {
            guard case .content(_, .write(let offset, let bytes)) = item.change else { continue }
            var boundaries: [Int] = []
            var boundary = (offset / 512 + 1) * 512
            while boundary < offset + bytes.count {
                boundaries.append(boundary - offset)
                boundary += 512
            }
            if boundaries.count > tearsPerWrite {
                let stride = Double(boundaries.count) / Double(tearsPerWrite)
                boundaries = (0..<tearsPerWrite).map { boundaries[Int(Double($0) * stride)] }
            }
            for kept in boundaries {
                for laterKept in [false, true] {
                    let subset = (0..<count).map { $0 < position || (laterKept && $0 > position) }
                    list.append(materialize(model, cut: cut, kept: subset, torn: (position, kept),
                                            label: "cut \(cut), write #\(item.index) torn after \(kept) bytes, later changes \(laterKept ? "kept" : "lost")"))
                }
            }
        }
        return list
    }

    private static func describe(_ subset: [Bool]) -> String {
        subset.isEmpty ? "nothing pending" : String(subset.map { $0 ? "1" : "0" })
    }

    /// The state with the pending changes marked in `kept` applied, `torn` cut short.
    private func materialize(_ model: Model, cut: Int, kept: [Bool], torn: (position: Int, bytes: Int)?, label: String) -> CrashState {
        var names = model.names
        var directories = model.directories
        var content = model.content
        for (position, item) in model.pending.enumerated() {
            let isTorn = torn?.position == position
            guard kept[position] || isTorn else { continue }
            switch item.change {
            case .directory(_, let change):
                Self.apply(change, names: &names, directories: &directories)
            case .content(let inode, let change):
                var bytes = content[inode] ?? []
                Self.apply(change, to: &bytes, keeping: isTorn ? torn?.bytes : nil)
                content[inode] = bytes
            }
        }
        // A directory whose creation was lost takes its entries with it.
        func reachable(_ path: String) -> Bool {
            let parent = FileSystem.parentDirectory(of: path)
            if model.initialDirectories.contains(parent) { return true }
            return parent != path && directories.contains(parent) && reachable(parent)
        }
        let files = names.filter { reachable($0.key) }.sorted { $0.key < $1.key }
            .map { (path: $0.key, inode: $0.value, bytes: content[$0.value] ?? []) }
        let keptDirectories = directories.filter { model.initialDirectories.contains($0) || reachable($0) }.sorted()
        return CrashState(cut: cut, files: files, directories: keptDirectories, label: label)
    }
}

/// A small seeded generator (SplitMix64): the same states on every run.
struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
