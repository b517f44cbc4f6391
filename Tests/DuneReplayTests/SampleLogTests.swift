import Foundation
import Testing

/// The shipped sample under Logs/: it verifies, and rebuilding it gives exactly the committed read models.
@Suite struct SampleLogTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    @Test func shippedSampleLogVerifies() throws {
        try withCLI { cli in
            let result = try cli.run(["verify", "--log", Self.repository + "/Logs/events.jsonl"])
            #expect(result.status == 0, "\(result)")
        }
    }

    @Test func rebuildingTheShippedLogGivesTheCommittedReadModels() throws {
        try withCLI { cli in
            let result = try cli.run(["rebuild", "--log", Self.repository + "/Logs/events.jsonl", "--out", "models"])
            #expect(result.status == 0, "\(result)")
            for name in ["readiness.json", "trends.json", "weekly-stats.json", "sync-status.json"] {
                let committed = try Data(contentsOf: URL(fileURLWithPath: Self.repository + "/Logs/read-models/" + name))
                #expect(try Data(contentsOf: URL(fileURLWithPath: cli.directory + "/models/" + name)) == committed, "\(name)")
            }
        }
    }

    @Test func shippedLogIsTheShippedInputIngested() throws {
        try withCLI { cli in
            // Re-ingesting the sample input into a copy of the sample log appends nothing.
            try FileManager.default.copyItem(atPath: Self.repository + "/Logs/events.jsonl", toPath: cli.directory + "/events.jsonl")
            let result = try cli.run(["ingest", "--log", "events.jsonl", Self.repository + "/Logs/sample-input.jsonl"])
            #expect(result.stdout == "26021 lines: 0 appended, 26021 already appended, 0 conflicts, 0 rejected\n", "\(result)")
        }
    }
}
