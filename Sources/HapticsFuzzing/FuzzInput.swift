import Glibc
import HapticsSystem

/// One input for a fuzz target: a seed or a saved regression input, and where it came from.
public struct FuzzInput: Sendable, Hashable, CustomStringConvertible {
    /// Where the input came from: its path relative to the repository.
    public var name: String
    /// The bytes the target is fed.
    public var bytes: [UInt8]

    /// Creates an input.
    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }

    /// The name.
    public var description: String { name }

    /// The largest input file read: inputs are small (libFuzzer keeps them at a few kilobytes), so
    /// a larger file in a seed folder is a mistake, not an input.
    public static let maximumFileSize = 1 << 20

    /// Every regular file in `folder` (relative to `repository`) whose name ends in `suffix`, in
    /// name order; hidden files are left out, and so is a folder that does not exist.
    ///
    /// The corresponding C functions are `opendir`, `readdir` and `closedir`.
    public static func files(in folder: String, repository: String, suffix: String = "") -> [FuzzInput] {
        guard let handle = opendir(repository + "/" + folder) else { return [] }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if !name.hasPrefix("."), name.hasSuffix(suffix) { names.append(name) }
        }
        closedir(handle)
        return names.sorted().compactMap { name in
            let path = folder + "/" + name
            // Not a regular file (a subfolder), or unreadable: not an input.
            guard let bytes = try? FileDescriptor.readContents(ofFile: repository + "/" + path,
                                                               maximumSize: maximumFileSize)
            else { return nil }
            return FuzzInput(name: path, bytes: bytes)
        }
    }
}

/// Where a fuzz target's seed inputs come from, relative to the repository's root.
public enum FuzzSeedSource: Sendable {
    /// Every file in `folder` whose name ends in `suffix` ("" for all), each one input as it is.
    case files(folder: String, suffix: String)
    /// Every file in `folder` whose name ends in `suffix`, each made into one input by `compose`,
    /// which is given the repository's root and the file (a pattern made into a bundle with the
    /// sounds it names, say).
    case composed(folder: String, suffix: String,
                  compose: @Sendable (_ repository: String, _ file: FuzzInput) -> [UInt8])
}

extension FuzzTarget {
    /// The folder saved regression inputs live in, one subfolder per target, relative to the
    /// repository's root.
    public static let regressionFolder = "Tests/FuzzRegressions"

    /// The seed inputs, read from the repository at `repository` (its root folder).
    public func seeds(repository: String) -> [FuzzInput] {
        seedSources.flatMap { source -> [FuzzInput] in
            switch source {
            case let .files(folder, suffix):
                return FuzzInput.files(in: folder, repository: repository, suffix: suffix)
            case let .composed(folder, suffix, compose):
                return FuzzInput.files(in: folder, repository: repository, suffix: suffix).map { file in
                    FuzzInput(name: file.name, bytes: compose(repository, file))
                }
            }
        }
    }

    /// The inputs saved in `Tests/FuzzRegressions/<name>/`: each once made the target crash.
    public func regressionInputs(repository: String) -> [FuzzInput] {
        FuzzInput.files(in: Self.regressionFolder + "/" + name, repository: repository)
    }
}
