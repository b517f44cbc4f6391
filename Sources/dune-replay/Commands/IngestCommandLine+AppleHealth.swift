import DuneEvents
import DuneHealthImport
import DuneTools

/// `ingest --format apple-health`: stream export.xml files into the log and
/// print what happened per record type.
enum AppleHealthIngest {
    /// Ingests every export in `inputs` through `session`; returns the exit status.
    ///
    /// Records read before a damaged part of an export are still appended (as
    /// good lines of a JSON input are); the damage is reported with its line
    /// and byte offset and the exit status is 65.
    static func run(inputs: [String], session: inout IngestSession, json: Bool, meter: ProgressMeter?) async throws -> ExitCode {
        var imports: [AppleHealthImportSummary] = []
        var failures: [String] = []
        for input in inputs {
            var summary: AppleHealthImportSummary?
            // A file that is plainly not XML is named as what it is (not "a damaged export") and skipped.
            if let advice = FileLook.of(path: input)?.appleHealthAdvice(input: input) {
                failures.append("Error: \(input.terminalSafe): \(advice)")
                continue
            }
            do {
                for try await batch in AppleHealthIngestItem.batches(path: input) {
                    for item in batch {
                        switch item {
                        case .command(let command, let recordType, let line):
                            try await session.submit(command, input: input, line: line, category: recordType)
                        case .rejected(let recordType, let line, let reason):
                            session.reject(input: input, line: line, reason: "\(recordType): \(reason)", category: recordType)
                        case .summary(let final):
                            summary = final
                        }
                    }
                    meter?.update("\(input): \(session.summary.lines) records")
                }
            } catch let error as DuneEventsError where error.code == .invalidInput {
                meter?.finish()
                failures.append("Error: \(error)")
            } catch {
                // An export that fails to read: let the batch already handed to the log finish its write.
                try? await session.settle()
                throw error
            }
            if let summary {
                for type in summary.recordTypes {
                    // The detail says what is wrong in words; the reason's code stays in the library.
                    for example in type.examples {
                        Terminal.err("\(input):\(example.line): \(type.recordType.terminalSafe): \(example.detail.terminalSafe)\n")
                    }
                    if type.rejected > type.examples.count {
                        let more = type.rejected - type.examples.count
                        Terminal.err("\(input): \(type.recordType.terminalSafe): … and \(more) more rejected \(Wording.noun(more, "record"))\n")
                    }
                }
                imports.append(summary)
            }
        }
        let totals = try await session.finish()
        meter?.finish()
        for failure in failures { Terminal.err(failure + "\n") }
        let rows = table(imports: imports, totals: totals)
        if json {
            Terminal.out(JSONWriter.string(.object(jsonObject(rows: rows, imports: imports, totals: totals))) + "\n")
        } else {
            Terminal.out(text(rows: rows, imports: imports, totals: totals))
        }
        let rejected = rows.reduce(0) { $0 + $1.rejected }
        return failures.isEmpty && rejected == 0 && totals.conflicts == 0 ? .success : .dataError
    }

    /// One line of the per-record-type summary.
    struct Row {
        var recordType: String
        var seen = 0
        var appended = 0
        var alreadyPresent = 0
        var skipped = 0
        /// Rejected by the importer (unmappable, dated after the export) or by validation.
        var rejected = 0
        /// Conflicting with an event already in the log.
        var conflicts = 0
    }

    static func table(imports: [AppleHealthImportSummary], totals: IngestSession.Summary) -> [Row] {
        var rows: [String: Row] = [:]
        for summary in imports {
            for type in summary.recordTypes {
                var row = rows[type.recordType] ?? Row(recordType: type.recordType)
                row.seen += type.seen
                row.skipped += type.skipped
                row.rejected += type.rejected
                rows[type.recordType] = row
            }
        }
        for category in totals.categories {
            var row = rows[category.name] ?? Row(recordType: category.name)
            row.appended += category.appended
            row.alreadyPresent += category.alreadyAppended
            row.rejected += category.rejected
            row.conflicts += category.conflicts
            rows[category.name] = row
        }
        return rows.values.sorted { $0.recordType.utf8.lexicographicallyPrecedes($1.recordType.utf8) }
    }

    static func text(rows: [Row], imports: [AppleHealthImportSummary], totals: IngestSession.Summary) -> String {
        var text = ""
        for summary in imports {
            text += "\(summary.path): export of \(summary.exportDate?.text ?? "unknown date"), \(summary.bytesRead) bytes read"
                + (summary.isComplete ? "" : " (incomplete)") + "\n"
        }
        let width = max(12, rows.map(\.recordType.terminalSafe.count).max() ?? 0) + 2
        text += "RECORD TYPE".padding(width) + "SEEN".padding(8) + "APPENDED".padding(10) + "PRESENT".padding(9) + "SKIPPED".padding(9) + "REJECTED\n"
        for row in rows {
            text += row.recordType.terminalSafe.padding(width) + String(row.seen).padding(8) + String(row.appended).padding(10)
                + String(row.alreadyPresent).padding(9) + String(row.skipped).padding(9) + String(row.rejected) + "\n"
        }
        let seen = rows.reduce(0) { $0 + $1.seen }
        let skipped = rows.reduce(0) { $0 + $1.skipped }
        let rejected = rows.reduce(0) { $0 + $1.rejected }
        text += "total".padding(width) + String(seen).padding(8) + String(totals.appended).padding(10)
            + String(totals.alreadyAppended).padding(9) + String(skipped).padding(9) + String(rejected) + "\n"
        if totals.conflicts > 0 { text += "\(Wording.count(totals.conflicts, "conflict")) with events already in the log (counted apart from REJECTED)\n" }
        if let first = totals.firstSeq, let last = totals.lastSeq {
            text += "appended \(Wording.count(totals.eventsAppended, "event")), \(Wording.seqs(first, last))\n"
        }
        return text
    }

    static func jsonObject(rows: [Row], imports: [AppleHealthImportSummary], totals: IngestSession.Summary) -> JSONObject {
        func number(_ value: Int) -> JSONValue { .number(Double(value)) }
        let types: [JSONMember] = rows.map { row in
            JSONMember(row.recordType, .object(JSONObject([
                JSONMember("seen", number(row.seen)), JSONMember("appended", number(row.appended)),
                JSONMember("alreadyPresent", number(row.alreadyPresent)), JSONMember("skipped", number(row.skipped)),
                JSONMember("rejected", number(row.rejected)),
            ])))
        }
        let exports: [JSONValue] = imports.map { summary in
            .object(JSONObject([
                JSONMember("path", .string(summary.path)),
                JSONMember("exportDate", summary.exportDate.map { .string($0.text) } ?? .null),
                JSONMember("bytesRead", .number(Double(summary.bytesRead))),
                JSONMember("complete", .bool(summary.isComplete)),
                JSONMember("recordsInCorrelations", number(summary.recordsInCorrelations)),
            ]))
        }
        // One count for every rejected record, as in the table: the importer's rejections
        // (a missing attribute, a bad date or number, a date after the export's; never
        // handed to the log) are records of the input like the validated ones.
        var counted = totals
        let importer = imports.reduce(0) { $0 + $1.rejected }
        counted.lines += importer
        counted.rejected += importer
        var object = IngestCommandLine.summaryObject(counted)
        object["recordTypes"] = .object(JSONObject(types))
        object["exports"] = .array(exports)
        return object
    }
}
