import CEvdev
import Glibc
import HapticsDevices
import HapticsSystem

/// Effects played straight on an event node, without the engine or a profile: what `rumble`,
/// `stop`, `gain` and `test` do, as `fftest` would.
struct ForceFeedbackBench {
    /// The open device.
    let device: EvdevDevice

    /// What the kernel did with one effect: the calls it answered (upload, erase), the events it
    /// only took (play, stop, gain), and the first call it refused.
    struct Outcome: Equatable {
        var accepted: [String] = []
        var written: [String] = []
        var failure: SystemCallError?

        /// `upload accepted, play written, stop written, erase accepted`, or the refusal.
        var summary: String {
            if let failure { return "rejected: \(failure.call): \(failure.errno)" }
            return (accepted.prefix(1).map { "\($0) accepted" } + written.map { "\($0) written" }
                + accepted.dropFirst().map { "\($0) accepted" }).joined(separator: ", ")
        }
    }

    /// Opens the device `argument` names (a path or part of a name), or without one the first
    /// force-feedback device this process may open.
    static func open(_ argument: String?, context: CommandContext) throws(CommandLineError) -> ForceFeedbackBench {
        let path: String
        if let argument {
            path = try DeviceLookup.find(argument, context: context).path
        } else {
            let directory = DeviceLookup.directory(context)
            try DeviceLookup.checkReadable(directory)
            let found = DeviceCatalog.discover(directory: directory)
            guard let first = found.first(where: { $0.accessError == nil }) else {
                let denied = found.first.flatMap(\.accessError).map { " (\($0.description))" } ?? ""
                throw .failure("no force-feedback device this user may open in \(PrintableText.escaped(directory))\(denied); 'haptics devices' says why")
            }
            path = first.path
        }
        do {
            return ForceFeedbackBench(device: try EvdevDevice(path: path))
        } catch {
            throw .failure(error.description)
        }
    }

    /// `name (path)` for messages.
    var title: String { "\(PrintableText.escaped(device.info.name)) (\(PrintableText.escaped(device.path)))" }

    func close() { device.close() }

    /// A rumble effect: `strong` drives the heavy, low-frequency motor and `weak` the light,
    /// high-frequency one (0…1 each), for `milliseconds` (0: until stopped).
    static func rumble(strong: Double, weak: Double, milliseconds: Int) -> ff_effect {
        var effect = ff_effect()
        effect.id = -1
        effect.type = UInt16(FF_RUMBLE)
        effect.u.rumble.strong_magnitude = magnitude(strong)
        effect.u.rumble.weak_magnitude = magnitude(weak)
        effect.replay.length = UInt16(clamping: milliseconds)
        return effect
    }

    /// A periodic effect of `waveform` with a 100 ms period at `level` (0…1).
    static func periodic(_ waveform: ForceFeedbackCode, level: Double, milliseconds: Int) -> ff_effect {
        var effect = ff_effect()
        effect.id = -1
        effect.type = UInt16(FF_PERIODIC)
        effect.u.periodic.waveform = waveform.rawValue
        effect.u.periodic.period = 100
        effect.u.periodic.magnitude = Int16(clamping: Int(magnitude(level)) / 2)
        effect.replay.length = UInt16(clamping: milliseconds)
        return effect
    }

    /// A constant force at `level` (0…1) toward the default direction.
    static func constant(level: Double, milliseconds: Int) -> ff_effect {
        var effect = ff_effect()
        effect.id = -1
        effect.type = UInt16(FF_CONSTANT)
        effect.u.constant.level = Int16(clamping: Int(magnitude(level)) / 2)
        effect.replay.length = UInt16(clamping: milliseconds)
        return effect
    }

    static func magnitude(_ level: Double) -> UInt16 { UInt16((min(max(level, 0), 1) * 65_535).rounded()) }

    /// Uploads `effect`, plays it for `duration` (Ctrl-C ends it early), stops and erases it;
    /// erased even when playing failed.
    func play(_ effect: ff_effect, for duration: Duration) -> Outcome {
        var effect = effect
        var outcome = Outcome()
        do {
            try device.descriptor.uploadEffect(&effect)
            outcome.accepted.append("upload")
        } catch {
            outcome.failure = error
            return outcome
        }
        do {
            try device.descriptor.writeInputEvent(type: UInt16(EV_FF), code: UInt16(effect.id), value: 1)
            outcome.written.append("play")
            Self.wait(duration)
            try device.descriptor.writeInputEvent(type: UInt16(EV_FF), code: UInt16(effect.id), value: 0)
            outcome.written.append("stop")
        } catch {
            outcome.failure = error
        }
        do {
            try device.descriptor.eraseEffect(id: effect.id)
            outcome.accepted.append("erase")
        } catch {
            outcome.failure = outcome.failure ?? error
        }
        return outcome
    }

    /// Sleeps `duration`, in steps, returning early on SIGINT or SIGTERM.
    static func wait(_ duration: Duration) {
        let end = MonotonicInstant.now + duration
        while !InterruptSignal.isPending {
            let now = MonotonicInstant.now
            guard now < end else { return }
            SystemMonotonicClock.sleep(until: min(end, now + .milliseconds(10)))
        }
    }

    /// Writes a stop for every slot of the device: whoever uploaded them (another process too),
    /// the effects playing stop. Returns how many slots were written.
    func stopAll() throws(CommandLineError) -> Int {
        for slot in 0..<device.info.slots {
            do {
                try device.descriptor.writeInputEvent(type: UInt16(EV_FF), code: UInt16(slot), value: 0)
            } catch {
                throw .failure("\(PrintableText.escaped(device.path)): \(error)")
            }
        }
        return device.info.slots
    }

    /// Writes the device's gain (`FF_GAIN`, 0…1 of full).
    func setGain(_ level: Double) throws(SystemCallError) {
        try device.descriptor.writeInputEvent(type: UInt16(EV_FF), code: UInt16(FF_GAIN), value: Int32(Self.magnitude(level)))
    }

    /// Uploads `effect` into every slot until the kernel refuses one, then erases them all:
    /// how many it took, and how it refused the next (nil when every slot took one).
    func fillSlots(with effect: ff_effect) -> (filled: Int, refusal: SystemCallError?) {
        var ids: [Int16] = []
        var refusal: SystemCallError?
        // One more than the device says it holds: the kernel's answer to that one is the check.
        for _ in 0...device.info.slots {
            var copy = effect
            do {
                try device.descriptor.uploadEffect(&copy)
                ids.append(copy.id)
            } catch {
                refusal = error
                break
            }
        }
        for id in ids { try? device.descriptor.eraseEffect(id: id) }
        return (ids.count, refusal)
    }
}

/// How the bench commands read their numbers.
enum BenchArgument {
    /// `0.5` or `50%`: a level from 0 to 1.
    static func level(_ text: String, what: String) throws(CommandLineError) -> Double {
        let value: Double?
        if text.hasSuffix("%") { value = Double(text.dropLast()).map { $0 / 100 } } else { value = Double(text) }
        guard let value, value >= 0, value <= 1 else {
            throw .usage("\(what) must be from 0 to 1 or 0% to 100%, not '\(text)'")
        }
        return value
    }

    /// `500ms`, `2s`, `1.5s` or `500` (milliseconds): from 1 ms to 60 s.
    static func duration(_ text: String) throws(CommandLineError) -> Duration {
        var number = Substring(text)
        var scale = 1.0
        if number.hasSuffix("ms") {
            number = number.dropLast(2)
        } else if number.hasSuffix("s") {
            number = number.dropLast()
            scale = 1000
        }
        guard let value = Double(number), value.isFinite, value * scale >= 1, value * scale <= 60_000 else {
            throw .usage("--for needs a time from 1ms to 60s (500ms, 2s), not '\(text)'")
        }
        return .nanoseconds(Int64((value * scale * 1e6).rounded()))
    }
}
