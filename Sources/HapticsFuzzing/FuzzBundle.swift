/// A pattern file and the files beside it, packed into one byte string a fuzzer can mutate: the
/// input of the bundle target.
///
/// ```
/// <pattern file>
/// --- sounds/hit.wav
/// <WAV bytes>
/// --- alias.wav -> sounds/hit.wav
/// ```
///
/// The pattern comes first; every `\n--- ` starts an entry, named by the rest of its line. An entry
/// named `a -> b` is a symbolic link `a` to `b` (what follows its line is ignored); any other is a
/// file holding the bytes up to the next entry. Names are relative paths of at most
/// ``maximumNameComponents`` components of letters, digits, `.`, `_` and `-` (no `.` or `..`
/// component); an entry with another name is kept under `file<i>.wav`, `i` its index. Link
/// targets may be anything of at most ``maximumNameLength`` bytes, since what a link may point at
/// is exactly what the loader has to police. At most ``maximumEntryCount`` entries are kept.
public struct FuzzBundle: Sendable, Hashable {
    /// One file or link beside the pattern.
    public struct Entry: Sendable, Hashable {
        /// The path relative to the pattern's folder.
        public var name: String
        /// A file's bytes, or a link's target.
        public var content: Content

        /// What an entry is.
        public enum Content: Sendable, Hashable {
            /// A regular file with these bytes.
            case file([UInt8])
            /// A symbolic link to this path (relative to the link's folder, or absolute).
            case symbolicLink(to: String)
        }

        /// Creates an entry.
        public init(name: String, content: Content) {
            self.name = name
            self.content = content
        }
    }

    /// What starts an entry.
    public static let separator: [UInt8] = Array("\n--- ".utf8)
    /// Between a link's name and its target.
    public static let linkArrow: [UInt8] = Array(" -> ".utf8)
    /// The most entries read from one input.
    public static let maximumEntryCount = 8
    /// The longest name or link target, in bytes.
    public static let maximumNameLength = 64
    /// The most folders and file in a name (`a/b/c.wav`).
    public static let maximumNameComponents = 3

    /// The pattern file's bytes.
    public var pattern: [UInt8]
    /// The files and links beside it, in input order.
    public var entries: [Entry]

    /// Creates a bundle.
    public init(pattern: [UInt8], entries: [Entry] = []) {
        self.pattern = pattern
        self.entries = entries
    }

    /// Splits an input into the pattern and its entries (see the type's description).
    public init(splitting input: [UInt8]) {
        var parts = Self.split(input)
        pattern = Array(parts.removeFirst())
        entries = []
        for (index, part) in parts.prefix(Self.maximumEntryCount).enumerated() {
            let lineEnd = part.firstIndex(of: UInt8(ascii: "\n")) ?? part.endIndex
            let line = Array(part[..<lineEnd])
            let body = lineEnd < part.endIndex ? Array(part[(lineEnd + 1)...]) : []
            if let arrow = Self.range(of: Self.linkArrow, in: line) {
                let name = Self.validName(line[..<arrow.lowerBound]) ?? "file\(index).wav"
                let target = String(decoding: line[arrow.upperBound...].prefix(Self.maximumNameLength), as: UTF8.self)
                entries.append(Entry(name: name, content: .symbolicLink(to: target)))
            } else {
                entries.append(Entry(name: Self.validName(line[...]) ?? "file\(index).wav", content: .file(body)))
            }
        }
    }

    /// The input that splits into this bundle (when no file contains ``separator``).
    public var bytes: [UInt8] {
        var bytes = pattern
        for entry in entries {
            bytes += Self.separator + Array(entry.name.utf8)
            switch entry.content {
            case let .file(content): bytes += [UInt8(ascii: "\n")] + content
            case let .symbolicLink(target): bytes += Self.linkArrow + Array(target.utf8) + [UInt8(ascii: "\n")]
            }
        }
        return bytes
    }

    /// `name` when it is a name entries may have, else `nil`.
    static func validName(_ name: ArraySlice<UInt8>) -> String? {
        guard !name.isEmpty, name.count <= maximumNameLength else { return nil }
        let components = name.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard components.count <= maximumNameComponents else { return nil }
        for component in components {
            guard !component.isEmpty, component != [UInt8(ascii: ".")], component != [UInt8(ascii: "."), UInt8(ascii: ".")],
                  component.allSatisfy(isNameByte)
            else { return nil }
        }
        return String(decoding: name, as: UTF8.self)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    /// `input` cut at every ``separator`` (the separators left out): at least one part.
    private static func split(_ input: [UInt8]) -> [ArraySlice<UInt8>] {
        var parts: [ArraySlice<UInt8>] = []
        var start = input.startIndex
        var searchFrom = start
        while let found = range(of: separator, in: input[searchFrom...]) {
            parts.append(input[start..<found.lowerBound])
            start = found.upperBound
            searchFrom = start
            if parts.count > maximumEntryCount { break }
        }
        parts.append(input[start...])
        return parts
    }

    /// Where `needle` first occurs in `haystack`.
    private static func range<C: Collection<UInt8>>(of needle: [UInt8], in haystack: C) -> Range<C.Index>? {
        guard let first = needle.first else { return nil }
        var index = haystack.startIndex
        while let candidate = haystack[index...].firstIndex(of: first) {
            var end = candidate
            var matched = true
            for byte in needle {
                guard end < haystack.endIndex, haystack[end] == byte else { matched = false; break }
                end = haystack.index(after: end)
            }
            if matched { return candidate..<end }
            index = haystack.index(after: candidate)
        }
        return nil
    }
}
