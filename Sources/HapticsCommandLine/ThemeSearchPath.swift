import Glibc
import HapticsPatterns
import HapticsSystem

/// Where feedbackd themes are found, as feedbackd looks for them: the folders of `--theme-path`
/// first, then `$XDG_CONFIG_HOME/feedbackd/themes` (`~/.config` when unset or empty), then
/// `<dir>/feedbackd/themes` for each dir of `$XDG_DATA_DIRS` (`/usr/local/share:/usr/share` when
/// unset or empty). A theme's `parent-name` is `<name>.json` in the first folder that has it.
struct ThemeSearchPath {
    /// The folders in the order they are searched.
    let folders: [String]

    /// The search path of `environment`, after the `--theme-path` folders `extra`.
    init(environment: [String: String], extra: [String] = []) {
        func nonEmpty(_ key: String) -> String? {
            environment[key].flatMap { $0.isEmpty ? nil : $0 }
        }
        let config = nonEmpty("XDG_CONFIG_HOME") ?? nonEmpty("HOME").map { $0 + "/.config" }
        let data = nonEmpty("XDG_DATA_DIRS") ?? "/usr/local/share:/usr/share"
        let standard = (config.map { [$0] } ?? []) + data.split(separator: ":").map(String.init)
        folders = extra + standard.map { ($0.hasSuffix("/") ? $0 : $0 + "/") + "feedbackd/themes" }
    }

    /// The theme file `argument` names: a path as it is, or a bare name (`default`, no `/` and no
    /// `.json`) looked up as `<name>.json` along the search path.
    func file(_ argument: String) throws(CommandLineError) -> String {
        guard !argument.contains("/"), !argument.hasSuffix(".json"), access(argument, F_OK) != 0 else { return argument }
        for folder in folders {
            let candidate = folder + "/" + argument + ".json"
            if access(candidate, F_OK) == 0 { return candidate }
        }
        throw .failure("no theme \(JSONString.quoted(argument)) in the theme search path (\(folders.map { PrintableText.escaped($0) }.joined(separator: ", ")))")
    }

    /// Loads the theme `argument` names with its parents found along the search path.
    func theme(_ argument: String) throws(CommandLineError) -> FeedbackdTheme {
        let path = try file(argument)
        do {
            return try FeedbackdTheme(contentsOf: path, searchFolders: folders)
        } catch {
            throw .failure(error.description)
        }
    }

    /// `--theme-path <folder>`, which every command reading themes takes.
    static let help = HelpRow("--theme-path <folder>", "Also look for themes and their parents here, before $XDG_CONFIG_HOME/feedbackd/themes and each $XDG_DATA_DIRS/feedbackd/themes. Repeatable.")
}
