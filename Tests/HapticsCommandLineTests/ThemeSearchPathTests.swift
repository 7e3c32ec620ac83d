import Testing
@testable import HapticsCommandLine
import HapticsTestSupport

/// feedbackd themes found as feedbackd finds them, in a fake XDG tree.
@Suite("feedbackd theme search path")
struct ThemeSearchPathTests {
    /// A tree with a user config folder and two data folders, each holding feedbackd/themes.
    struct Tree {
        let root: TemporaryFolder
        var config: String { root.path + "/config" }
        var local: String { root.path + "/local" }
        var share: String { root.path + "/share" }
        var environment: [String: String] { ["XDG_CONFIG_HOME": config, "XDG_DATA_DIRS": local + ":" + share] }

        init() throws {
            root = try TemporaryFolder()
        }

        func theme(_ json: String, named name: String, in folder: String) throws {
            try root.write(json, to: String(folder.dropFirst(root.path.count + 1)) + "/feedbackd/themes/\(name).json")
        }
    }

    static let defaultTheme = """
        {
          "name": "default",
          "profiles": [
            { "name": "full", "feedbacks": [
                { "event-name": "button-pressed", "type": "VibraRumble", "duration": 0x1e, "magnitude": 0.5 } ] }
          ]
        }
        """

    @Test func theSearchPathIsXDGConfigThenEachDataDir() {
        let search = ThemeSearchPath(environment: ["XDG_CONFIG_HOME": "/c", "XDG_DATA_DIRS": "/a:/b/", "HOME": "/h"], extra: ["/x"])
        #expect(search.folders == ["/x", "/c/feedbackd/themes", "/a/feedbackd/themes", "/b/feedbackd/themes"])
        let defaults = ThemeSearchPath(environment: ["XDG_CONFIG_HOME": "", "HOME": "/h"])
        #expect(defaults.folders == ["/h/.config/feedbackd/themes", "/usr/local/share/feedbackd/themes", "/usr/share/feedbackd/themes"])
    }

    @Test func aDeviceThemeOfANameAndAParentValidatesThroughTheSearchPath() throws {
        let tree = try Tree()
        defer { tree.root.remove() }
        try tree.theme(Self.defaultTheme, named: "default", in: tree.share)
        // A held-out device theme: only a name and a parent, kept outside the search path.
        try tree.root.write(#"{ "name": "pine64,pinephone", "parent-name": "default" }"#, to: "held/pine64,pinephone.json")
        let file = tree.root.path + "/held/pine64,pinephone.json"
        let result = runTool(["validate", file], environment: tree.environment)
        let parent = tree.share + "/feedbackd/themes/default.json"
        // Accepted as feedbackd's reader accepts it; said, since it is not JSON.
        #expect(result.error == "\(parent):5:78: warning: hexadecimal integer 0x1e accepted as 30\n")
        #expect(result.status == 0)
        #expect(result.output == "\(file): ok (feedbackd theme \"pine64,pinephone\" over \"default\" (\(parent)), 1 event, 1 felt at full, 1 warning)\n")
        let json = runTool(["validate", file, "--json"], environment: tree.environment)
        #expect(json.output == #"{"schema":1,"type":"validation","file":"\#(file)","valid":true,"format":"feedbackd-theme","name":"pine64,pinephone","parents":1,"chain":[{"name":"pine64,pinephone","file":"\#(file)"},{"name":"default","file":"\#(parent)"}],"events":1,"haptic_events":1,"warnings":1}"# + "\n")
        // Played, the event comes from the parent: 0x1e is 30 ms.
        let play = runTool(["play", "button-pressed", "--theme", file, "--device", "simulated", "--json"], environment: tree.environment)
        #expect(play.status == 0)
        #expect(play.output.split(separator: "\n").last?.hasPrefix(#"{"schema":1,"type":"play","feedback":"button-pressed","device":"simulated""#) == true)
    }

    @Test func theUsersConfigComesBeforeTheDataDirsAndThemePathBeforeBoth() throws {
        let tree = try Tree()
        defer { tree.root.remove() }
        try tree.theme(Self.defaultTheme, named: "default", in: tree.share)
        try tree.theme(Self.defaultTheme, named: "default", in: tree.config)
        try tree.theme(#"{ "name": "phone", "parent-name": "default" }"#, named: "phone", in: tree.local)
        // By name: found on the search path, its parent in the user's config.
        let byName = runTool(["play", "button-pressed", "--theme", "phone", "--device", "simulated"], environment: tree.environment)
        #expect(byName.status == 0)
        let validate = runTool(["validate", tree.local + "/feedbackd/themes/phone.json"], environment: tree.environment)
        #expect(validate.output.contains("over \"default\" (\(tree.config)/feedbackd/themes/default.json)"))
        try tree.root.write(Self.defaultTheme, to: "extra/default.json")
        let extra = runTool(["validate", tree.local + "/feedbackd/themes/phone.json", "--theme-path", tree.root.path + "/extra"], environment: tree.environment)
        #expect(extra.output.contains("over \"default\" (\(tree.root.path)/extra/default.json)"))
    }

    @Test func aParentNowhereOnThePathIsLocatedAtItsParentName() throws {
        let tree = try Tree()
        defer { tree.root.remove() }
        try tree.theme(#"{ "name": "phone", "parent-name": "default" }"#, named: "phone", in: tree.share)
        let file = tree.share + "/feedbackd/themes/phone.json"
        let result = runTool(["validate", file], environment: tree.environment)
        #expect(result.status == 1)
        #expect(result.error == "\(file):1:35: parent-name: the parent theme \"default\" was not found\n")
        let missing = runTool(["play", "button-pressed", "--theme", "nowhere"], environment: tree.environment)
        #expect(missing.status == 1)
        #expect(missing.error == "haptics play: no theme \"nowhere\" in the theme search path (\(tree.config)/feedbackd/themes, \(tree.local)/feedbackd/themes, \(tree.share)/feedbackd/themes)\n")
    }
}
