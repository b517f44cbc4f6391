import DuneEvents

#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// `dune-replay tail`: the last events of the log, and with `--follow` every
/// event appended after them, as another process writes it.
enum TailCommandLine {
    static let subcommand = Subcommand(
        name: "tail",
        summary: "Print the log's last events; with --follow, keep printing events as they are appended.",
        usage: "dune-replay tail [--log PATH] [-n N] [--follow] [--json]",
        details: """
        OPTIONS:
          --log PATH      The log.
          -n N            How many of the last events to print first (default 10; 0 prints none).
          -f, --follow    Keep running: print each event another process appends, as soon as its line
                          is complete (the file is polled every 100 ms), until interrupted (Ctrl-C).
                          A log that does not exist yet is waited for.
          --json          The stored JSON lines instead of a table.

        Only complete lines are printed; a line whose CRC does not match is reported on stderr and skipped.
        Throttled refreshes are marked '!' (in colour on a terminal, unless NO_COLOR is set).
        """,
        run: { try await run($0) })

    /// Seconds between two looks at the file's size with `--follow`.
    static let pollNanoseconds: UInt64 = 100_000_000

    static func run(_ raw: [String]) async throws -> ExitCode {
        let arguments = try Arguments(command: "tail", arguments: raw, options: [
            LogOptions.log, .init(name: "-n", takesValue: true), .init(name: "--lines", takesValue: true),
            .init(name: "--follow", takesValue: false), .init(name: "-f", takesValue: false), .init(name: "--json", takesValue: false),
        ])
        guard arguments.positionals.isEmpty else {
            throw CommandFailure(exitCode: .usage, message: "Error: unexpected argument '\(arguments.positionals[0])'", showUsage: true)
        }
        let count = try arguments.integer("-n", range: 0...10_000_000) ?? arguments.integer("--lines", range: 0...10_000_000) ?? 10
        let follow = arguments.flag("--follow") || arguments.flag("-f")
        let path = LogOptions.path(arguments)
        var printer = TailPrinter(json: arguments.flag("--json"), color: Terminal.colorEnabled(1), path: path)

        let file: TailFile
        if let opened = try TailFile.open(path: path) {
            file = opened
        } else {
            guard follow else { try LogOptions.requireExisting(path); return .noInput }
            Terminal.err("tail: waiting for '\(path)' to be created…\n")
            while true {
                try await Task.sleep(nanoseconds: pollNanoseconds)
                if let opened = try TailFile.open(path: path) {
                    file = opened
                    break
                }
            }
            // A new log: every line in it is new.
            guard printer.printHeader(), printer.print(try file.readNewLines()) else { return .success }
            return try await followLoop(file, &printer, path: path)
        }
        let last = try file.lastLines(count)
        guard printer.printHeader(), printer.print(last) else { return .success }
        guard follow else { return .success }
        return try await followLoop(file, &printer, path: path)
    }

    private static func followLoop(_ file: TailFile, _ printer: inout TailPrinter, path: String) async throws -> ExitCode {
        var file = file
        while true {
            try await Task.sleep(nanoseconds: pollNanoseconds)
            if file.wasReplaced() {
                Terminal.err("tail: '\(path)' was replaced or truncated; following the new file from its start\n")
                guard let reopened = try TailFile.open(path: path) else { continue }
                file = reopened
            }
            let lines = try file.readNewLines()
            if !lines.isEmpty, !printer.print(lines) { return .success }
        }
    }
}

/// Formats tailed lines; stops when stdout is closed.
private struct TailPrinter {
    let json: Bool
    let color: Bool
    let path: String

    /// Prints the table header (not for JSON). `false` when stdout is closed.
    func printHeader() -> Bool {
        json ? true : Self.write(Array((EventFormatting.header + "\n").utf8))
    }

    /// Prints complete stored lines. `false` when stdout is closed (e.g. `| head`).
    mutating func print(_ lines: [TailLine]) -> Bool {
        guard !lines.isEmpty else { return true }
        var output: [UInt8] = []
        for line in lines {
            let event: RecordedEvent? = line.bytes.withUnsafeBytes { buffer in
                guard StoredLine.isIntact(buffer) else { return nil }
                return try? EventCodec.decode(buffer)
            }
            guard let event else {
                Terminal.err("tail: \(path): byte \(line.byteOffset): damaged line skipped (CRC or JSON); run 'dune-replay verify'\n")
                continue
            }
            if json {
                output.append(contentsOf: line.bytes)
                output.append(UInt8(ascii: "\n"))
            } else {
                output.append(contentsOf: (EventFormatting.row(event, marker: EventMarker.marker(for: event), color: color) + "\n").utf8)
            }
        }
        return Self.write(output)
    }

    /// Writes every byte to stdout; `false` when it is closed.
    static func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(1, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}

/// One complete line of the log (without its `\n`).
private struct TailLine {
    var bytes: [UInt8]
    var byteOffset: Int
}

/// The log file as `tail` reads it: the offset after the last complete line read.
private final class TailFile {
    let fd: Int32
    let path: String
    private(set) var offset = 0
    private let inode: UInt

    /// Opens `path` for reading; `nil` when it does not exist.
    static func open(path: String) throws(CommandFailure) -> TailFile? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            let code = errno
            if code == ENOENT { return nil }
            throw CommandFailure(exitCode: .noInput, message: "Error: cannot open '\(path)': \(String(cString: strerror(code))) (errno \(code))")
        }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR else {
            close(fd)
            throw CommandFailure(exitCode: .noInput, message: "Error: '\(path)' is a directory, not a log file; pass --log PATH to a file")
        }
        return TailFile(fd: fd, path: path, inode: UInt(info.st_ino))
    }

    private init(fd: Int32, path: String, inode: UInt) {
        self.fd = fd
        self.path = path
        self.inode = inode
    }

    deinit { close(fd) }

    private func size() throws(CommandFailure) -> Int {
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw CommandFailure(exitCode: .ioError, message: "Error: cannot stat '\(path)': errno \(errno)")
        }
        return Int(info.st_size)
    }

    /// Whether the path now names another file, or the file shrank below what was read.
    func wasReplaced() -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }  // removed: keep the open file
        if UInt(info.st_ino) != inode { return true }
        return Int(info.st_size) < offset
    }

    private func read(from start: Int, to end: Int) throws(CommandFailure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: end - start)
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, $0.count - done, off_t(start + done)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CommandFailure(exitCode: .ioError, message: "Error: cannot read '\(path)': errno \(errno)")
            }
            if count == 0 { break }
            done += count
        }
        return Array(bytes[..<done])
    }

    /// The complete lines between ``offset`` and the file's end; advances past them.
    func readNewLines() throws(CommandFailure) -> [TailLine] {
        let end = try size()
        guard end > offset else { return [] }
        let bytes = try read(from: offset, to: end)
        guard let lastNewline = bytes.lastIndex(of: UInt8(ascii: "\n")) else { return [] }
        let lines = Self.split(bytes[..<lastNewline], startingAt: offset)
        offset += lastNewline + 1
        return lines
    }

    /// The last `count` complete lines, reading backwards from the end; ``offset`` ends after them.
    func lastLines(_ count: Int) throws(CommandFailure) -> [TailLine] {
        let end = try size()
        var start = end
        var bytes: [UInt8] = []
        // Grow the read backwards until it holds `count` + 1 newlines (or the whole file).
        while start > 0 {
            let chunk = min(start, max(65_536, bytes.count))
            start -= chunk
            bytes = try read(from: start, to: start + chunk) + bytes
            if bytes.reduce(0, { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }) > count { break }
        }
        guard let lastNewline = bytes.lastIndex(of: UInt8(ascii: "\n")) else {
            offset = start
            return []
        }
        offset = start + lastNewline + 1
        var lines = Self.split(bytes[..<lastNewline], startingAt: start)
        if start > 0 { lines.removeFirst() }  // may be a partial line
        return Array(lines.suffix(count))
    }

    private static func split(_ bytes: ArraySlice<UInt8>, startingAt base: Int) -> [TailLine] {
        var lines: [TailLine] = []
        var lineStart = bytes.startIndex
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            lines.append(TailLine(bytes: Array(bytes[lineStart..<index]), byteOffset: base + lineStart))
            lineStart = index + 1
        }
        lines.append(TailLine(bytes: Array(bytes[lineStart...]), byteOffset: base + lineStart))
        return lines
    }
}
