import DuneProjections
import Foundation

/// One process of several sharing one log, as an app, its widget and its
/// extension do: it opens the log (read-write or read-only), appends HRV
/// samples one call each, then observes the store for a while.
///
/// stdout carries only `appended K` and `state throughSeq=N` lines, so that a
/// script can compare what each process saw; everything else goes to stderr.
struct SharedLogProcess {
    let arguments: Arguments

    /// Runs the process.
    /// - Returns: The exit status: 0, or 1 when the store refused to open or to append.
    func run() async -> Int32 {
        guard let path = arguments.logPath else { return 64 }
        // The log's folder is this process's own (as a subfolder of Application Support is an
        // app's), so a read-write open creates it when missing; a read-only one never creates.
        let options = DuneStore.Options(access: arguments.readOnly ? .readOnly : .readWrite, createsMissingFolders: true)
        let store: DuneStore
        do {
            store = try await DuneStore.open(at: path, options: options)
        } catch {
            printError("EmbeddingApp: cannot open '\(path)': \(error)")
            return 1
        }
        for warning in await store.warnings { printError(warning) }

        if let count = arguments.appendCount, let source = arguments.source {
            do {
                let appended = try await append(count, from: source, to: store)
                print("appended \(appended)")
            } catch {
                printError("EmbeddingApp: \(error)")
                await store.close()
                return 1
            }
        }

        var status: Int32 = 0
        if let seconds = arguments.holdSeconds {
            status = await observe(store, for: seconds)
        }
        await store.close()
        return status
    }

    /// Appends `count` HRV samples from `source`, one append call each, and
    /// returns how many were `.appended` (a rerun appends none: the ids repeat).
    private func append(_ count: Int, from source: String, to store: DuneStore) async throws -> Int {
        let start = Timestamp(epochSeconds: 1_769_925_600, offsetSeconds: 3600)  // 2026-02-01 07:00 +01:00
        var appended = 0
        for index in 0..<count {
            let time = start.adding(seconds: Int64(index) * 3600)
            let sample = SampleInput(id: "\(source)-hrv-\(index)", start: time, end: time.adding(seconds: 60),
                                     source: source, reading: .hrv(40 + Double(index % 13), .milliseconds))
            let outcome = try await store.append(.sample(sample))
            switch outcome {
            case .appended, .refreshed: appended += 1
            case .alreadyAppended: break
            case .conflict, .rejected: printError("EmbeddingApp: \(sample.id): \(outcome)")
            }
        }
        return appended
    }

    /// Prints `state throughSeq=N` for every state of `store` received within
    /// `seconds`, the current one first.
    /// - Returns: 0, or 1 when the observation ended with the store's error.
    private func observe(_ store: DuneStore, for seconds: Double) async -> Int32 {
        let observation = Task { () -> Int32 in
            do {
                for try await state in store.states {
                    print("state throughSeq=\(state.throughSeq)")
                }
                return 0
            } catch {
                printError("EmbeddingApp: the observation ended: \(error)")
                return 1
            }
        }
        try? await Task.sleep(for: .milliseconds(Int((seconds * 1000).rounded())))
        observation.cancel()
        return await observation.value
    }
}

/// Writes a diagnostic line to stderr (stdout is for `appended` and `state` lines).
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
