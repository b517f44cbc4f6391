import DuneEvents

/// A position in the export, for records and error messages.
struct HealthExportPosition: Sendable, Equatable {
    /// 1-based line number.
    var line: Int
    /// 0-based byte offset from the start of the file.
    var byteOffset: Int
}

/// One attribute of the current start tag: where its name and raw value lie
/// in the scanner's buffer. Valid until the scanner's next ``HealthExportScanner/next()``.
struct HealthExportAttribute {
    var nameStart: Int
    var nameCount: Int
    var valueStart: Int
    var valueCount: Int
}

/// A start tag (`<Record …>` or `<Record …/>`) the scanner has just read.
struct HealthExportTag {
    var element: HealthExportElement
    /// Where the name lies in the scanner's buffer (valid until the next event).
    var nameStart: Int
    var nameCount: Int
    var isSelfClosing: Bool
    var position: HealthExportPosition
    /// How many elements are open around this one (0 for the root).
    var depth: Int
    /// The enclosing element, `nil` for the root.
    var parent: HealthExportElement?
}

/// What ``HealthExportScanner/next()`` found.
enum HealthExportScanEvent {
    case startTag(HealthExportTag)
    case endTag(HealthExportElement)
    case endOfInput
}

/// A streaming, non-validating scanner for the XML subset Apple Health's
/// `export.xml` uses: elements with attributes and white space between them.
///
/// It reads the file in chunks into one buffer of `chunkSize +
/// maximumElementBytes` bytes and hands out one tag at a time with its
/// attributes as ranges in that buffer, so memory stays flat for any file
/// size. What it checks, and why:
///
/// - tags are well formed: names, `name="value"` pairs with either quote,
///   `/>`, and every end tag matches the open element (a flipped byte in a
///   name shows up as a mismatch at the latest where the element ends);
/// - the bytes of every tag are valid UTF-8 (names and values);
/// - no tag is longer than `maximumElementBytes`, nesting is at most
///   ``maximumDepth`` deep, and the root is `<HealthData>`;
/// - the file does not end inside a tag, comment, DOCTYPE or open element.
///
/// What it skips without interpreting: the XML declaration and processing
/// instructions, comments, CDATA sections, character data (the export has
/// none but white space), and the whole DOCTYPE with its internal DTD — every
/// export has `<!ATTLIST …>` declarations, and iOS 16 wrote one without its
/// closing `>`; the skipper only tracks comments, quoted literals and the
/// closing `]>`, so such damage inside the DTD does not matter. Entity
/// references are decoded later, per attribute, by ``decodedValue(named:)``.
///
/// Tolerated, because real exports contain them and they harm nothing here:
/// control characters such as U+000B in values (iOS 16 wrote them), a `<`
/// inside a quoted value, a repeated attribute name (the first one counts).
///
/// Every failure is a `DuneEventsError(.invalidInput)` whose location has the
/// path, line and byte offset, and whose message says how to fix it.
final class HealthExportScanner {
    /// The deepest nesting accepted (real exports nest four deep).
    static let maximumDepth = 64
    /// The longest element name accepted (the longest real one has 32 bytes);
    /// open elements keep unknown names, so this bounds the stack's memory.
    static let maximumNameBytes = 1024

    let path: String
    let maximumElementBytes: Int
    private let chunkSize: Int
    private let capacity: Int
    private let file: HealthExportFile
    /// The buffer: `bytes[start..<end]` is read but not yet consumed.
    let bytes: UnsafeMutablePointer<UInt8>
    private var start = 0
    private var end = 0
    /// The file offset of `bytes[0]`.
    private var bufferOffset = 0
    private var reachedEndOfFile = false
    private(set) var bytesRead: Int64 = 0

    private var lineCountedTo = 0
    private var line = 1

    private enum Mode {
        case content
        case comment(opened: HealthExportPosition)
        case processingInstruction(opened: HealthExportPosition)
        case characterData(opened: HealthExportPosition)
        case doctype(DoctypeState, opened: HealthExportPosition)
    }

    private enum DoctypeState {
        case beforeSubset(quote: UInt8?)
        case subset(inDeclaration: Bool, quote: UInt8?)
        case subsetComment(inDeclaration: Bool)
        case subsetProcessingInstruction(inDeclaration: Bool)
        case afterSubset
    }

    private struct OpenElement {
        var element: HealthExportElement
        /// The name's bytes, kept only for ``HealthExportElement/other``.
        var otherName: [UInt8]
        var position: HealthExportPosition
    }

    private var mode = Mode.content
    private var stack: [OpenElement] = []
    private var rootSeen = false
    private var rootClosed = false
    private var sawFirstBytes = false

    /// The attributes of the tag last returned by ``next()``.
    private(set) var attributes: [HealthExportAttribute] = []

    init(file: HealthExportFile, chunkSize: Int, maximumElementBytes: Int) {
        self.file = file
        self.path = file.path
        self.chunkSize = max(1, chunkSize)
        self.maximumElementBytes = max(64, maximumElementBytes)
        self.capacity = self.chunkSize + self.maximumElementBytes + 16
        self.bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        attributes.reserveCapacity(32)
    }

    deinit {
        bytes.deallocate()
    }

    /// The number of elements open right now.
    var depth: Int { stack.count }

    // MARK: - Events

    /// The next start tag, end tag or the end of the input.
    ///
    /// - Throws: `DuneEventsError(.invalidInput)` for malformed, truncated or
    ///   oversized input; `.inputUnavailable` when reading fails.
    func next() throws(DuneEventsError) -> HealthExportScanEvent {
        while true {
            switch mode {
            case .content:
                break
            case .comment(let opened):
                if let after = terminator(UInt8(ascii: "-"), UInt8(ascii: "-"), UInt8(ascii: ">")) {
                    start = after
                    mode = .content
                } else {
                    try needMore(inside: "a comment (<!-- … -->)", openedAt: opened)
                }
                continue
            case .processingInstruction(let opened):
                if let after = terminator(UInt8(ascii: "?"), UInt8(ascii: ">")) {
                    start = after
                    mode = .content
                } else {
                    try needMore(inside: "a processing instruction (<? … ?>)", openedAt: opened)
                }
                continue
            case .characterData(let opened):
                if let after = terminator(UInt8(ascii: "]"), UInt8(ascii: "]"), UInt8(ascii: ">")) {
                    start = after
                    mode = .content
                } else {
                    try needMore(inside: "a CDATA section", openedAt: opened)
                }
                continue
            case .doctype(let state, let opened):
                try skipDoctype(state, opened: opened)
                continue
            }

            if !sawFirstBytes {
                guard try checkStartOfFile() else { continue }
            }

            guard let lessThan = HealthExportBytes.firstIndex(of: HealthExportBytes.lessThan, in: bytes, from: start, to: end) else {
                try checkCharacterData(from: start, to: end)
                start = end
                if reachedEndOfFile { return try finish() }
                try refill()
                continue
            }
            try checkCharacterData(from: start, to: lessThan)
            start = lessThan
            guard lessThan + 1 < end else {
                try needMore(inside: "a tag", openedAt: position(of: lessThan))
                continue
            }
            switch bytes[lessThan + 1] {
            case HealthExportBytes.slash:
                if let element = try endTag(at: lessThan) { return .endTag(element) }
                try needMore(inside: "an end tag", openedAt: position(of: lessThan))
            case UInt8(ascii: "?"):
                mode = .processingInstruction(opened: position(of: lessThan))
                start = lessThan + 2
            case UInt8(ascii: "!"):
                try markupDeclaration(at: lessThan)
            default:
                if let tag = try startTag(at: lessThan) { return .startTag(tag) }
                try needMore(inside: "a tag", openedAt: position(of: lessThan))
            }
        }
    }

    // MARK: - Tags

    private func startTag(at lessThan: Int) throws(DuneEventsError) -> HealthExportTag? {
        var index = lessThan + 1
        let nameStart = index
        guard HealthExportBytes.isNameStart(bytes[index]) else {
            throw malformed("'<' is followed by \(HealthExportBytes.describe(bytes[index])), not an element name", at: index)
        }
        index += 1
        while index < end, HealthExportBytes.isNameByte(bytes[index]) { index += 1 }
        guard index < end else {
            if index - nameStart > Self.maximumNameBytes {
                throw malformed("an element name is longer than \(Self.maximumNameBytes) bytes", at: nameStart)
            }
            return nil
        }
        let nameCount = index - nameStart
        guard nameCount <= Self.maximumNameBytes else {
            throw malformed("an element name is longer than \(Self.maximumNameBytes) bytes", at: nameStart)
        }
        attributes.removeAll(keepingCapacity: true)
        var isSelfClosing = false
        while true {
            let spaceStart = index
            while index < end, HealthExportBytes.isSpace(bytes[index]) { index += 1 }
            guard index < end else { return nil }
            let byte = bytes[index]
            if byte == HealthExportBytes.greaterThan {
                index += 1
                break
            }
            if byte == HealthExportBytes.slash {
                guard index + 1 < end else { return nil }
                guard bytes[index + 1] == HealthExportBytes.greaterThan else {
                    throw malformed("expected '>' after '/' in <\(name(at: nameStart, count: nameCount))>", at: index + 1)
                }
                isSelfClosing = true
                index += 2
                break
            }
            guard index > spaceStart, HealthExportBytes.isNameStart(byte) else {
                throw malformed("unexpected \(HealthExportBytes.describe(byte)) in tag <\(name(at: nameStart, count: nameCount))>; expected an attribute name, '>' or '/>'",
                                at: index)
            }
            let attributeStart = index
            index += 1
            while index < end, HealthExportBytes.isNameByte(bytes[index]) { index += 1 }
            let attributeCount = index - attributeStart
            while index < end, HealthExportBytes.isSpace(bytes[index]) { index += 1 }
            guard index < end else { return nil }
            guard bytes[index] == HealthExportBytes.equals else {
                throw malformed("attribute '\(name(at: attributeStart, count: attributeCount))' of <\(name(at: nameStart, count: nameCount))> has no '=' (found \(HealthExportBytes.describe(bytes[index])))",
                                at: index)
            }
            index += 1
            while index < end, HealthExportBytes.isSpace(bytes[index]) { index += 1 }
            guard index < end else { return nil }
            let quote = bytes[index]
            guard quote == HealthExportBytes.quote || quote == HealthExportBytes.apostrophe else {
                throw malformed("the value of attribute '\(name(at: attributeStart, count: attributeCount))' is not quoted (found \(HealthExportBytes.describe(quote)))",
                                at: index)
            }
            index += 1
            guard let closing = HealthExportBytes.firstIndex(of: quote, in: bytes, from: index, to: end) else { return nil }
            attributes.append(HealthExportAttribute(nameStart: attributeStart, nameCount: attributeCount,
                                                    valueStart: index, valueCount: closing - index))
            index = closing + 1
        }
        if let invalid = HealthExportBytes.firstInvalidUTF8(in: bytes + lessThan, count: index - lessThan) {
            throw malformed("invalid UTF-8 (\(HealthExportBytes.describe(bytes[lessThan + invalid]))) in tag <\(name(at: nameStart, count: nameCount))>",
                            at: lessThan + invalid)
        }

        let element = HealthExportElement(name: bytes + nameStart, count: nameCount)
        let position = position(of: lessThan)
        if stack.isEmpty {
            if rootClosed {
                throw malformed("element <\(name(at: nameStart, count: nameCount))> after the end of </HealthData>; the file has extra content at its end", at: lessThan)
            }
            guard element == .healthData else {
                throw DuneEventsError(.invalidInput,
                                      "the root element is <\(name(at: nameStart, count: nameCount))>, not <HealthData>: this is not an Apple Health export.xml; pass apple_health_export/export.xml from the Health app's export",
                                      location: location(position))
            }
            rootSeen = true
        }
        let tag = HealthExportTag(element: element, nameStart: nameStart, nameCount: nameCount,
                                  isSelfClosing: isSelfClosing, position: position,
                                  depth: stack.count, parent: stack.last?.element)
        if !isSelfClosing {
            guard stack.count < Self.maximumDepth else {
                throw malformed("elements are nested more than \(Self.maximumDepth) deep; an Apple Health export nests 4 deep", at: lessThan)
            }
            let otherName = element == .other ? Array(UnsafeBufferPointer(start: bytes + nameStart, count: nameCount)) : []
            stack.append(OpenElement(element: element, otherName: otherName, position: position))
        } else if stack.isEmpty {
            rootClosed = true
        }
        start = index
        return tag
    }

    private func endTag(at lessThan: Int) throws(DuneEventsError) -> HealthExportElement? {
        var index = lessThan + 2
        guard index < end else { return nil }
        let nameStart = index
        guard HealthExportBytes.isNameStart(bytes[index]) else {
            throw malformed("'</' is followed by \(HealthExportBytes.describe(bytes[index])), not an element name", at: index)
        }
        index += 1
        while index < end, HealthExportBytes.isNameByte(bytes[index]) { index += 1 }
        let nameCount = index - nameStart
        while index < end, HealthExportBytes.isSpace(bytes[index]) { index += 1 }
        guard index < end else { return nil }
        guard bytes[index] == HealthExportBytes.greaterThan else {
            throw malformed("unexpected \(HealthExportBytes.describe(bytes[index])) in end tag </\(name(at: nameStart, count: nameCount))>", at: index)
        }
        if let invalid = HealthExportBytes.firstInvalidUTF8(in: bytes + nameStart, count: nameCount) {
            throw malformed("invalid UTF-8 (\(HealthExportBytes.describe(bytes[nameStart + invalid]))) in end tag name", at: nameStart + invalid)
        }
        let element = HealthExportElement(name: bytes + nameStart, count: nameCount)
        guard let open = stack.last else {
            throw malformed("end tag </\(name(at: nameStart, count: nameCount))> has no open element", at: lessThan)
        }
        let matches = element == open.element
            && (element != .other || open.otherName.withUnsafeBufferPointer { name in
                guard name.count == nameCount, let base = name.baseAddress else { return false }
                return ByteView.equal(base, bytes + nameStart, count: nameCount)
            })
        guard matches else {
            let opened = open.element == .other ? String(decoding: open.otherName, as: UTF8.self) : open.element.xmlName
            throw malformed("end tag </\(name(at: nameStart, count: nameCount))> does not match <\(opened)> opened at line \(open.position.line) (byte \(open.position.byteOffset)); one of the two names is damaged",
                            at: lessThan)
        }
        stack.removeLast()
        if stack.isEmpty { rootClosed = true }
        start = index + 1
        return element
    }

    /// `<!--`, `<![CDATA[` or `<!DOCTYPE` at `lessThan`.
    private func markupDeclaration(at lessThan: Int) throws(DuneEventsError) {
        let available = end - lessThan
        if hasPrefix("<!--", at: lessThan) {
            mode = .comment(opened: position(of: lessThan))
            start = lessThan + 4
        } else if hasPrefix("<![CDATA[", at: lessThan) {
            guard !stack.isEmpty else { throw malformed("a CDATA section outside the root element", at: lessThan) }
            mode = .characterData(opened: position(of: lessThan))
            start = lessThan + 9
        } else if hasPrefix("<!DOCTYPE", at: lessThan) {
            guard !rootSeen else { throw malformed("a DOCTYPE after the root element started", at: lessThan) }
            mode = .doctype(.beforeSubset(quote: nil), opened: position(of: lessThan))
            start = lessThan + 9
        } else if available < 9 && !reachedEndOfFile {
            try needMore(inside: "a tag", openedAt: position(of: lessThan))
        } else {
            throw malformed("unexpected markup '<!' that is not a comment, CDATA section or DOCTYPE", at: lessThan)
        }
    }

    // MARK: - Skipping

    /// Looks for a two- or three-byte terminator from `start`; returns the
    /// index just past it, or `nil` after consuming all but the bytes that
    /// could begin it (so a terminator split across reads is still found).
    private func terminator(_ first: UInt8, _ second: UInt8, _ third: UInt8? = nil) -> Int? {
        let length = third == nil ? 2 : 3
        var index = start
        while let found = HealthExportBytes.firstIndex(of: first, in: bytes, from: index, to: end) {
            guard found + length <= end else { break }
            if bytes[found + 1] == second, third.map({ bytes[found + 2] == $0 }) ?? true {
                return found + length
            }
            index = found + 1
        }
        start = max(start, end - (length - 1))
        return nil
    }

    private func skipDoctype(_ initial: DoctypeState, opened: HealthExportPosition) throws(DuneEventsError) {
        var state = initial
        var index = start
        scanning: while index < end {
            let byte = bytes[index]
            switch state {
            case .beforeSubset(let quote):
                if let quote {
                    if byte == quote { state = .beforeSubset(quote: nil) }
                } else if byte == HealthExportBytes.quote || byte == HealthExportBytes.apostrophe {
                    state = .beforeSubset(quote: byte)
                } else if byte == UInt8(ascii: "[") {
                    state = .subset(inDeclaration: false, quote: nil)
                } else if byte == HealthExportBytes.greaterThan {
                    start = index + 1
                    mode = .content
                    return
                }
                index += 1
            case .subset(let inDeclaration, let quote):
                if let quote {
                    if byte == quote { state = .subset(inDeclaration: inDeclaration, quote: nil) }
                    index += 1
                } else if byte == HealthExportBytes.lessThan {
                    guard index + 4 <= end else { break scanning }
                    if hasPrefix("<!--", at: index) {
                        state = .subsetComment(inDeclaration: inDeclaration)
                        index += 4
                    } else if bytes[index + 1] == UInt8(ascii: "?") {
                        state = .subsetProcessingInstruction(inDeclaration: inDeclaration)
                        index += 2
                    } else if bytes[index + 1] == UInt8(ascii: "!") {
                        // `<!ELEMENT`, `<!ATTLIST`, …; also ends a declaration left open (iOS 16).
                        state = .subset(inDeclaration: true, quote: nil)
                        index += 2
                    } else {
                        state = .subset(inDeclaration: false, quote: nil)
                        index += 1
                    }
                } else {
                    if byte == HealthExportBytes.greaterThan {
                        state = .subset(inDeclaration: false, quote: nil)
                    } else if inDeclaration && (byte == HealthExportBytes.quote || byte == HealthExportBytes.apostrophe) {
                        state = .subset(inDeclaration: true, quote: byte)
                    } else if byte == UInt8(ascii: "]") {
                        state = .afterSubset
                    }
                    index += 1
                }
            case .subsetComment(let inDeclaration):
                start = index
                if let after = terminator(UInt8(ascii: "-"), UInt8(ascii: "-"), UInt8(ascii: ">")) {
                    state = .subset(inDeclaration: inDeclaration, quote: nil)
                    index = after
                } else {
                    index = start
                    break scanning
                }
            case .subsetProcessingInstruction(let inDeclaration):
                start = index
                if let after = terminator(UInt8(ascii: "?"), UInt8(ascii: ">")) {
                    state = .subset(inDeclaration: inDeclaration, quote: nil)
                    index = after
                } else {
                    index = start
                    break scanning
                }
            case .afterSubset:
                if byte == HealthExportBytes.greaterThan {
                    start = index + 1
                    mode = .content
                    return
                }
                guard HealthExportBytes.isSpace(byte) else {
                    throw malformed("the DOCTYPE's internal subset ends with ']' followed by \(HealthExportBytes.describe(byte)) instead of '>'", at: index)
                }
                index += 1
            }
        }
        start = index
        mode = .doctype(state, opened: opened)
        try needMore(inside: "the DOCTYPE declaration", openedAt: opened)
    }

    // MARK: - Checks

    /// Skips a UTF-8 byte order mark and recognizes a zip archive or UTF-16
    /// text up front, where a clear message helps most. Returns `false` when
    /// more bytes are needed first.
    private func checkStartOfFile() throws(DuneEventsError) -> Bool {
        if end - start < 4 && !reachedEndOfFile {
            try needMore(inside: "the start of the file", openedAt: position(of: start))
            return false
        }
        sawFirstBytes = true
        let available = end - start
        if available >= 3, bytes[start] == 0xEF, bytes[start + 1] == 0xBB, bytes[start + 2] == 0xBF {
            start += 3
        } else if available >= 4, bytes[start] == 0x50, bytes[start + 1] == 0x4B, bytes[start + 2] == 0x03, bytes[start + 3] == 0x04 {
            throw DuneEventsError(.invalidInput,
                                  "'\(path)' is a zip archive (export.zip), not export.xml; unzip it and pass apple_health_export/export.xml",
                                  location: location(position(of: start)))
        } else if available >= 2, (bytes[start] == 0xFF && bytes[start + 1] == 0xFE) || (bytes[start] == 0xFE && bytes[start + 1] == 0xFF) {
            throw DuneEventsError(.invalidInput,
                                  "'\(path)' is UTF-16 text; Apple Health exports are UTF-8 — pass the export.xml as the Health app wrote it",
                                  location: location(position(of: start)))
        }
        return true
    }

    /// Character data is skipped; outside the root only white space is allowed.
    private func checkCharacterData(from: Int, to: Int) throws(DuneEventsError) {
        guard stack.isEmpty, from < to else { return }
        for index in from..<to where !HealthExportBytes.isSpace(bytes[index]) {
            if !rootSeen {
                throw malformed("unexpected text \(HealthExportBytes.describe(bytes[index])) before the <HealthData> element; this is not an Apple Health export.xml, or its start is damaged",
                                at: index)
            }
            throw malformed("unexpected text \(HealthExportBytes.describe(bytes[index])) after </HealthData>", at: index)
        }
    }

    private func finish() throws(DuneEventsError) -> HealthExportScanEvent {
        if let open = stack.last {
            let name = open.element == .other ? String(decoding: open.otherName, as: UTF8.self) : open.element.xmlName
            throw DuneEventsError(.invalidInput,
                                  "the file ends inside <\(name)> opened at line \(open.position.line) (byte \(open.position.byteOffset)): the export is truncated; copy or unzip it again, or re-export it from the Health app",
                                  location: location(position(of: end)))
        }
        guard rootSeen else {
            let what = bytesRead == 0 ? "the file is empty" : "the file has no <HealthData> element"
            throw DuneEventsError(.invalidInput, "\(what): this is not an Apple Health export.xml; pass apple_health_export/export.xml from the Health app's export",
                                  location: location(position(of: end)))
        }
        return .endOfInput
    }

    // MARK: - Buffer

    /// More bytes are needed to finish what starts at `start`.
    private func needMore(inside what: String, openedAt opened: HealthExportPosition) throws(DuneEventsError) {
        if reachedEndOfFile {
            throw DuneEventsError(.invalidInput,
                                  "the file ends inside \(what) that starts at line \(opened.line) (byte \(opened.byteOffset)): the export is truncated; copy or unzip it again, or re-export it from the Health app",
                                  location: location(position(of: end)))
        }
        if end - start >= maximumElementBytes {
            throw DuneEventsError(.invalidInput,
                                  "\(what) at line \(opened.line) is longer than \(maximumElementBytes) bytes; no element of an Apple Health export is that long, so the file is damaged or not an export",
                                  location: location(opened))
        }
        try refill()
    }

    /// Moves the unconsumed bytes to the front and reads the next chunk.
    private func refill() throws(DuneEventsError) {
        if start > 0 {
            if lineCountedTo < start {
                line += HealthExportBytes.newlineCount(in: bytes, from: lineCountedTo, to: start)
                lineCountedTo = start
            }
            let keep = end - start
            if keep > 0 { UnsafeMutableRawPointer(bytes).copyMemory(from: bytes + start, byteCount: keep) }  // overlapping: memmove semantics
            bufferOffset += start
            lineCountedTo -= start
            end = keep
            start = 0
        }
        let count = try file.read(into: bytes + end, count: min(chunkSize, capacity - end))
        if count == 0 {
            reachedEndOfFile = true
        } else {
            end += count
            bytesRead += Int64(count)
        }
    }

    // MARK: - Positions and errors

    /// The line and file offset of `bytes[index]`; counts lines up to there.
    func position(of index: Int) -> HealthExportPosition {
        if index > lineCountedTo {
            line += HealthExportBytes.newlineCount(in: bytes, from: lineCountedTo, to: index)
            lineCountedTo = index
        }
        return HealthExportPosition(line: line, byteOffset: bufferOffset + index)
    }

    func location(_ position: HealthExportPosition) -> DuneEventsError.Location {
        DuneEventsError.Location(path: path, line: position.line, byteOffset: position.byteOffset)
    }

    private func malformed(_ what: String, at index: Int) -> DuneEventsError {
        DuneEventsError(.invalidInput,
                        "malformed export: \(what); the file is damaged (a changed or missing byte) — copy or unzip it again, or re-export it from the Health app",
                        location: location(position(of: index)))
    }

    private func hasPrefix(_ prefix: StaticString, at index: Int) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard index + count <= end else { return false }
        return ByteView.equal(bytes + index, prefix.utf8Start, count: count)
    }

    /// A name from the buffer, for messages (invalid UTF-8 is repaired).
    func name(at index: Int, count: Int) -> String {
        let shown = min(count, 80)
        let text = String(decoding: UnsafeBufferPointer(start: bytes + index, count: shown), as: UTF8.self)
        return shown < count ? text + "…" : text
    }
}
