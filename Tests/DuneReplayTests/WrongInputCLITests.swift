import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

/// Issue 35, items 10–14: the CLI on the files a new user actually has — a
/// CSV or JSON export, an export.xml without its flag, an input file given as
/// the log — look-alike source names in forget and stats, Ctrl-C during
/// ingest, and `rebuild --as-of` on imported history.
@Suite struct WrongInputCLITests {
    /// Lines of stderr that report one rejected line of `input` (`input:LINE: …`).
    static func rejectionLines(_ stderr: String, input: String) -> [Substring] {
        stderr.split(separator: "\n").filter { line in
            guard line.hasPrefix(input + ":"), let rest = line.dropFirst(input.count + 1).split(separator: ":").first else { return false }
            return Int(rest) != nil
        }
    }

    static let csv = "Date,Active Energy (kcal),Heart Rate Variability (ms),Resting Heart Rate (count/min)\n"
        + (1...30).map { "2023-01-\(String(format: "%02d", $0)) 00:00:00,512.3,48.\($0),55" }.joined(separator: "\n") + "\n"

    static let autoExportJSON = """
        {
          "data" : {
            "metrics" : [
              {
                "name" : "heart_rate_variability",
                "units" : "ms",
                "data" : [
                  { "date" : "2023-01-05 07:12:00 +0100", "qty" : 48.2, "source" : "Apple Watch" }
                ]
              }
            ],
            "workouts" : [ ]
          }
        }

        """

    @Test func aCSVFileIsNamedOnceAndItsRejectionsAreCapped() throws {
        try withCLI { cli in
            try cli.write("daily.csv", Self.csv)
            let result = try cli.run(["ingest", "--log", "events.jsonl", "daily.csv"])
            #expect(result.status == 65, "\(result)")
            #expect(result.stderr.hasPrefix("daily.csv: this looks like CSV (first line: Date,Active Energy (kcal),Heart Rate Variability (ms),Restin…), not JSON lines; ingest does not read CSV"), "\(result)")
            // A file that is plainly not JSON lines: eight of its rejections, then the count of the rest.
            #expect(Self.rejectionLines(result.stderr, input: "daily.csv").count == 8, "\(result)")
            #expect(result.stderr.hasSuffix("daily.csv: … and 23 more lines rejected: the file is not JSON lines (see above); --json prints every one\n"), "\(result)")
            #expect(result.stdout.hasPrefix("31 lines: 0 appended"), "\(result)")
            // --json keeps every rejection.
            let json = try cli.run(["ingest", "--log", "events.jsonl", "--json", "daily.csv"])
            #expect(json.status == 65)
            #expect(Self.rejectionLines(json.stderr, input: "daily.csv").count == 31, "\(json)")
            #expect(!json.stderr.contains("more lines rejected like this"))
        }
    }

    @Test func repeatedRejectionsOfJSONLinesAreCappedPerKind() throws {
        try withCLI { cli in
            // Thirty samples without a UTC offset, and one with a bad unit: two kinds.
            var lines = (1...30).map { day in
                #"{"type":"sample","kind":"hrv","id":"h\#(day)","start":"2026-01-\#(String(format: "%02d", day))T06:00:00","end":"2026-01-\#(String(format: "%02d", day))T06:01:00","value":48,"unit":"ms","source":"Watch"}"#
            }
            lines.append(#"{"type":"sample","kind":"hrv","id":"u","start":"2026-01-01T06:00:00Z","end":"2026-01-01T06:01:00Z","value":48,"unit":"s","source":"Watch"}"#)
            try cli.write("input.jsonl", lines.joined(separator: "\n") + "\n")
            let result = try cli.run(["ingest", "--log", "events.jsonl", "input.jsonl"])
            #expect(result.status == 65)
            #expect(Self.rejectionLines(result.stderr, input: "input.jsonl").count == 5, "\(result)")
            #expect(result.stderr.contains("input.jsonl: … and 26 more lines rejected like this (field \"start\": timestamp"), "\(result)")
            #expect(result.stderr.contains("input.jsonl:31: "), "\(result)")
            let json = try cli.run(["ingest", "--log", "events.jsonl", "--json", "input.jsonl"])
            #expect(Self.rejectionLines(json.stderr, input: "input.jsonl").count == 31, "\(json)")
        }
    }

    @Test func aJSONDocumentAnXMLExportAndALogAreNamedForWhatTheyAre() throws {
        try withCLI { cli in
            try cli.write("export.json", Self.autoExportJSON)
            let document = try cli.run(["ingest", "--log", "events.jsonl", "export.json"])
            #expect(document.status == 65)
            #expect(document.stderr.hasPrefix("export.json: this is one JSON document (it looks like a Health Auto Export file), not JSON lines"), "\(document)")
            #expect(Self.rejectionLines(document.stderr, input: "export.json").count == 8, "\(document)")

            try cli.write("export.xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n</HealthData>\n")
            let xml = try cli.run(["ingest", "--log", "events.jsonl", "export.xml"])
            #expect(xml.stderr.hasPrefix("export.xml: this is the Health app's export.xml, not JSON lines: import it with 'dune-replay ingest --format apple-health export.xml'"), "\(xml)")

            // --format apple-health on JSON lines: not "damaged, re-export it".
            try cli.write("input.jsonl", CLIFixture.text)
            let wrongFlag = try cli.run(["ingest", "--log", "events.jsonl", "--format", "apple-health", "input.jsonl"])
            #expect(wrongFlag.status == 65, "\(wrongFlag)")
            #expect(wrongFlag.stderr.contains("Error: input.jsonl: this is JSON lines (its first line is a JSON object), not the Health app's export.xml: ingest it without --format apple-health"), "\(wrongFlag)")
            #expect(!wrongFlag.stderr.contains("damaged") && !wrongFlag.stderr.contains("re-export"), "\(wrongFlag)")

            // An input file given as the log: not "restore the log from a backup".
            for arguments in [["rebuild", "--log", "input.jsonl"], ["verify", "--log", "input.jsonl"], ["report", "--log", "input.jsonl", "--no-snapshot"]] {
                let result = try cli.run(arguments)
                #expect(result.status == 65, "\(arguments): \(result)")
                #expect(result.stderr.contains("'input.jsonl' is not a log: its lines have no seq and crc; it looks like ingest input. Append it to a log with 'dune-replay ingest --log LOG input.jsonl'"),
                        "\(arguments): \(result)")
                #expect(!result.stderr.contains("backup"), "\(arguments): \(result)")
            }
        }
    }

    static func sample(_ id: String, source: String) -> String {
        #"{"type":"sample","kind":"stepCount","id":"\#(id)","start":"2026-02-02T07:00:00Z","end":"2026-02-02T07:10:00Z","value":100,"unit":"count","source":"\#(source)"}"#
    }

    @Test func lookAlikeSourcesAreMarkedByStatsAndNeverKeptSilentlyByForget() throws {
        try withCLI { cli in
            let lines = [Self.sample("A", source: "Apple Watch"), Self.sample("B", source: "Apple\u{00A0}Watch"),
                         Self.sample("C", source: "apple watch"), Self.sample("D", source: "iPhone")]
            try cli.write("input.jsonl", lines.joined(separator: "\n") + "\n")
            #expect(try cli.run(["ingest", "--log", "events.jsonl", "input.jsonl"]).status == 0)
            let stats = try cli.run(["stats", "--log", "events.jsonl"])
            #expect(stats.stdout.contains("  Apple\\u{00A0}Watch"), "\(stats)")
            #expect(stats.stdout.contains("! looks like \"Apple Watch\" (white space), \"apple watch\" (case and white space)"), "\(stats)")
            #expect(!stats.stdout.contains("iPhone                      1  !"), "\(stats)")

            let before = try cli.bytes("events.jsonl")
            let refused = try cli.run(["forget", "--log", "events.jsonl", "--source", "Apple Watch"])
            #expect(refused.status == 64, "\(refused)")
            #expect(refused.stderr.contains("\"Apple\\u{00A0}Watch\": 1 sample event; differs from \"Apple Watch\" by white space"), "\(refused)")
            #expect(refused.stderr.contains("\"apple watch\": 1 sample event; differs from \"Apple Watch\" by case"), "\(refused)")
            #expect(refused.stderr.contains("Nothing was changed."), "\(refused)")
            #expect(try cli.bytes("events.jsonl") == before)

            let all = try cli.run(["forget", "--log", "events.jsonl", "--source", "Apple Watch", "--include-look-alikes", "--json"])
            #expect(all.status == 0, "\(all)")
            let after = try cli.run(["stats", "--log", "events.jsonl", "--json"])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [String: Any])
            #expect((object["bySource"] as? [String: Any])?.keys.sorted() == ["iPhone"], "\(after)")
        }
    }

    @Test(.timeLimit(.minutes(10)))  // only ends a test that would hang; the wait below is for the pause itself
    func ctrlCDuringIngestSaysWhatIsDurableAndHowToResume() async throws {
        try await withCLI { cli in
            let generated = try cli.run(["generate", "--days", "365", "--seed", "5"])
            try cli.write("input.jsonl", generated.stdout)
            // Paused once its first batch is durable, so the interrupt lands mid-ingest in any build.
            let running = try cli.start(["ingest", "--log", "events.jsonl", "input.jsonl"],
                                        environment: ["DUNE_INGEST_PAUSE_AFTER_DURABLE": "1"], pipesOutput: true)
            _ = await running.stderr?.waitFor("ingest: paused")
            running.kill(SIGINT)
            let result = await running.finished()
            #expect(result.status == 130, "\(result)")
            #expect(result.stderr.contains("Interrupted: ") && result.stderr.contains("acknowledged (appended or already in the log; the log is durable through seq "),
                    "\(result)")
            #expect(result.stderr.contains("Run the same command again to resume"), "\(result)")
            // What the interrupt promised: the log is whole, or ends in the torn last line of the batch
            // that was being written (never acknowledged; the next writer moves it aside).
            let stored = try cli.run(["verify", "--log", "events.jsonl"])
            #expect(stored.status == 0 || (stored.status == 65 && stored.stdout.contains("torn tail:")), "\(stored)")
            // Resuming finishes the job: the lines already in the log are skipped, the log is whole.
            let resumed = try cli.run(["ingest", "--log", "events.jsonl", "input.jsonl"])
            #expect(resumed.status == 0, "\(resumed)")
            #expect(!resumed.stdout.contains(", 0 already appended"), "\(resumed)")
            #expect(try cli.run(["verify", "--log", "events.jsonl"]).status == 0)
        }
    }

    @Test func asOfBeforeAnyRecordedEventSaysItCutsOnRecordedAt() throws {
        try withCLI { cli in
            try cli.write("input.jsonl", CLIFixture.text)
            #expect(try cli.run(["ingest", "--log", "events.jsonl", "input.jsonl"]).status == 0)
            // The samples are dated February 2026; they were recorded now, after 2026-03-01.
            let cut = try cli.run(["rebuild", "--log", "events.jsonl", "--as-of", "2026-03-01T00:00:00Z"])
            #expect(cut.status == 0)
            #expect(cut.stderr.contains("note: --as-of cuts on when events were recorded (appended to the log), not on when samples happened: no event was recorded by 2026-03-01T00:00:00Z"), "\(cut)")
            #expect(cut.stderr.contains("though 3 samples are dated before it"), "\(cut)")
            // Nothing dated before the cut: an empty result is what was asked for, without a note.
            let early = try cli.run(["rebuild", "--log", "events.jsonl", "--as-of", "2001-01-01T00:00:00Z"])
            #expect(!early.stderr.contains("note:"), "\(early)")
            let help = try cli.run(["rebuild", "--help"])
            #expect(help.stdout.contains("events *recorded* (appended, recordedAt) after it are not read"))
        }
    }
}
