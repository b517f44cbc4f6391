import Foundation
import Testing

/// Issue 35, item 7: a reader that closes the pipe early (`| head -2`) is
/// saying "enough", not reporting an error. The command stops at once, prints
/// nothing on stderr and ends with 141 (128 + SIGPIPE, as `seq 1000000000 |
/// head` does) — or 0 when all of its output fit into the pipe before the
/// reader left. A real write error (a full disk) is still 74: see
/// `CLIPromiseTests.everyCommandExits74WhenStdoutIsFull`.
@Suite struct ClosedPipeCLITests {
    /// Runs the binary into `head -2`; its own status and stderr go to files.
    static let intoHead = ["/bin/sh", "-c", "{ \"$@\" 2> command-stderr.txt; echo $? > command-status.txt; } | head -2 > head.txt", "sh"]

    @Test func aReaderThatStopsReadingEndsTheCommandQuietly() throws {
        try withCLI { cli in
            let generated = try cli.run(["generate", "--days", "90", "--seed", "3"])
            #expect(generated.status == 0)
            try cli.write("input.jsonl", generated.stdout)
            let ingest = try cli.run(["ingest", "--log", "events.jsonl", "input.jsonl"])
            #expect(ingest.status == 0, "\(ingest)")
            let commands: [(arguments: [String], large: Bool)] = [
                (["history", "--log", "events.jsonl"], true),
                (["history", "--log", "events.jsonl", "--json"], true),
                (["tail", "--log", "events.jsonl", "-n", "20000"], true),
                (["generate", "--days", "400"], true),
                (["rebuild", "--log", "events.jsonl", "--json"], false),
            ]
            for (arguments, large) in commands {
                let result = try cli.start(arguments, launcher: Self.intoHead).finish()
                #expect(result.status == 0, "\(arguments): \(result)")
                let status = String(decoding: try cli.bytes("command-status.txt"), as: UTF8.self)
                let stderr = String(decoding: try cli.bytes("command-stderr.txt"), as: UTF8.self)
                let head = String(decoding: try cli.bytes("head.txt"), as: UTF8.self)
                // Megabytes of output: the pipe closed while the command wrote.
                if large {
                    #expect(status == "141\n", "\(arguments): status \(status), stderr \(stderr)")
                } else {
                    #expect(status == "141\n" || status == "0\n", "\(arguments): status \(status), stderr \(stderr)")
                }
                #expect(stderr.isEmpty, "\(arguments): \(stderr)")
                #expect(head.split(separator: "\n", omittingEmptySubsequences: false).count == 3, "\(arguments): \(head.prefix(500))")
            }
        }
    }
}
