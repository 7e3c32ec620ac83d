import CEvdev
import Glibc
import HapticsDevices
import HapticsRendering
import HapticsScheduler
import HapticsSystem
import HapticsVirtualDevices

/// Shared plumbing of the evdev actuator's kernel tests.
enum EvdevKernel {
    static let ms: Int64 = 1_000_000
    static let channel = ChannelID(rawValue: 0)

    /// Calls `perform` for `command` with the system clock's reading as deadline and time.
    static func perform(_ actuator: EvdevActuator, _ command: ActuatorCommand) {
        let now = SystemMonotonicClock().now()
        actuator.perform(command, channel: channel, deadline: now, now: now)
    }

    /// What the sink receives for an upload of a rumble level by the actuator: the kernel id and the
    /// safety-net length (the level's longest hold rounded up to ms, plus the 100 ms margin).
    static func rumbleUpload(id: Int16, strong: UInt16, weak: UInt16, holdNanoseconds: Int64) -> UInputForceFeedbackEvent {
        let length = UInt16((holdNanoseconds + ms - 1) / ms + 100)
        return .upload(UploadedForceFeedbackEffect(type: UInt16(FF_RUMBLE), id: id, direction: 0, replayLength: length,
                                                   replayDelay: 0, parameters: .rumble(strongMagnitude: strong, weakMagnitude: weak)),
                       previous: nil)
    }

    /// The distinct non-silent levels of a program in order of first appearance, with their longest hold.
    static func levels(of program: Program) -> [(command: ActuatorCommand, hold: Int64)] {
        var levels: [(command: ActuatorCommand, hold: Int64)] = []
        for (index, timed) in program.commands.enumerated() where !timed.command.isSilent {
            let end = index + 1 < program.commands.count ? program.commands[index + 1].offsetNanoseconds : program.durationNanoseconds
            if let existing = levels.firstIndex(where: { $0.command == timed.command }) {
                levels[existing].hold = max(levels[existing].hold, end - timed.offsetNanoseconds)
            } else {
                levels.append((timed.command, end - timed.offsetNanoseconds))
            }
        }
        return levels
    }

    /// Effects alive on the device after each record (uploads of new effects minus erases): the
    /// largest value seen and the value at the end.
    static func liveEffects(_ records: [UInputForceFeedbackRecord]) -> (maximum: Int, final: Int) {
        var live = Set<Int16>()
        var maximum = 0
        for record in records {
            switch record.event {
            case let .upload(effect, previous: nil): live.insert(effect.id)
            case let .erase(id): live.remove(id)
            default: break
            }
            maximum = max(maximum, live.count)
        }
        return (maximum, live.count)
    }

    /// Write system calls the calling thread has made so far (`syscw` of /proc/thread-self/io: the
    /// kernel's own count, which ioctls do not touch).
    static func threadWriteCalls() -> Int? {
        let descriptor = open("/proc/thread-self/io", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer.prefix(count), as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix("syscw:") {
            return Int(line.dropFirst(6).trimmingCharacters(in: " "))
        }
        return nil
    }

    /// Runs `body` on a new thread whose credentials are dropped to `user`/`group` (only that thread:
    /// raw `setresuid`), so a test running as root meets the permission checks of an ordinary user.
    /// Returns whether the credentials were dropped and `body` ran.
    static func asUnprivilegedUser(user: uid_t = 65_534, group: gid_t = 65_534, _ body: @escaping @Sendable () -> Void) -> Bool {
        let run = UnprivilegedRun(body, user: user, group: group)
        var thread = pthread_t()
        let context = Unmanaged.passRetained(run).toOpaque()
        let status = pthread_create(&thread, nil, { context in
            let run = Unmanaged<UnprivilegedRun>.fromOpaque(context!).takeRetainedValue()
            guard CEvdev_setThreadCredentials(run.user, run.group) == 0 else { return nil }
            run.body()
            run.didRun = true
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<UnprivilegedRun>.fromOpaque(context).release()
            return false
        }
        pthread_join(thread, nil)
        return run.didRun
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> Substring {
        var trimmed = self
        while let first = trimmed.first, set.contains(first) { trimmed = trimmed.dropFirst() }
        while let last = trimmed.last, set.contains(last) { trimmed = trimmed.dropLast() }
        return trimmed
    }
}
