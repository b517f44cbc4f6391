import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

extension Reliability {
    /// A log path that is not a usable log file: a directory, a FIFO, a device, a path
    /// through a file, a missing file, an unreadable or a read-only file. Every command
    /// fails at once with a clear message and its exit code, and writes nothing.
    @Suite struct BadPaths {
        /// The commands that only read the log.
        static let readers: [[String]] = [["verify"], ["history"], ["stats"], ["show", "1"], ["rebuild"], ["rebuild", "--out", "models"]]

        /// Running as another user needs root (to switch), util-linux's setpriv, and a binary
        /// that user may run. As root without switching, permission bits never stop a read or
        /// a write (CAP_DAC_OVERRIDE), so these tests are skipped rather than faked.
        static let setpriv = "/usr/bin/setpriv"
        static let canRunAsNobody = getuid() == 0 && FileManager.default.isExecutableFile(atPath: setpriv)
            && othersCanReach(CLI.binary)
        static let asNobody = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]

        /// Whether every directory above `path` and `path` itself have the "others" execute bit.
        static func othersCanReach(_ path: String) -> Bool {
            var current = URL(fileURLWithPath: path)
            while current.path != "/" {
                var status = stat()
                guard stat(current.path, &status) == 0, status.st_mode & S_IXOTH != 0 else { return false }
                current.deleteLastPathComponent()
            }
            return true
        }

        /// Lets nobody into the test directory (whatever the umask made it); only root may write there.
        func openToNobody(_ cli: CLI) {
            _ = chmod(cli.directory, 0o755)
        }

        /// Runs `arguments` and expects a failure with `status` whose one stderr line contains `message`,
        /// no output, and the test directory exactly as before.
        func expectRefused(_ cli: CLI, _ arguments: [String], status: Set<Int32>, message: String,
                           launcher: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws {
            let before = try snapshot(cli)
            let result = try cli.start(arguments, launcher: launcher).finish(within: 300)
            let context = arguments.joined(separator: " ")
            #expect(!result.timedOut, "\(context): blocked", sourceLocation: sourceLocation)
            #expect(status.contains(result.status) && result.signal == nil, "\(context): \(result)", sourceLocation: sourceLocation)
            #expect(result.stdout == "", "\(context): \(result)", sourceLocation: sourceLocation)
            #expect(result.stderr.hasPrefix("Error: ") && result.stderr.contains(message), "\(context): \(result)", sourceLocation: sourceLocation)
            #expect(result.stderr.split(separator: "\n").count == 1, "\(context): \(result)", sourceLocation: sourceLocation)
            #expect(try snapshot(cli) == before, "\(context): the directory changed", sourceLocation: sourceLocation)
        }

        /// Every file in the test directory (recursively) with its bytes (directories as empty).
        func snapshot(_ cli: CLI) throws -> [String: [UInt8]] {
            var files: [String: [UInt8]] = [:]
            let enumerator = FileManager.default.enumerator(atPath: cli.directory)
            while let name = enumerator?.nextObject() as? String {
                guard !name.hasPrefix(".") else { continue }  // the harness's stdout/stderr files
                var isDirectory: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: cli.path(name), isDirectory: &isDirectory)
                let type = (try? FileManager.default.attributesOfItem(atPath: cli.path(name))[.type] as? FileAttributeType) ?? nil
                files[name] = isDirectory.boolValue || type != .typeRegular ? [] : try cli.bytes(name)
            }
            return files
        }

        @Test func aDirectoryAsTheLogIsRefusedWith66() throws {
            try withCLI { cli in
                try cli.write("input.jsonl", CLIFixture.text)
                try FileManager.default.createDirectory(atPath: cli.path("events.jsonl"), withIntermediateDirectories: false)
                for command in Self.readers + [["ingest", "input.jsonl"]] {
                    try expectRefused(cli, command + ["--log", "events.jsonl"], status: [66], message: "'events.jsonl' is a directory")
                }
            }
        }

        @Test func aMissingLogIsRefusedWith66ByEveryReaderAndNothingIsCreated() throws {
            try withCLI { cli in
                for command in Self.readers {
                    try expectRefused(cli, command + ["--log", "missing/events.jsonl"], status: [66], message: "no log at 'missing/events.jsonl'")
                    // The default path, Logs/events.jsonl, is not created either.
                    try expectRefused(cli, command, status: [66], message: "no log at 'Logs/events.jsonl'")
                }
            }
        }

        @Test func aFIFOOrADeviceAsTheLogIsRefusedWith66WithoutBlocking() throws {
            try withCLI { cli in
                try cli.write("input.jsonl", CLIFixture.text)
                #expect(mkfifo(cli.path("fifo"), 0o600) == 0)
                for log in ["fifo", "/dev/null", "/dev/zero"] {
                    for command in Self.readers + [["ingest", "input.jsonl"]] {
                        try expectRefused(cli, command + ["--log", log], status: [66], message: "'\(log)' is not a regular file")
                    }
                }
            }
        }

        @Test func aLogPathThroughAFileIsRefused() throws {
            try withCLI { cli in
                try cli.write("input.jsonl", CLIFixture.text)
                try cli.write("plain", "not a directory\n")
                try expectRefused(cli, ["ingest", "--log", "plain/events.jsonl", "input.jsonl"], status: [66], message: "the log's folder 'plain' is not a folder")
                for command in Self.readers {
                    try expectRefused(cli, command + ["--log", "plain/events.jsonl"], status: [66], message: "no log at 'plain/events.jsonl'")
                }
            }
        }

        @Test(.enabled(if: BadPaths.canRunAsNobody, "Linux only, needs root and util-linux setpriv: root itself reads and writes any file"))
        func anUnreadableLogIsRefusedWith66() throws {
            try withCLI { cli in
                openToNobody(cli)
                try cli.write("input.jsonl", CLIFixture.text)
                _ = try cli.run(["ingest", "--log", "events.jsonl", "input.jsonl"])  // created 0600, owned by root
                for command in Self.readers + [["ingest", cli.path("input.jsonl")]] {
                    try expectRefused(cli, command + ["--log", cli.path("events.jsonl")], status: [66],
                                      message: "Permission denied (errno 13); check the file's owner and permissions", launcher: Self.asNobody)
                }
            }
        }

        /// A log its user may read but not write (mode 0400, owned by nobody): readers work,
        /// appends are refused. Root ignores mode bits, and chattr +i or a read-only mount
        /// are not available to an unprivileged CI job, so the test runs as nobody.
        @Test(.enabled(if: BadPaths.canRunAsNobody, "Linux only, needs root and util-linux setpriv: root itself writes any file"))
        func aReadOnlyLogCanBeReadButNotAppendedTo() throws {
            try withCLI { cli in
                openToNobody(cli)
                try cli.write("input.jsonl", CLIFixture.text)
                try cli.write("more.jsonl", #"{"type":"refresh","source":"pullToRefresh","at":"2026-02-03T07:00:00Z"}"# + "\n")
                _ = try cli.run(["ingest", "--log", "events.jsonl", "input.jsonl"])
                #expect(chown(cli.path("events.jsonl"), 65534, 65534) == 0 && chmod(cli.path("events.jsonl"), 0o400) == 0)
                let verify = try cli.start(["verify", "--log", cli.path("events.jsonl")], launcher: Self.asNobody).finish(within: 300)
                #expect(verify.status == 0, "\(verify)")
                // Both 66 and 74 are defensible here (the log can be read, not written); see the report.
                try expectRefused(cli, ["ingest", "--log", cli.path("events.jsonl"), cli.path("more.jsonl")], status: [66, 74],
                                  message: "Permission denied (errno 13); check the file's owner and permissions", launcher: Self.asNobody)
                // A new log in a directory nobody may write to: refused, nothing created.
                try expectRefused(cli, ["ingest", "--log", cli.path("new.jsonl"), cli.path("more.jsonl")], status: [66, 74],
                                  message: "Permission denied (errno 13)", launcher: Self.asNobody)
                // A log in a folder that does not exist: refused before anything is tried (issue 25).
                try expectRefused(cli, ["ingest", "--log", cli.path("sub/new.jsonl"), cli.path("more.jsonl")], status: [66],
                                  message: "the log's folder '\(cli.path("sub"))' does not exist", launcher: Self.asNobody)
            }
        }
    }
}
