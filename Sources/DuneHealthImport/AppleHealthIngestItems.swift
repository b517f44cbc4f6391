import DuneEvents

/// An Apple Health export as ingest input: each mapped record validated into an
/// ``IngestCommand`` (or rejected with a reason), in batches, then the import summary.
///
/// The importer is synchronous and streams the file; this runs it on a thread
/// of its own (``BlockingProducer``) so `ingest` can append each batch to the
/// log as it comes, with memory bounded by a few batches.
package enum AppleHealthIngestItem: Sendable {
    /// A record that passed validation, with where it came from.
    case command(IngestCommand, recordType: String, line: Int)
    /// A mapped record that failed input validation (e.g. an implausible value).
    case rejected(recordType: String, line: Int, reason: String)
    /// The importer's summary: the last item, also when the file was cut short.
    case summary(AppleHealthImportSummary)

    /// The items of the export at `path`, in batches of `batchSize`.
    ///
    /// The sequence throws the importer's error (a truncated or malformed
    /// export) after delivering everything read before it, the summary included.
    package static func batches(path: String, batchSize: Int = 4096,
                               progress: @escaping @Sendable (AppleHealthImportProgress) -> Void = { _ in })
        -> BlockingProducer<[AppleHealthIngestItem]> {
        BlockingProducer(prefetch: 4) { yield in
            var batch: [AppleHealthIngestItem] = []
            batch.reserveCapacity(batchSize)
            var summary = AppleHealthImportSummary(path: path)
            var failure: (any Error)?
            do {
                try AppleHealthImporter(path: path).run(into: &summary, progress: progress) { record in
                    switch Result(catching: { () throws(Rejection) in try InputRules.command(from: record.input) }) {
                    case .success(let command):
                        batch.append(.command(command, recordType: record.recordType, line: record.line))
                    case .failure(let rejection):
                        batch.append(.rejected(recordType: record.recordType, line: record.line, reason: rejection.message))
                    }
                    if batch.count >= batchSize {
                        try yield(batch)
                        batch.removeAll(keepingCapacity: true)
                    }
                }
            } catch let cancelled as BlockingProducer<[AppleHealthIngestItem]>.Cancelled {
                throw cancelled
            } catch {
                failure = error
            }
            batch.append(.summary(summary))
            try yield(batch)
            if let failure { throw failure }
        }
    }
}
