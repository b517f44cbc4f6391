import DuneEvents

extension InputParser {
    /// The fast path of the byte-level `parse(_:)` for the app's
    /// signal lines — `refresh` (`source`, `kind`, `at`) and `task` (`task`,
    /// `feature`, `phase`, `at`, `error`), each with an optional `eventID`, in
    /// any order, written compactly with plain strings — parsed and validated
    /// straight from the bytes, without a JSON tree. A long history holds one such line for every four samples.
    ///
    /// Returns `nil` for anything else (unknown members, escapes, another
    /// spelling of `at`, anything that fails validation): the caller then
    /// takes the general parser, which accepts the same lines with the same
    /// result and words every rejection (`FastIngestTests` checks this).
    static func parseSignal(_ bytes: ByteView) -> IngestCommand? {
        guard var c = Cursor(line: bytes) else { return nil }
        var type: LineSlice?, source: LineSlice?, kind: LineSlice?, at: LineSlice?, task: LineSlice?, feature: LineSlice?, phase: LineSlice?
        var error: LineSlice?, eventID: LineSlice?
        guard c.expect(UInt8(ascii: "{")) else { return nil }
        while true {
            guard c.expect(UInt8(ascii: "\"")), let key = c.string(), !key.nonASCII, c.expect(UInt8(ascii: ":")),
                  c.expect(UInt8(ascii: "\"")), let text = c.string()
            else { return nil }
            @inline(__always) func take(_ slot: inout LineSlice?) -> Bool {
                guard slot == nil else { return false }
                slot = text
                return true
            }
            let taken: Bool
            switch InputMember.named(c.view(key)) {
            case .at: taken = take(&at)
            case .type: taken = take(&type)
            case .kind: taken = take(&kind)
            case .task: taken = take(&task)
            case .phase: taken = take(&phase)
            case .error: taken = take(&error)
            case .source: taken = take(&source)
            case .feature: taken = take(&feature)
            case .eventID: taken = take(&eventID)
            case .end, .id, .measure, .start, .unit, .value, nil: taken = false
            }
            guard taken else { return nil }
            if c.expect(UInt8(ascii: ",")) { continue }
            guard c.expect(UInt8(ascii: "}")), c.index == c.end else { return nil }
            break
        }
        // `at` in its canonical spelling (others take the general parser).
        guard let type, let at, PackedTimestamp(canonical: c.bytes(at)) != nil, let time = Timestamp(utf8: c.bytes(at)),
              TimestampWindow.contains(time)
        else { return nil }
        var eventIDText: String?
        if let eventID {
            guard InputRules.acceptsText(byteCount: eventID.count), let text = c.text(eventID) else { return nil }
            eventIDText = text
        }
        let intent: IngestCommand.Intent
        if StoredLineScanner.matches(c.bytes(type), "refresh") {
            guard task == nil, feature == nil, phase == nil, error == nil, let source, let sourceText = c.text(source),
                  let refreshSource = RefreshSource(exactly: sourceText)
            else { return nil }
            var sampleKind: SampleKind?
            if let kind {
                guard let text = c.text(kind), let parsed = SampleKind(exactly: text) else { return nil }
                sampleKind = parsed
            }
            guard (try? InputRules.refreshKind(sampleKind, for: refreshSource)) != nil else { return nil }
            intent = .refresh(RefreshRequest(source: refreshSource, kind: sampleKind, at: time))
        } else if StoredLineScanner.matches(c.bytes(type), "task") {
            guard source == nil, kind == nil, let task, let feature, let phase,
                  InputRules.acceptsText(byteCount: task.count), InputRules.acceptsText(byteCount: feature.count),
                  let taskText = c.text(task), let featureText = c.text(feature), let phaseText = c.text(phase),
                  let taskPhase = TaskPhase(exactly: phaseText)
            else { return nil }
            var errorText: String?
            if let error {
                guard let text = c.text(error) else { return nil }
                errorText = text
            }
            intent = .task(TaskCommand(task: taskText, feature: featureText, phase: taskPhase, at: time, error: errorText))
        } else {
            return nil
        }
        var content: [UInt8] = []
        content.reserveCapacity(bytes.count)
        InputContent.write(intent, unknown: JSONObject(), into: &content)
        return IngestCommand(intent: intent, eventID: eventIDText, extra: JSONObject(), content: content)
    }
}
