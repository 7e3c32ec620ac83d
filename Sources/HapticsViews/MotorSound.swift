import Glibc
import HapticsAudio
import HapticsDevices
import HapticsSystem

/// Makes a haptic signal audible: synthesizes a ``MotorTimeline`` as mono 16-bit PCM, so anyone can
/// listen to a pattern without a device.
///
/// Each motor becomes a sine tone whose loudness follows the motor's level and whose pitch follows
/// its character:
/// - the strong rumble motor (a large, slow ERM) hums at ``strongFrequency`` (70 Hz),
/// - the weak rumble motor (a small, fast ERM) buzzes at ``weakFrequency`` (210 Hz),
/// - a periodic effect plays at 1 / period — a 20 ms period is 50 Hz. Frequencies below
///   ``lowestFrequency`` (60 Hz, where small speakers stop) are raised by whole octaves until they
///   reach it, and above ``highestFrequency`` lowered by octaves, so the pitch class is kept;
///   a period of 0 plays at ``weakFrequency``,
/// - a constant force has no vibration of its own; its size is heard at ``strongFrequency``.
///
/// Level changes are ramped linearly (a full swing takes ``ramp``) so steps do not click, and each
/// tone's phase runs on continuously across level and pitch changes. Motors are summed and scaled by
/// ``headroom`` / motor count, so all motors at full level never clip.
public struct MotorSound: Sendable, Hashable {
    /// Samples per second.
    public var sampleRate: Int
    /// Pitch of the strong rumble motor, hertz.
    public var strongFrequency: Double
    /// Pitch of the weak rumble motor, hertz.
    public var weakFrequency: Double
    /// Periodic effects below this pitch are raised by octaves, hertz.
    public var lowestFrequency: Double
    /// Periodic effects above this pitch are lowered by octaves, hertz.
    public var highestFrequency: Double
    /// Time a level takes to swing from 0 to 1.
    public var ramp: Duration
    /// Peak amplitude of all motors together at full level (0…1 of full scale).
    public var headroom: Double

    /// Creates a synthesizer; the defaults suit listening on ordinary speakers at 48 kHz.
    public init(
        sampleRate: Int = 48_000,
        strongFrequency: Double = 70,
        weakFrequency: Double = 210,
        lowestFrequency: Double = 60,
        highestFrequency: Double = 2_000,
        ramp: Duration = .milliseconds(5),
        headroom: Double = 0.9
    ) {
        precondition(sampleRate > 0, "sample rate must be positive, got \(sampleRate)")
        precondition(lowestFrequency > 0 && highestFrequency >= lowestFrequency * 2,
                     "the audible range must span at least an octave")
        self.sampleRate = sampleRate
        self.strongFrequency = strongFrequency
        self.weakFrequency = weakFrequency
        self.lowestFrequency = lowestFrequency
        self.highestFrequency = highestFrequency
        self.ramp = ramp
        self.headroom = headroom
    }

    /// The pitch a periodic effect of `periodMilliseconds` plays at, hertz.
    public func frequency(periodMilliseconds: Int) -> Double {
        guard periodMilliseconds > 0 else { return weakFrequency }
        var frequency = 1_000 / Double(periodMilliseconds)
        while frequency < lowestFrequency { frequency *= 2 }
        while frequency > highestFrequency { frequency /= 2 }
        return frequency
    }

    /// The number of samples synthesized for `timeline`: its duration rounded up, plus one ramp so the
    /// last fade-out completes.
    public func sampleCount(for timeline: MotorTimeline) -> Int {
        let rate = Int64(sampleRate)
        return Int((timeline.duration.nanoseconds * rate + 999_999_999) / 1_000_000_000) + rampSamples
    }

    /// Synthesizes `timeline` as mono samples at ``sampleRate``; sample `n` is at `n / sampleRate` seconds.
    public func synthesize(_ timeline: MotorTimeline) -> [Int16] {
        let count = sampleCount(for: timeline)
        let motors = timeline.motors
        guard !motors.isEmpty else { return Array(repeating: 0, count: count) }

        let slew = 1 / Double(rampSamples)
        let scale = headroom / Double(motors.count) * Double(Int16.max)
        var amplitudes = Array(repeating: 0.0, count: motors.count)
        var phases = Array(repeating: 0.0, count: motors.count)
        var frequencies = motors.map { fixedFrequency($0) ?? weakFrequency }
        var stepIndex = 0
        // Sample times in whole nanoseconds from the origin.
        let start = timeline.start.nanoseconds
        let end = timeline.end.nanoseconds
        let stepTimes = timeline.steps.map(\.time.nanoseconds)
        var samples = [Int16]()
        samples.reserveCapacity(count)

        for index in 0..<count {
            let time = start + Int64(index) * 1_000_000_000 / Int64(sampleRate)
            while stepIndex + 1 < stepTimes.count && stepTimes[stepIndex + 1] <= time {
                stepIndex += 1
            }
            // Past the end the actuator is silent, whatever the last step says.
            let levels = time < end ? timeline.steps[stepIndex].levels : .silent
            var value = 0.0
            for (slot, motor) in motors.enumerated() {
                let target = levels.value(of: motor)
                amplitudes[slot] += min(max(target - amplitudes[slot], -slew), slew)
                // A silent periodic effect keeps its last pitch so its fade-out does not glide.
                if motor == .magnitude && levels.magnitude > 0 {
                    frequencies[slot] = frequency(periodMilliseconds: levels.periodMilliseconds)
                }
                value += amplitudes[slot] * sin(2 * Double.pi * phases[slot])
                phases[slot] += frequencies[slot] / Double(sampleRate)
                if phases[slot] >= 1 { phases[slot] -= 1 }
            }
            samples.append(Int16((value * scale).rounded(.toNearestOrAwayFromZero)))
        }
        return samples
    }

    /// Synthesizes `timeline` as a complete WAV file (RIFF/WAVE, PCM, 16-bit, mono).
    public func synthesizeWAV(_ timeline: MotorTimeline) -> [UInt8] {
        WAVWriter.encode(samples: synthesize(timeline), sampleRate: sampleRate, channelCount: 1)
    }

    /// Samples in one full ramp (at least one).
    var rampSamples: Int {
        max(1, Int(ramp.nanoseconds * Int64(sampleRate) / 1_000_000_000))
    }

    /// The pitch of motors whose pitch does not depend on the command.
    func fixedFrequency(_ motor: MotorTimeline.Motor) -> Double? {
        switch motor {
        case .strong, .level: return strongFrequency
        case .weak: return weakFrequency
        case .magnitude: return nil
        }
    }
}
