import Glibc
import HapticsDevices
import HapticsVirtualDevices
import Testing

/// The C interface on a real kernel, as a C game uses it: programs built with `pkg-config haptics`
/// against the installed libhaptics.so.0 (the testbench packs them into the guest), run against
/// virtual DualSense pads bound by hid-playstation, every output report they send read back.
@Suite("The C interface on DualSense pads", .requiresKernelTestbench, .serialized)
struct CInterfaceKernelTests {
    /// Where the testbench put the C programs.
    static let folder = getenv("HAPTICS_C_PROGRAMS").map { String(cString: $0) } ?? "/opt/haptics/c"

    @Test func theCExampleGameFeelsRightOnEachPlayersPad() throws {
        let one = try VirtualDualSense()
        defer { one.close() }
        let two = try VirtualDualSense()
        defer { two.close() }
        let oneNode = try #require(try one.waitForGamepadNode())
        let twoNode = try #require(try two.waitForGamepadNode())

        let guid = try Self.joystickGUID(node: oneNode)
        let game = try CProgram(Self.folder + "/game", arguments: [oneNode, twoNode])
        let status = game.waitForExit()
        #expect(status == 0, "stderr: \(game.standardError)")
        let name = VirtualDualSense.deviceName
        #expect(game.standardOutput == """
            player 1: \(name) (dualsense), SDL GUID \(guid)
            player 2: \(name) (dualsense), SDL GUID \(guid)
            frame 0: menu: focus moves: played
            frame 20: menu: game starts: played
            frame 30: player 1 presses the accelerator: hum starts: played
            frame 30: player 1's accelerator stiffens: played
            frame 90: player 2 is hit: rumble 150 ms: played
            frame 120: player 2 is hit again: played
            frame 150: player 1 lets go: hum stops
            frame 150: player 1's accelerator eases: played
            frame 170: game over: player 1 wins: played
            frame 170: game over: player 2 loses: played
            game over: 0 failure(s)

            """)

        let first = motorStates(one.waitForOutputReports(timeout: .milliseconds(300)) { _ in false })
        let second = motorStates(two.waitForOutputReports(timeout: .milliseconds(100)) { _ in false })
        // The menu's selection and success reach both pads: each pad starts with the same states.
        #expect(first.first == second.first && first.first != [0, 0])
        // The hit rumble, low 1 and high 0.4, on player 2's pad alone: [weak 0x66, strong 0xFF].
        #expect(second.contains([0x66, 0xFF]))
        #expect(!first.contains([0x66, 0xFF]))
        // The heavy impact at 0.7 on player 2's pad: 0.6875 in the engine's 1/16 steps, above the
        // DualSense profile's 5 % floor: (0.05 + 0.95 × 0.6875) × 0xFF = 0xB3 on both motors.
        #expect(second.contains([0xB3, 0xB3]), "player 2's states: \(second)")
        #expect(!first.contains([0xB3, 0xB3]))
        // The hum ramps with the throttle through levels that player 2's pad never shows.
        let humOnly = Set(first).subtracting(second).subtracting([[0, 0]])
        #expect(humOnly.count >= 5, "player 1's states: \(first)")
        // Freeing the engine leaves both pads silent.
        #expect(first.last == [0, 0])
        #expect(second.last == [0, 0])

        // Player 1's right trigger: feedback from zone 2 at strength 4 (mask 0x03FC, 3 at bit 3z:
        // 0x1B6DB6C0), both off when the player lets go, and both off again as the engine is freed.
        // Player 2's pad is never sent a trigger effect.
        func usbTriggerReport(flags: UInt8, right: [UInt8], left: [UInt8]) -> [UInt8] {
            var report = [UInt8](repeating: 0, count: 63)
            report[0] = 0x02
            report[1] = flags
            report[11..<22] = right[...]
            report[22..<33] = left[...]
            return report
        }
        let spring: [UInt8] = [0x21, 0xFC, 0x03, 0xC0, 0xB6, 0x6D, 0x1B, 0, 0, 0, 0]
        let off: [UInt8] = [0x05, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        let none = [UInt8](repeating: 0, count: 11)
        #expect(one.outputReports.filter { $0.setsLeftTrigger || $0.setsRightTrigger }.map(\.bytes) == [
            usbTriggerReport(flags: 0x04, right: spring, left: none),
            usbTriggerReport(flags: 0x0C, right: off, left: off),
            usbTriggerReport(flags: 0x0C, right: off, left: off),
        ])
        #expect(two.outputReports.allSatisfy { !$0.setsLeftTrigger && !$0.setsRightTrigger })
    }

    /// The README's C example, built exactly as written (the testbench extracts it), on a virtual
    /// DualSense: the whole heavy impact reaches the pad before the engine is freed.
    @Test func theReadmeCExampleIsFeltWholeBeforeItFreesTheEngine() throws {
        let pad = try VirtualDualSense()
        defer { pad.close() }
        _ = try #require(try pad.waitForGamepadNode())
        let program = try CProgram(Self.folder + "/readme", arguments: [])
        #expect(program.waitForExit() == 0, "stderr: \(program.standardError)")
        #expect(program.standardError == "")
        let reports = pad.waitForOutputReports { reports in
            motorStates(reports).contains { $0 != [0, 0] } && motorStates(reports).last == [0, 0]
        }.filter(\.setsMotors)
        let on = try #require(reports.firstIndex { [$0.weakMotor, $0.strongMotor] != [0, 0] })
        let off = try #require(reports[on...].firstIndex { [$0.weakMotor, $0.strongMotor] == [0, 0] })
        // The heavy impact is 160 ms; freeing the engine at once used to cut it after about 20 ms.
        let felt = reports[off].receivedAt.nanoseconds - reports[on].receivedAt.nanoseconds
        #expect(felt >= 150_000_000, "motors on for \(felt) ns: \(motorStates(reports))")
        #expect(reports[off...].allSatisfy { [$0.weakMotor, $0.strongMotor] == [0, 0] })
    }

    /// SDL's joystick backends, as the SDL2 example's kernel tests run them.
    enum SDLBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// Two USB pads: SDL reads their event nodes (SDL's HIDAPI cannot list a uhid device on USB).
        case evdevOverUSB
        /// Two Bluetooth pads with `SDL_JOYSTICK_HIDAPI=0`: SDL reads their event nodes.
        case evdevOverBluetooth
        /// Two Bluetooth pads with `SDL_JOYSTICK_HIDAPI=1`: SDL's PS5 driver reads their hidraw nodes.
        case hidapiOverBluetooth

        var testDescription: String { rawValue }

        var connection: VirtualDualSense.Connection { self == .evdevOverUSB ? .usb : .bluetooth }

        /// The guest runs no udev daemon: SDL watches /dev itself, as it does in a container.
        var environment: [String] {
            ["SDL_JOYSTICK_DISABLE_UDEV=1", "SDL_HIDAPI_JOYSTICK_DISABLE_UDEV=1",
             "SDL_JOYSTICK_HIDAPI=\(self == .hidapiOverBluetooth ? 1 : 0)"]
        }

        /// The node SDL names for `pad` (`SDL_JoystickPath`).
        func node(of pad: VirtualDualSense) throws -> String? {
            self == .hidapiOverBluetooth ? try pad.waitForHidrawNode() : try pad.waitForGamepadNode()
        }
    }

    /// The SDL2 example on two identical DualSense pads, under each of SDL's backends: SDL names
    /// each joystick's node (the event node, or the hidraw node under HIDAPI), the example finds the
    /// engine's device by it, and each pad gets its own round — joystick 0's first (its selection
    /// at frame 10, joystick 1's at frame 15), nothing on the wrong pad.
    @Test(arguments: SDLBackend.allCases)
    func theSDLExampleMatchesEachOfTwoIdenticalPadsByItsNode(backend: SDLBackend) throws {
        // Bluetooth pads send input reports, as SDL's PS5 driver expects of a connected controller.
        let interval: Duration? = backend.connection == .bluetooth ? .milliseconds(8) : nil
        let one = try VirtualDualSense(connection: backend.connection, inputReportInterval: interval)
        defer { one.close() }
        let two = try VirtualDualSense(connection: backend.connection, inputReportInterval: interval)
        defer { two.close() }
        let nodes = [try #require(try backend.node(of: one)), try #require(try backend.node(of: two))]
        let program = try CProgram(Self.folder + "/sdl2-game", arguments: [], environment: backend.environment)
        #expect(program.waitForExit() == 0, "stderr: \(program.standardError)")
        // "SDL joystick 0 "…" at /dev/input/event5: haptic device 1"
        let matched = program.standardOutput.split(separator: "\n").filter { $0.hasPrefix("SDL joystick ") }
        let paths = matched.compactMap { line in line.split(separator: " at ").last?.split(separator: ":").first.map(String.init) }
        try #require(paths.count == 2 && Set(paths) == Set(nodes), "nodes \(nodes), stdout: \(program.standardOutput)")
        let pads = paths.map { path in nodes[0] == path ? one : two }
        let rounds = pads.map { pad in
            pad.waitForOutputReports { reports in motorStates(reports).filter { $0 != [0, 0] }.count >= 2 && motorStates(reports).last == [0, 0] }
                .filter(\.setsMotors)
        }
        for (joystick, reports) in rounds.enumerated() {
            // A selection, then a rumble, each ending at zero: two rounds would be four.
            #expect(motorStates(reports).filter { $0 != [0, 0] }.count == 2, "joystick \(joystick): \(motorStates(reports))")
            #expect(motorStates(reports).last == [0, 0])
        }
        let firstOn = rounds.map { $0.first { [$0.weakMotor, $0.strongMotor] != [0, 0] }?.receivedAt.nanoseconds ?? .max }
        #expect(firstOn[0] < firstOn[1], "joystick 0's pad must play first: \(firstOn)")
        if backend == .hidapiOverBluetooth {
            for pad in [one, two] {
                // After the driver's probe (0x09, 0x20, 0x05), SDL's PS5 driver read the serial
                // number and firmware through hidraw, saw input reports and switched to enhanced
                // mode: it wrote its own report 0x31 (the lights), which sets no motor.
                let answered = pad.events.compactMap { event -> UInt8? in
                    if case .featureReportRequested(let id, answered: true) = event { id } else { nil }
                }
                #expect(answered == [0x09, 0x20, 0x05, 0x09, 0x20])
                #expect(pad.outputReports.contains { $0.reportID == 0x31 && $0.fieldsOffset == nil })
            }
        }
    }

    /// The SDL2 example matching by GUID, as with an SDL older than 2.24 (no SDL_JoystickPath):
    /// under each backend it computes the GUID SDL gives the pad there — evdev's, or HIDAPI's with
    /// its 'h' mark — and finds the one pad; twin pads share a GUID, so it refuses to guess.
    @Test(arguments: [SDLBackend.evdevOverBluetooth, .hidapiOverBluetooth])
    func theSDLExampleMatchesByGUIDOnlyWhenThePadIsTheOnlyOneWithIt(backend: SDLBackend) throws {
        let one = try VirtualDualSense(connection: .bluetooth, inputReportInterval: .milliseconds(8))
        defer { one.close() }
        let two = try VirtualDualSense(connection: .bluetooth, inputReportInterval: .milliseconds(8))
        defer { two.close() }
        _ = [try #require(try backend.node(of: one)), try #require(try backend.node(of: two))]
        let twins = try CProgram(Self.folder + "/sdl2-game", arguments: ["--by-guid"], environment: backend.environment)
        #expect(twins.waitForExit() == 0, "stderr: \(twins.standardError)")
        let refused = twins.standardOutput.split(separator: "\n").filter { $0.hasPrefix("SDL joystick ") }
        #expect(refused.count == 2 && refused.allSatisfy { $0.hasSuffix("without their nodes they cannot be told apart)") },
                "stdout: \(twins.standardOutput)")
        #expect(twins.standardOutput.contains("no joystick matched a haptic device: nothing to play on"))
        #expect((one.outputReports + two.outputReports).allSatisfy { !$0.setsMotors || [$0.weakMotor, $0.strongMotor] == [0, 0] })

        two.close()
        let single = try CProgram(Self.folder + "/sdl2-game", arguments: ["--by-guid"], environment: backend.environment)
        #expect(single.waitForExit() == 0, "stderr: \(single.standardError)")
        let matched = single.standardOutput.split(separator: "\n").filter { $0.hasPrefix("SDL joystick ") }
        // The node SDL read it from says which backend drove it, and so which GUID was compared.
        let node = backend == .hidapiOverBluetooth ? " at /dev/hidraw" : " at /dev/input/event"
        #expect(matched.count == 1 && matched.allSatisfy { $0.contains(node) && $0.contains(": haptic device ") },
                "stdout: \(single.standardOutput)")
        let round = one.waitForOutputReports { reports in
            motorStates(reports).filter { $0 != [0, 0] }.count >= 2 && motorStates(reports).last == [0, 0]
        }
        #expect(motorStates(round).filter { $0 != [0, 0] }.count == 2, "\(motorStates(round))")
    }

    @Test func aCProgramSeesItsPadLostMidPlayAndStopsCleanly() throws {
        let pad = try VirtualDualSense()
        defer { pad.close() }
        let node = try #require(try pad.waitForGamepadNode())
        let program = try CProgram(Self.folder + "/haptics_c_device_lost",
                                   arguments: [node, Self.folder + "/hum.ahap"])
        try #require(program.waitForLine("playing"), "stdout: \(program.standardOutput) stderr: \(program.standardError)")
        // The looping hum reaches the pad before it goes.
        let playing = motorStates(pad.waitForOutputReports { motorStates($0).contains { $0 != [0, 0] } })
        #expect(playing.contains { $0 != [0, 0] })
        try pad.unplug()
        program.send("unplugged\n")
        let status = program.waitForExit()
        #expect(status == 0, "stderr: \(program.standardError)")
        #expect(program.standardOutput == """
            opened: \(VirtualDualSense.deviceName) (dualsense)
            playing
            lost: \(VirtualDualSense.deviceName) (no haptic device)
            state: lost, id unchanged
            player finished: stopped first (-ECANCELED)
            device play: no haptic device
            device rumble: no haptic device
            player restart: no haptic device
            freed
            c-device-lost: 21 checks, 0 failed

            """)
    }

    /// The SDL joystick GUID SDL's evdev backend computes for the node (the pads share it).
    static func joystickGUID(node: String) throws -> String {
        let device = try EvdevDevice(path: node)
        defer { device.close() }
        return JoystickGUID(id: device.info.id, name: device.info.name).string
    }
}

/// A C program run by a test: stdin writable, stdout and stderr collected whenever the test waits.
/// Spawned with posix_spawn and read with poll(2) (no run loop: the guest has none to offer).
final class CProgram {
    private let pid: pid_t
    private var input: Int32
    private let output: Int32
    private let errors: Int32
    private var out: [UInt8] = []
    private var err: [UInt8] = []
    private var status: Int32?

    /// Starts `path` with `arguments`, in its own folder, with this process's environment plus
    /// `environment` (`NAME=value` entries, which win over inherited ones).
    init(_ path: String, arguments: [String], environment: [String] = []) throws {
        var inPipe: [Int32] = [0, 0], outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
        guard pipe(&inPipe) == 0, pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { throw CProgramError.pipe(errno) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for descriptor in inPipe + outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, descriptor) }
        // The C example finds its pattern next to itself: the shell changes folder, then becomes it.
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        let argv = (["/bin/sh", "-c", #"cd "$0" && exec "$@""#, folder, path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var child: pid_t = 0
        var inherited: [String] = []
        var entry = environ
        while let variable = entry.pointee {
            inherited.append(String(cString: variable))
            entry += 1
        }
        let names = Set(environment.map { $0.prefix { $0 != "=" } })
        let envp = (inherited.filter { !names.contains($0.prefix { $0 != "=" }) } + environment).map { strdup($0) } + [nil]
        defer { for variable in envp { free(variable) } }
        let result = posix_spawn(&child, "/bin/sh", &actions, nil, argv, envp)
        close(inPipe[0])
        close(outPipe[1])
        close(errPipe[1])
        guard result == 0 else {
            close(inPipe[1]); close(outPipe[0]); close(errPipe[0])
            throw CProgramError.spawn(path: path, errno: result)
        }
        pid = child
        input = inPipe[1]
        output = outPipe[0]
        errors = errPipe[0]
    }

    deinit {
        if status == nil { kill(pid, SIGKILL); _ = waitForExit() }
        if input >= 0 { close(input) }
        close(output)
        close(errors)
    }

    var standardOutput: String { String(decoding: out, as: UTF8.self) }
    var standardError: String { String(decoding: err, as: UTF8.self) }

    /// Reads what the program wrote, waiting up to `milliseconds` for something; false at the end of both.
    private func pump(milliseconds: Int32) -> Bool {
        var descriptors = [pollfd(fd: output, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: errors, events: Int16(POLLIN), revents: 0)]
        guard poll(&descriptors, 2, milliseconds) > 0 else { return true }
        var open = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        for index in 0..<2 where descriptors[index].revents != 0 {
            let count = read(descriptors[index].fd, &buffer, buffer.count)
            if count > 0 {
                if index == 0 { out += buffer[..<count] } else { err += buffer[..<count] }
                open = true
            }
        }
        return open || descriptors.contains { $0.revents == 0 }
    }

    /// Waits up to `timeout` for `line` on stdout.
    func waitForLine(_ line: String, timeout: Duration = .seconds(20)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if standardOutput.split(separator: "\n").contains(Substring(line)) { return true }
            if !pump(milliseconds: 50) { break }
        }
        return standardOutput.split(separator: "\n").contains(Substring(line))
    }

    /// Sends `signal` to the program (SIGKILL: it ends at once, cleaning up nothing), then reaps
    /// it; its status (128 + the signal when it killed it).
    func signal(_ signal: Int32) -> Int32 {
        if status == nil { Glibc.kill(pid, signal) }
        return waitForExit()
    }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
    }

    /// Reads everything the program writes until it ends (killed after `timeout`); its exit status.
    func waitForExit(timeout: Duration = .seconds(60)) -> Int32 {
        if let status { return status }
        let deadline = ContinuousClock.now + timeout
        while pump(milliseconds: 100) {
            if ContinuousClock.now >= deadline { kill(pid, SIGKILL); break }
        }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS, spelled out: the macros do not reach Swift.
        let ended: Int32 = (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
        status = ended
        return ended
    }
}

enum CProgramError: Error {
    case pipe(Int32)
    case spawn(path: String, errno: Int32)
}
