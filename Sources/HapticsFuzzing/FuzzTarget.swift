/// One reader of untrusted input to fuzz: a decoder or loader fed whole inputs, each a byte string.
///
/// Every outcome but a crash is an acceptable answer to an input: a thrown error is the reader doing
/// its job. A crash is a trap (a failed precondition, an index out of bounds, an arithmetic
/// overflow), a memory error the address sanitizer sees, an allocation beyond the fuzzer's limit, an
/// input that takes too long — or a broken invariant the target checks itself, such as "what decodes
/// encodes to text that decodes to the same pattern".
///
/// `Tools/fuzz` runs a target under libFuzzer; the replay test runs every seed and every saved
/// regression input (`Tests/FuzzRegressions/<name>/`) through the same ``run(_:workspace:)``. A
/// reader added later is one more static member and one more entry of ``all``.
public struct FuzzTarget: Sendable {
    /// The name `Tools/fuzz` knows the target by, also its folder under `Tests/FuzzRegressions/`.
    public let name: String
    /// One line saying what the target reads.
    public let summary: String
    /// Where the target's first inputs come from, before the fuzzer mutates them.
    public let seedSources: [FuzzSeedSource]
    private let body: @Sendable (_ input: [UInt8], _ workspace: String) -> Void

    /// Creates a target.
    ///
    /// - Parameter body: reads one input; `workspace` is an empty folder it may write files into and
    ///   must leave empty again.
    public init(name: String, summary: String, seedSources: [FuzzSeedSource],
                body: @escaping @Sendable (_ input: [UInt8], _ workspace: String) -> Void) {
        self.name = name
        self.summary = summary
        self.seedSources = seedSources
        self.body = body
    }

    /// Feeds one input to the target: returns whatever the reader made of it, traps on a crash.
    ///
    /// - Parameter workspace: an existing, empty folder the target may use for the input's files;
    ///   empty again when `run` returns.
    public func run(_ input: [UInt8], workspace: String) {
        body(input, workspace)
    }

    /// Every target, in the order `Tools/fuzz --list` prints them.
    public static let all: [FuzzTarget] = [.ahap, .hapticClip, .wav, .wavClip, .soundAnalysis, .bundle, .theme, .triggerEffect, .hapticsReport]

    /// The target called `name`, if there is one.
    public static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}
