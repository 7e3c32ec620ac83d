import HapticsRendering
import Testing

@Suite("Device profile files")
struct DeviceProfileFileTests {
    @Test("a file starts from a built-in profile and sets what differs")
    func parsesValues() throws {
        let profile = try DeviceProfile(parsing: """
            # My DualSense, a little stronger at low levels
            base = dualsense
            name = my-dualsense
            display-name = My DualSense
              rise-time-ms = 35      # measured
            minimum-pulse-ms = 45.5
            control-interval-ms = 10
            overdrive-ms = 12
            magnitude-exponent = 0.8
            magnitude-floor = 0.12
            swap-motors = true
            """)
        var expected = DeviceProfile.dualSense
        expected.name = "my-dualsense"
        expected.displayName = "My DualSense"
        expected.riseTime = .milliseconds(35)
        expected.minimumPulse = .microseconds(45_500)
        expected.controlInterval = .milliseconds(10)
        expected.overdrive = .milliseconds(12)
        expected.magnitudeExponent = 0.8
        expected.magnitudeFloor = 0.12
        expected.swapsMotors = true
        #expect(profile == expected)
    }

    @Test("without a base the generic rumble profile is the start; an empty file is that profile")
    func defaults() throws {
        #expect(try DeviceProfile(parsing: "") == .genericRumble)
        #expect(try DeviceProfile(parsing: "magnitude-floor = 0\r\n").magnitudeFloor == 0)
    }

    @Test("every mistake is located, with what was expected", arguments: [
        ("rise-time-ms 30", "<text>:1:1: expected 'key = value'"),
        ("\n  = 3", "<text>:2:3: expected a key before '='"),
        ("name =   ", "<text>:1:7: expected a value after 'name ='"),
        ("base = dualsense\nbase = xbox", "<text>:2:1: 'base' is already set on line 1"),
        ("base = ps9", "<text>:1:8: unknown profile 'ps9' (built in: \(DeviceProfile.builtins.map(\.name).joined(separator: ", ")))"),
        ("rise-time-ms = fast", "<text>:1:16: 'rise-time-ms' expects a number of ms, not 'fast'"),
        ("rise-time-ms = 1500", "<text>:1:16: 'rise-time-ms' is 1500, outside 0…1000 ms"),
        ("control-interval-ms = 0.5", "<text>:1:23: 'control-interval-ms' is 0.5, outside 1…1000 ms"),
        ("magnitude-exponent = nan", "<text>:1:22: 'magnitude-exponent' expects a number, not 'nan'"),
        ("magnitude-floor = 2", "<text>:1:19: 'magnitude-floor' is 2, outside 0…1"),
        ("swap-motors = yes", "<text>:1:15: 'swap-motors' expects true or false, not 'yes'"),
        ("rumble = 1", "<text>:1:1: unknown key 'rumble' (known: \(DeviceProfile.fileKeys.joined(separator: ", ")))"),
    ])
    func locatedErrors(text: String, message: String) {
        #expect {
            _ = try DeviceProfile(parsing: text)
        } throws: { error in
            (error as? DeviceProfileFileError)?.description == message
        }
    }

    @Test("a file that cannot be read says which and why")
    func unreadable() {
        #expect {
            _ = try DeviceProfile(contentsOf: "/nonexistent/pad.profile")
        } throws: { error in
            (error as? DeviceProfileFileError)?.description == "/nonexistent/pad.profile: cannot open the file: No such file or directory"
        }
    }
}
