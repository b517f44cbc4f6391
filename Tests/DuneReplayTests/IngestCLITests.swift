import Foundation
import Testing

@Suite struct IngestCLITests {
    @Test func ingestingTwiceLeavesTheLogByteIdentical() throws {
        try withCLI { cli in
            try cli.write("input.jsonl", CLIFixture.text)
            let first = try cli.run(["ingest", "--log", "events.jsonl", "input.jsonl"])
            #expect(first.status == 0, "\(first)")
            #expect(first.stdout == "8 lines: 8 appended (8 events, seq 1–8), 0 already appended, 0 conflicts, 0 rejected\n")
            #expect(first.stderr == "")
            let before = try cli.bytes("events.jsonl")
            let second = try cli.run(["ingest", "--log", "events.jsonl", "--json", "input.jsonl"])
            #expect(second.status == 0, "\(second)")
            #expect(second.stdout == #"{"alreadyAppended":8,"appended":0,"conflict":0,"eventsAppended":0,"firstSeq":null,"forgotten":0,"lastSeq":null,"lines":8,"rejected":0,"withheld":false}"# + "\n")
            #expect(try cli.bytes("events.jsonl") == before)
        }
    }

    @Test func everyStoredLineHasAZlibCRCAndSeqIsGapless() throws {
        try withCLI { cli in
            try cli.write("input.jsonl", CLIFixture.text)
            _ = try cli.run(["ingest", "--log", "events.jsonl", "input.jsonl"])
            // An independent check: Python's zlib.crc32 over the bytes before ,"crc":" .
            let script = """
            import json, sys, zlib
            expected = 1
            for raw in open(sys.argv[1], 'rb'):
                line = raw.rstrip(b'\\n')
                cut = line.rindex(b',"crc":"')
                assert line[cut + 8:cut + 16].decode() == '%08x' % zlib.crc32(line[:cut]), line
                assert json.loads(line)['seq'] == expected
                expected += 1
            print(expected - 1)
            """
            try cli.write("check.py", script)
            let python = Process()
            python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            python.arguments = ["python3", cli.directory + "/check.py", cli.directory + "/events.jsonl"]
            let pipe = Pipe()
            python.standardOutput = pipe
            try python.run()
            python.waitUntilExit()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(python.terminationStatus == 0)
            #expect(output == "8\n")
        }
    }

    @Test func malformedLinesAreReportedAndGoodLinesAppended() throws {
        try withCLI { cli in
            let input = CLIFixture.lines[0] + "\n"
                + #"{"type":"sample","kind":"hrv","id":"X","start":"2026-02-02T06:00:00","end":"2026-02-02T06:00:00Z","value":40,"unit":"ms","source":"W"}"# + "\n"
                + "\n"
                + "{not json\n"
                + CLIFixture.lines[1] + "\n"
            try cli.write("bad.jsonl", input)
            let result = try cli.run(["ingest", "--log", "events.jsonl", "bad.jsonl"])
            #expect(result.status == 65)
            #expect(result.stderr == """
                bad.jsonl:2: field "start": timestamp "2026-02-02T06:00:00" has no UTC offset; add 'Z' or '±HH:MM' (e.g. 2026-02-02T06:00:00Z)
                bad.jsonl:4: invalid JSON at column 2: unexpected character 'n'; expected a quoted key

                """)
            #expect(result.stdout == "4 lines: 2 appended (2 events, seq 1–2), 0 already appended, 0 conflicts, 2 rejected\n")
            let verify = try cli.run(["verify", "--log", "events.jsonl"])
            #expect(verify.status == 0, "\(verify)")
        }
    }

    @Test func atomicAppendsNothingWhenAnyLineIsRejected() throws {
        try withCLI { cli in
            try cli.write("bad.jsonl", CLIFixture.lines[0] + "\n{\"type\":\"nope\"}\n")
            let result = try cli.run(["ingest", "--log", "events.jsonl", "--atomic", "bad.jsonl"])
            #expect(result.status == 65)
            #expect(result.stderr == "bad.jsonl:2: unknown type \"nope\"; expected sample, sampleDeleted, refresh, task or profile\n")
            #expect(result.stdout == "2 lines: 0 appended, 0 already appended, 0 conflicts, 1 rejected; --atomic: nothing was appended\n")
            #expect(try cli.bytes("events.jsonl") == [])
        }
    }

    @Test func stdinIsReadWithDash() throws {
        try withCLI { cli in
            let result = try cli.run(["ingest", "--log", "events.jsonl", "-"], stdin: Array(CLIFixture.text.utf8))
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.hasPrefix("8 lines: 8 appended"))
        }
    }

    @Test func tornTailAtAnyOffsetIsQuarantinedAndAppendsContinue() throws {
        try withCLI { cli in
            try cli.write("input.jsonl", CLIFixture.text)
            _ = try cli.run(["ingest", "--log", "events.jsonl", "input.jsonl"])
            let full = try cli.bytes("events.jsonl")
            let lastStart = full.dropLast().lastIndex(of: UInt8(ascii: "\n"))! + 1
            // Every cut inside the last line, on a bounded stride to keep the test fast.
            for cut in stride(from: lastStart + 1, to: full.count, by: 13) {
                try cli.writeBytes("cut.jsonl", Array(full.prefix(cut)))
                let result = try cli.run(["ingest", "--log", "cut.jsonl", "input.jsonl"])
                #expect(result.status == 0, "cut \(cut): \(result)")
                #expect(result.stderr.hasPrefix("warning: cut.jsonl: torn last line: moved \(cut - lastStart) bytes from byte \(lastStart) to 'cut.jsonl.torn-"), "cut \(cut)")
                #expect(result.stdout == "8 lines: 1 appended (1 event, seq 8), 7 already appended, 0 conflicts, 0 rejected\n", "cut \(cut)")
                #expect(try cli.run(["verify", "--log", "cut.jsonl"]).status == 0)
                for name in try cli.listing() where name.hasPrefix("cut.jsonl.torn-") {
                    #expect(try cli.bytes(name) == Array(full[lastStart..<cut]))
                    try FileManager.default.removeItem(atPath: cli.directory + "/" + name)
                }
            }
        }
    }

    @Test func aFlippedByteMidLogIsNamedByVerifyAndRefusedByIngestAndRebuild() throws {
        try withCLI { cli in
            try cli.write("input.jsonl", CLIFixture.text)
            _ = try cli.run(["ingest", "--log", "events.jsonl", "input.jsonl"])
            var bytes = try cli.bytes("events.jsonl")
            let lineStarts = [0] + bytes.indices.filter { bytes[$0] == UInt8(ascii: "\n") }.map { $0 + 1 }.dropLast()
            let third = lineStarts[2]
            bytes[third + 30] ^= 0x20
            try cli.writeBytes("events.jsonl", bytes)

            let verify = try cli.run(["verify", "--log", "events.jsonl"])
            #expect(verify.status == 65)
            #expect(verify.stderr == "events.jsonl: line 3, byte \(third): CRC mismatch: the line's bytes changed after it was written\n")
            #expect(verify.stdout == "damaged: events.jsonl: 1 damaged line of 8\n")

            let ingest = try cli.run(["ingest", "--log", "events.jsonl", "input.jsonl"])
            #expect(ingest.status == 65)
            #expect(ingest.stderr.contains("events.jsonl, line 3, byte \(third): the line's CRC does not match its bytes"), "\(ingest)")
            // The library's message names no command; the CLI adds its own advice on the next line.
            #expect(ingest.stderr.hasSuffix("\nRun 'dune-replay verify' on the same log to see every damaged line.\n"), "\(ingest)")
            #expect(try cli.bytes("events.jsonl") == bytes)

            let rebuild = try cli.run(["rebuild", "--log", "events.jsonl", "--out", "models"])
            #expect(rebuild.status == 65)
            #expect(rebuild.stdout == "")
            #expect(rebuild.stderr.contains("Nothing was rebuilt"))
            #expect(rebuild.stderr.contains("--until-seq 2"))
            #expect(!cli.exists("models"))
        }
    }

    @Test func concurrentIngestsWithWaitNeverInterleaveOrLoseLines() throws {
        try withCLI { cli in
            // Four disjoint inputs of 500 samples each.
            for writer in 0..<4 {
                var text = ""
                for index in 0..<500 {
                    text += #"{"type":"sample","kind":"stepCount","id":"w\#(writer)-\#(index)","start":"2026-02-02T06:00:00Z","end":"2026-02-02T06:01:00Z","value":\#(index),"unit":"count","source":"S\#(writer)"}"# + "\n"
                }
                try cli.write("in\(writer).jsonl", text)
            }
            let running = try (0..<4).map { try cli.start(["ingest", "--log", "events.jsonl", "--wait", "in\($0).jsonl"]) }
            let results = try running.map { try $0.finish() }
            for result in results { #expect(result.status == 0, "\(result)") }
            let verify = try cli.run(["verify", "--log", "events.jsonl"])
            #expect(verify.stdout.hasPrefix("ok: events.jsonl: 2000 events, seq 1–2000"), "\(verify)")
            let again = try cli.run(["ingest", "--log", "events.jsonl", "in0.jsonl", "in1.jsonl", "in2.jsonl", "in3.jsonl"])
            #expect(again.stdout == "2000 lines: 0 appended, 2000 already appended, 0 conflicts, 0 rejected\n")
        }
    }

    @Test func aSecondWriterWithNoWaitExits75() throws {
        try withCLI { cli in
            // The first writer holds the lock while it waits for stdin from a FIFO nobody writes yet.
            #expect(mkfifo(cli.directory + "/fifo", 0o600) == 0)
            // O_RDWR on a FIFO does not block on Linux; it lets the holder's open for reading succeed.
            let fd = open(cli.directory + "/fifo", O_RDWR)
            let holder = try cli.start(["ingest", "--log", "events.jsonl", "fifo"])
            // Wait until the holder has the lock (the log file exists).
            var waited = 0
            while !cli.exists("events.jsonl") && waited < 200 { usleep(20_000); waited += 1 }
            usleep(100_000)
            let second = try cli.run(["ingest", "--log", "events.jsonl", "--no-wait", "-"], stdin: Array(CLIFixture.text.utf8))
            #expect(second.status == 75)
            #expect(second.stderr == "Error: the log 'events.jsonl' is in use by another writer; try again when it has finished, or leave out --no-wait to wait up to 5 s for it (--wait: until it has finished)\n")
            // Release the holder: open the FIFO for writing and close it (EOF).
            close(fd)
            let first = try holder.finish()
            #expect(first.status == 0, "\(first)")
        }
    }
}
