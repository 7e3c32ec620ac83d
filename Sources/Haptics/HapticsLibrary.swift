internal import CHapticsABI

/// What this library is: its version and licence.
///
/// The version is written in one place, the C header's `HAPTICS_VERSION_*` macros; the Swift
/// library, the C library (`haptics_version()`), `haptics.pc` and `haptics --version` all read it.
public enum HapticsLibrary {
    /// The version, `MAJOR.MINOR.PATCH` (`0.10.0`).
    public static let version: String = HAPTICS_VERSION_STRING
    /// The licence's SPDX identifier: the library is MIT licensed (the `LICENSE` file).
    public static let license = "MIT"
}
