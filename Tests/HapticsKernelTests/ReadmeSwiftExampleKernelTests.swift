import Glibc
import HapticsPatterns
import HapticsRendering
import HapticsVirtualDevices
import Testing

/// The README's Swift quick start on a real kernel, as a user runs it: the `ReadmeExamples`
/// executable, whose `main.swift` is the README's first Swift block exactly as written (see
/// Tools/generate-readme-examples), run as a process of its own against a virtual DualSense bound by
/// hid-playstation, every output report the pad receives read back.
@Suite("The README's Swift example on a DualSense", .requiresKernelTestbench, .serialized)
struct ReadmeSwiftExampleKernelTests {
    /// Where the testbench put the Swift programs.
    static let folder = getenv("HAPTICS_SWIFT_PROGRAMS").map { String(cString: $0) } ?? "/opt/haptics/swift"

    /// The DualSense's motor states for `feedback` as the engine renders it for this pad, each with
    /// how long it lasts: [weak / 256, strong / 256], as hid-playstation sends them.
    static func states(of feedback: Feedback) -> [(state: [UInt8], nanoseconds: Int64)] {
        var states: [(state: [UInt8], offset: Int64)] = []
        for timed in Renderer(profile: .dualSense).render(feedback.canonicalPattern).commands {
            var state: [UInt8] = [0, 0]
            if case let .rumble(strong, weak) = timed.command { state = [UInt8(weak >> 8), UInt8(strong >> 8)] }
            if states.last?.state != state { states.append((state, timed.offsetNanoseconds)) }
        }
        return states.indices.map { index in
            (states[index].state, index + 1 < states.count ? states[index + 1].offset - states[index].offset : 0)
        }
    }

    /// The heavy impact at 0.7 (played as 0.6875, the engine's nearest 1/16 step), then the success
    /// notification: every level of both in order, the impact ended before the notification began,
    /// each long level on for about as long as the engine rendered it, and the last state zero, all
    /// before the process ends.
    @Test func theReadmeSwiftExampleIsFeltWholeBeforeItExits() throws {
        let pad = try VirtualDualSense()
        defer { pad.close() }
        _ = try #require(try pad.waitForGamepadNode())
        let impact = Self.states(of: .impact(.heavy, intensity: 0.6875))
        let success = Self.states(of: .notification(.success))
        try #require(impact.map(\.state) == [[0xB3, 0xB3], [0, 0]] && success.last?.state == [0, 0])

        let program = try CProgram(Self.folder + "/readme", arguments: [])
        #expect(program.waitForExit() == 0, "stderr: \(program.standardError)")
        #expect(program.standardOutput == "")
        #expect(program.standardError == "")
        // Everything the pad got by the time the process ended, and anything still on its way.
        let reports = pad.waitForOutputReports(timeout: .milliseconds(300)) { _ in false }.filter(\.setsMotors)
        var changes: [(state: [UInt8], at: Int64)] = []
        for report in reports where changes.last?.state != [report.weakMotor, report.strongMotor] {
            changes.append(([report.weakMotor, report.strongMotor], report.receivedAt.nanoseconds))
        }
        let timeline = changes.map { "\($0.state) at \(($0.at - changes[0].at) / 1_000_000) ms" }

        // hid-playstation sends the latest motor state from a work queue: when the emulated machine
        // stalls, a short silence between two levels (the notification's 40 ms gap) can be folded
        // into one report. The levels themselves, and their order, always arrive.
        let levels = (impact + success).filter { $0.state != [0, 0] }
        let on = changes.indices.filter { changes[$0].state != [0, 0] }
        try #require(on.map { changes[$0].state } == levels.map(\.state), "motor states: \(timeline)")
        #expect(changes.last?.state == [0, 0], "motor states: \(timeline)")
        #expect(changes[on[0] + 1].state == [0, 0], "the impact must end before the notification: \(timeline)")

        // The impact (160 ms) and the notification's strong pulse (160 ms), each from the report that
        // starts it to the next. Cut short by the next play, the impact lasted about 30 ms; left to
        // the process's exit, the pulse would last about 450 ms. Under TCG on a loaded host a change
        // can reach the pad tens of milliseconds late, and the process's first play most (the
        // emulator translates the engine's code as it first runs; the stop keeps its time): the
        // impact was seen on for as little as 100 ms of its 160.
        for (level, index) in zip(levels, on) where level.nanoseconds >= 100_000_000 && index + 1 < changes.count {
            let felt = changes[index + 1].at - changes[index].at
            #expect((level.nanoseconds / 2)...(level.nanoseconds + 100_000_000) ~= felt,
                    "\(level.state) on for \(felt) ns of \(level.nanoseconds): \(timeline)")
        }
    }
}
