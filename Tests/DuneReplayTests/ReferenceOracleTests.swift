import Foundation
import Testing

/// Readiness checked against Scripts/reference_readiness.py, an independent
/// Python implementation of SPEC §6 that shares no code with the Swift folds.
@Suite struct ReferenceOracleTests {
    @Test(arguments: [(120, UInt64(21)), (75, UInt64(22))])
    func readinessMatchesTheIndependentReference(days: Int, seed: UInt64) throws {
        try withCLI { cli in
            let input = try cli.run(["generate", "--days", String(days), "--seed", String(seed)])
            try cli.write("input.jsonl", input.stdout)
            #expect(try cli.run(["ingest", "--log", "events.jsonl", "input.jsonl"]).status == 0)
            #expect(try cli.run(["rebuild", "--log", "events.jsonl", "--out", "models", "--projection", "readiness"]).status == 0)
            let python = Process()
            python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            python.arguments = ["python3", SampleLogTests.repository + "/Scripts/reference_readiness.py",
                                cli.directory + "/events.jsonl", cli.directory + "/models/readiness.json"]
            let pipe = Pipe()
            python.standardOutput = pipe
            try python.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            python.waitUntilExit()
            #expect(python.terminationStatus == 0, "\(output)")
            #expect(output.hasSuffix("mismatches 0\n"), "\(output)")
            #expect(output.hasPrefix("days \(days)") || output.hasPrefix("days \(days + 1)"), "\(output)")
        }
    }
}
