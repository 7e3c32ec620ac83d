/// A WAV problem located in a file: `cue.wav: WAV encoding not supported: …`.
public struct WAVFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file, as given.
    public var path: String
    /// What is wrong with it.
    public var problem: WAVError

    /// Creates a located error.
    public init(path: String, problem: WAVError) {
        self.path = path
        self.problem = problem
    }

    /// `path: problem`; an unreadable file already names itself (`cannot read path: reason`).
    public var description: String {
        if case .unreadable = problem { return problem.description }
        return "\(path): \(problem)"
    }
}
