import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

/// Runs the built `dune-replay` binary as a black box.
struct CLI {
    /// What one run printed and returned.
    struct Result: CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String
        /// The signal that ended the process, if a signal did (then `status` is that signal's number).
        var signal: Int32? = nil
        /// Whether `finish(within:)` had to kill the process at its deadline.
        var timedOut = false
        var description: String {
            let ending = timedOut ? "timed out (killed)" : signal.map { "killed by signal \($0)" } ?? "exit \(status)"
            return "\(ending)\n--- stdout\n\(stdout.prefix(4000))\n--- stderr\n\(stderr.prefix(4000))"
        }
    }

    /// The built `dune-replay`: SwiftPM puts it in the folder that holds the
    /// test bundle (`.build/<triple>/<configuration>/`).
    static let binary: String = {
        URL(fileURLWithPath: folder(holdingTestBundleOf: testImagePath())).appendingPathComponent("dune-replay").path
    }()

    /// The file the tests' code was loaded from.
    ///
    /// - Darwin: there is no `/proc`, and under `swift test` the process is
    ///   the toolchain's test runner, which loads the bundle
    ///   (`….xctest/Contents/MacOS/…`); `dladdr` of this image's handle names
    ///   the bundle's binary.
    /// - Linux: the test process is the bundle itself (an executable named
    ///   `….xctest`), which `/proc/self/exe` names.
    static func testImagePath() -> String {
        #if canImport(Darwin)
        var image = Dl_info()
        if dladdr(#dsohandle, &image) != 0, let name = image.dli_fname { return String(cString: name) }
        #endif
        return (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// The folder holding the `.xctest` bundle that `imagePath` is or lies
    /// in; the image's own folder when no component ends in `.xctest`.
    static func folder(holdingTestBundleOf imagePath: String) -> String {
        let image = URL(fileURLWithPath: imagePath)
        var candidate = image
        while candidate.pathComponents.count > 1 {
            if candidate.pathExtension == "xctest" { return candidate.deletingLastPathComponent().path }
            candidate = candidate.deletingLastPathComponent()
        }
        return image.deletingLastPathComponent().path
    }

    let directory: String

    /// Runs `dune-replay arguments…` in `directory` with `stdin` bytes, an environment without `DUNE_LOG`.
    func run(_ arguments: [String], stdin: [UInt8]? = nil, environment: [String: String] = [:]) throws -> Result {
        try start(arguments, stdin: stdin, environment: environment).finish()
    }

    /// Starts a run without waiting for it.
    ///
    /// `launcher` is an optional command that runs the binary: the binary's path and `arguments`
    /// are appended to it (e.g. `["/bin/sh", "-c", "ulimit -f 64; exec \"$@\"", "sh"]`).
    ///
    /// With `pipesOutput`, stdout and stderr are pipes read as they arrive
    /// (``Running/stdout``, ``Running/stderr``): what a test waits on while
    /// the run goes on.
    func start(_ arguments: [String], stdin: [UInt8]? = nil, environment: [String: String] = [:],
               launcher: [String] = [], pipesOutput: Bool = false) throws -> Running {
        let process = Process()
        let command = launcher + [Self.binary] + arguments
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var env = ProcessInfo.processInfo.environment
        env["DUNE_LOG"] = nil
        env["NO_COLOR"] = "1"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let token = UUID().uuidString
        let outPath = directory + "/.stdout-\(token)"
        let errPath = directory + "/.stderr-\(token)"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let pipes = pipesOutput ? (out: Pipe(), err: Pipe()) : nil
        process.standardOutput = try pipes?.out ?? FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        process.standardError = try pipes?.err ?? FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        if let stdin {
            let inPath = directory + "/.stdin-\(token)"
            _ = FileManager.default.createFile(atPath: inPath, contents: Data(stdin))
            process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: inPath))
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        try process.run()
        return Running(process: process, outPath: outPath, errPath: errPath,
                       stdout: pipes.map { PipedOutput($0.out) }, stderr: pipes.map { PipedOutput($0.err) })
    }

    struct Running {
        let process: Process
        let outPath: String
        let errPath: String
        /// With `start(…, pipesOutput: true)`: the output as it arrives (the files then stay empty).
        var stdout: PipedOutput? = nil
        var stderr: PipedOutput? = nil

        var pid: Int32 { process.processIdentifier }
        var isRunning: Bool { process.isRunning }

        /// Waits for the exit (of a run whose output went to files) and returns what it printed.
        func finish() throws -> Result {
            process.waitUntilExit()
            // Lenient decoding: a hostile input's bytes may be echoed into a message.
            let out = String(decoding: try Data(contentsOf: URL(fileURLWithPath: outPath)), as: UTF8.self)
            let err = String(decoding: try Data(contentsOf: URL(fileURLWithPath: errPath)), as: UTF8.self)
            try? FileManager.default.removeItem(atPath: outPath)
            try? FileManager.default.removeItem(atPath: errPath)
            let signaled = process.terminationReason == .uncaughtSignal
            return Result(status: process.terminationStatus, stdout: out, stderr: err,
                          signal: signaled ? process.terminationStatus : nil)
        }

        /// Waits at most `seconds`, then kills the process (SIGKILL) and reports `timedOut`.
        func finish(within seconds: Double) throws -> Result {
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning && Date() < deadline { usleep(5_000) }
            let timedOut = process.isRunning
            if timedOut { kill(SIGKILL) }
            var result = try finish()
            result.timedOut = timedOut
            return result
        }

        /// Waits until the process has exited, on a Dispatch thread (never one of the cooperative pool).
        func exited() async {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    process.waitUntilExit()
                    continuation.resume()
                }
            }
        }

        /// ``finish()`` for a run started with `pipesOutput`, waiting without blocking a thread of the cooperative pool.
        func finished() async -> Result {
            await exited()
            let out = await stdout?.wholeText() ?? ""
            let err = await stderr?.wholeText() ?? ""
            try? FileManager.default.removeItem(atPath: outPath)
            try? FileManager.default.removeItem(atPath: errPath)
            let signaled = process.terminationReason == .uncaughtSignal
            return Result(status: process.terminationStatus, stdout: out, stderr: err,
                          signal: signaled ? process.terminationStatus : nil)
        }

        /// Sends `signal` to the process (if it is still running).
        func kill(_ signal: Int32) {
            if process.isRunning { _ = sendSignal(signal, to: process.processIdentifier) }
        }

        /// What the process has written to stderr so far (it may still be writing).
        func stderrSoFar() -> [UInt8] {
            (try? Array(Data(contentsOf: URL(fileURLWithPath: errPath)))) ?? []
        }
    }

    // MARK: - Files

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/" + name))
    }

    func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)))
    }

    func writeBytes(_ name: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: directory + "/" + name))
    }

    func exists(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: directory + "/" + name)
    }

    func listing() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { !$0.hasPrefix(".") }.sorted()
    }
}

/// A started run's stdout or stderr, read from its pipe as it arrives on a
/// Dispatch thread of its own (never one of the cooperative pool), until the
/// process closes it.
final class PipedOutput: Sendable {
    private struct State {
        var bytes: [UInt8] = []
        var ended = false
        /// Each waiter's text (`nil`: the end) and continuation, resumed once
        /// the text has arrived or the pipe closed.
        var waiters: [(text: String?, continuation: CheckedContinuation<String, Never>)] = []

        var text: String { String(decoding: bytes, as: UTF8.self) }  // lenient: a hostile input may be echoed

        func isReached(_ wanted: String?) -> Bool {
            ended || wanted.map(text.contains) == true
        }
    }

    private let state = Mutex(State())

    init(_ pipe: Pipe) {
        DispatchQueue.global().async { self.read(pipe) }
    }

    private func read(_ pipe: Pipe) {
        var ended = false
        while !ended {
            let chunk = pipe.fileHandleForReading.availableData  // blocks until bytes or the end
            ended = chunk.isEmpty
            let (ready, text) = state.withLock { state in
                state.bytes += chunk
                state.ended = ended
                let waiters = state.waiters
                state.waiters = waiters.filter { !state.isReached($0.text) }
                return (waiters.filter { state.isReached($0.text) }.map(\.continuation), state.text)
            }
            for continuation in ready { continuation.resume(returning: text) }
        }
    }

    /// Waits until the output holds `text`, or the pipe closed without it
    /// (the process ended); returns the output so far.
    func waitFor(_ text: String) async -> String {
        await wait(text)
    }

    /// The whole output: waits until the process closed the pipe.
    func wholeText() async -> String {
        await wait(nil)
    }

    private func wait(_ wanted: String?) async -> String {
        await withCheckedContinuation { continuation in
            let now: String? = state.withLock { state in
                if state.isReached(wanted) { return state.text }
                state.waiters.append((wanted, continuation))
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }
}

/// Runs `body` with a CLI harness in a fresh temporary directory.
func withCLI(_ body: (CLI) throws -> Void) throws {
    let url = try makeCLIDirectory()
    defer { try? FileManager.default.removeItem(at: url) }
    try body(CLI(directory: url.path))
}

/// ``withCLI(_:)`` for a test that waits on a run's output.
func withCLI(_ body: (CLI) async throws -> Void) async throws {
    let url = try makeCLIDirectory()
    defer { try? FileManager.default.removeItem(at: url) }
    try await body(CLI(directory: url.path))
}

private func makeCLIDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("dune-replay-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Valid input lines for CLI tests.
enum CLIFixture {
    static let lines = [
        #"{"type":"profile","sleepTargetMinutes":450,"at":"2026-02-01T08:00:00+01:00"}"#,
        #"{"type":"sample","kind":"hrv","id":"H1","start":"2026-02-02T06:00:00+01:00","end":"2026-02-02T06:01:00+01:00","value":48.2,"unit":"ms","source":"Apple Watch"}"#,
        #"{"type":"sample","kind":"restingHeartRate","id":"R1","start":"2026-02-02T06:00:00+01:00","end":"2026-02-02T06:00:00+01:00","value":52,"unit":"bpm","source":"Apple Watch"}"#,
        #"{"type":"sample","kind":"sleep","id":"S1","start":"2026-02-01T23:00:00+01:00","end":"2026-02-02T06:30:00+01:00","value":"asleepCore","source":"Apple Watch"}"#,
        #"{"type":"refresh","source":"foreground","at":"2026-02-02T07:00:00+01:00"}"#,
        #"{"type":"refresh","source":"healthKitObserver","kind":"hrv","at":"2026-02-02T07:00:20+01:00"}"#,
        #"{"type":"task","task":"t1","feature":"readiness","phase":"started","at":"2026-02-02T07:00:01+01:00"}"#,
        #"{"type":"task","task":"t1","feature":"readiness","phase":"completed","at":"2026-02-02T07:00:02+01:00"}"#,
    ]
    static var text: String { lines.joined(separator: "\n") + "\n" }
}

/// `kill(2)`, at file scope where the name means the C function (Glibc or Darwin), not `Running.kill`.
private func sendSignal(_ signal: Int32, to pid: Int32) -> Int32 {
    kill(pid, signal)
}
