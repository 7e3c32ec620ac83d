/// The repository the tests were built from, for tests that read its files (`Patterns/`, `README.md`).
public enum Repository {
    /// The repository's root folder, found from this file's path (`Tests/HapticsTestSupport/Repository.swift`).
    public static let root: String = {
        var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        return components.joined(separator: "/")
    }()
}
