import DuneProjections

/// Turns one ``SyncPage`` into the commands of its atomic batch — the
/// page's samples, a deletion per deleted id, and the `sync.anchored` that
/// ends it — and tallies what the store did with them.
///
/// A sample the input rules reject, one of another type than the page's, and an
/// unmapped sample are not sent; they are counted by reason in the
/// `sync.anchored` event, so the anchor advances past them.
package struct SyncPageWriter: Sendable {
    /// The page's type.
    package let type: SampleKind
    /// The time stamped on the page's deletions.
    package let deletedAt: Timestamp

    package init(type: SampleKind, deletedAt: Timestamp) {
        self.type = type
        self.deletedAt = deletedAt
    }

    /// What a stored page did.
    package struct Tally: Sendable, Hashable {
        package var appended = 0
        package var alreadyAppended = 0
        package var deleted = 0
        package var rejected: [String: Int] = [:]
        package var samples = 0
        package var earliestStart: Timestamp?
    }

    /// The batch of `page`: its commands, in order, and how many of them are
    /// samples (first) and deletions (next); the last is the anchor.
    package struct Batch: Sendable {
        package var commands: [IngestCommand] = []
        package var sampleCount = 0
        package var deletionCount = 0
        package var record: SyncAnchorRecord
    }

    /// The batch for `page`.
    package func batch(for page: SyncPage) -> Batch {
        var rejected: [String: Int] = [:]
        var commands: [IngestCommand] = []
        var earliest: Timestamp?
        commands.reserveCapacity(page.changeCount + 1)
        func accept(_ command: IngestCommand) {
            guard case .sample(let sample) = command.intent else { return }
            guard sample.kind == type else {
                rejected["wrongSampleType", default: 0] += 1
                return
            }
            commands.append(command)
            if earliest.map({ sample.start < $0 }) ?? true { earliest = sample.start }
        }
        if let validated = page.validated {
            for item in validated {
                switch item {
                case .command(let command): accept(command)
                case .rejected(_, let rejection): rejected[rejection.code.rawValue, default: 0] += 1
                }
            }
        } else {
            for input in page.added {
                do throws(Rejection) {
                    accept(try IngestCommand.sample(input, eventID: nil))
                } catch {
                    rejected[error.code.rawValue, default: 0] += 1
                }
            }
        }
        let sampleCount = commands.count
        for id in page.deletedIDs {
            do throws(Rejection) {
                commands.append(try IngestCommand.deletion(SampleDeletion(sampleID: id, at: deletedAt), eventID: nil))
            } catch {
                rejected["deleted." + error.code.rawValue, default: 0] += 1
            }
        }
        for unmapped in page.unmapped { rejected[unmapped.reason.code, default: 0] += 1 }
        let record = SyncAnchorRecord(sampleType: type, anchor: page.anchor.text, added: (page.validated?.count ?? page.added.count) + page.unmapped.count,
                                      deleted: page.deletedIDs.count, rejected: rejected, earliestStart: earliest)
        let deletionCount = commands.count - sampleCount
        commands.append(IngestCommand(validated: .syncAnchor(record), eventID: nil, extra: JSONObject()))
        return Batch(commands: commands, sampleCount: sampleCount, deletionCount: deletionCount, record: record)
    }

    /// Tallies the store's outcomes for `batch`.
    package func tally(_ outcomes: [AppendOutcome], of batch: Batch) -> Tally {
        var tally = Tally()
        tally.rejected = batch.record.rejected
        tally.samples = batch.record.added
        tally.earliestStart = batch.record.earliestStart
        for (index, outcome) in outcomes.enumerated() where index < batch.sampleCount + batch.deletionCount {
            let isSample = index < batch.sampleCount
            switch outcome {
            case .appended, .refreshed: if isSample { tally.appended += 1 } else { tally.deleted += 1 }
            case .alreadyAppended: if isSample { tally.alreadyAppended += 1 }
            case .conflict, .rejected: tally.rejected["conflict", default: 0] += 1
            }
        }
        return tally
    }
}
