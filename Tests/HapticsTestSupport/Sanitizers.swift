import Glibc

/// Which sanitizer the test binary was built with (`swift test --sanitize=address` or `=thread`),
/// read from the running process: each sanitizer's runtime is linked into the binary and exports its
/// entry points, so a test can scale itself down or say why it does not run there.
public enum Sanitizers {
    /// AddressSanitizer (with LeakSanitizer) is in this process.
    public static let address = isLinked("__asan_init")
    /// ThreadSanitizer is in this process.
    public static let thread = isLinked("__tsan_init")
    /// Either of them.
    public static var active: Bool { address || thread }

    private static func isLinked(_ symbol: String) -> Bool {
        // RTLD_DEFAULT: the global scope, the executable's exported symbols included.
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), symbol) != nil
    }
}

/// Leaks LeakSanitizer reports in the toolchain's own libraries, not in this project; the sanitizer
/// runtime asks the program for this list when it checks for leaks at exit, so a plain
/// `swift test --sanitize=address` needs no option. Each line names where the allocation was made.
///
/// - XCTest's runner keeps its suite objects until `exit()` (the package has no XCTest tests, but
///   `swift test` runs the empty XCTest pass all the same).
/// - Foundation's `Process.run()` (`$s10Foundation7ProcessC3runyyKF`; a `$` would anchor the
///   pattern, so the line leaves it out) weakly references the launching thread's `RunLoop`, which lives
///   as long as that thread; the runtime keeps a weakly referenced object's side table through a
///   pointer stored shifted inside its reference count, which the leak checker cannot follow.
/// - libdbus-1 (loaded for rtkit) keeps process-wide tables (its data slots) until
///   `dbus_shutdown()`, which a library must never call: the game may use D-Bus itself. LeakSanitizer
///   saw 1.5 kB in 6 allocations at exit, inside libdbus, after the rtkit tests had opened and
///   closed every connection they made.
@_cdecl("__lsan_default_suppressions")
public func _leakSanitizerDefaultSuppressions() -> UnsafePointer<CChar> {
    // A string literal's bytes are static and end with a NUL.
    UnsafeRawPointer(_toolchainLeaks.utf8Start).assumingMemoryBound(to: CChar.self)
}

private let _toolchainLeaks: StaticString = """
    leak:libXCTest.so
    leak:10Foundation7ProcessC3runyyKF
    leak:libdbus-1.so

    """
