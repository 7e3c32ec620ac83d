import HapticsPatterns

/// Renders device-independent patterns into programs for one device profile.
///
/// Rendering is deterministic: the same pattern and profile always give the same program.
/// It runs on the control side (it allocates); only `DeviceProfile.command(intensity:sharpness:)`
/// is meant for the realtime thread. The rules, in order (docs/rendering.md has the reasons):
///
/// 1. Only haptic events are rendered; audio events are ignored here.
/// 2. Time is cut into ticks of the profile's `controlInterval`, counted from the pattern's time
///    zero. Event onsets and ends snap to the nearest tick; every command lies on a tick.
/// 3. A transient is a flat pulse at its intensity and sharpness, lasting
///    `max(profile.minimumPulse, nominalTransientLength)` rounded up to whole ticks (at least one).
/// 4. A continuous event is sampled in the middle of each of its ticks through its envelope
///    (see `ContinuousEnvelope`); an event shorter than the minimum pulse is stretched to it.
/// 5. Dynamic parameters and curves apply at each sample: intensity control multiplies, sharpness
///    control adds; attack, decay and release controls scale the times by `10 ^ value`, taken at
///    the event's onset.
/// 6. Overlapping events combine per tick: intensities add up and saturate at 1 (the way the
///    kernel mixes playing effects, and so a transient on top of a continuous event is still felt),
///    and the sharpness is the intensity-weighted mean of the events sounding in that tick. Every command is therefore
///    exactly `profile.command(intensity:sharpness:)` of its stored intensity and sharpness, so the
///    scheduler can re-map it with dynamic parameters at play time.
/// 7. A silent tick becomes `.stop`. A command is emitted only when it differs from the previous
///    one, and the program always ends with a `.stop` at the end of the last tick.
/// 8. With `profile.overdrive > 0`, each onset from silence is driven at full intensity for that
///    long (rounded up to whole ticks), keeping the sharpness.
///
/// Offsets count from the *send start*, which is `leadTime` (the profile's rise time) before the
/// felt time zero; see `Program`.
public struct Renderer: Sendable {
    /// The device the programs are rendered for.
    public var profile: DeviceProfile

    /// The nominal length of a transient before the profile's minimum pulse applies: 20 ms, the
    /// longest single impulse that still feels like a tap rather than a buzz.
    public static let nominalTransientLength: Int64 = 20_000_000

    /// Creates a renderer for a device profile.
    public init(profile: DeviceProfile) {
        self.profile = profile
    }

    /// Renders a pattern into a program of timed commands for this renderer's profile.
    public func render(_ pattern: Pattern) -> Program {
        let interval = max(profile.controlInterval, 1)
        let controls = DynamicControls(pattern)
        var timeline = TickTimeline()

        let events = pattern.events.enumerated()
            .filter { $0.element.kind.isHaptic && $0.element.time.isFinite && $0.element.time >= 0 }
            .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
        for event in events {
            switch event.kind {
            case .hapticTransient:
                addTransient(event, interval: interval, controls: controls, to: &timeline)
            case .hapticContinuous:
                addContinuous(event, interval: interval, controls: controls, to: &timeline)
            case .audioCustom, .audioContinuous:
                continue
            }
        }
        return emit(timeline, interval: interval)
    }

    private func addTransient(
        _ event: PatternEvent, interval: Int64, controls: DynamicControls, to timeline: inout TickTimeline
    ) {
        guard let onset = Self.nearestTick(seconds: event.time, interval: interval) else { return }
        let length = max(profile.minimumPulse, Self.nominalTransientLength)
        let ticks = max(1, Self.ceilingDivide(length, interval))
        let intensity = DynamicControls.clamp(event.parameters.resolvedIntensity, 0, 1)
            * controls.intensityScale(at: event.time)
        let sharpness = DynamicControls.clamp(
            event.parameters.resolvedSharpness + controls.sharpnessShift(at: event.time), 0, 1)
        for tick in onset..<(onset + ticks) {
            timeline.add(intensity: intensity, sharpness: sharpness, at: tick)
        }
    }

    private func addContinuous(
        _ event: PatternEvent, interval: Int64, controls: DynamicControls, to timeline: inout TickTimeline
    ) {
        let duration = event.resolvedDuration
        guard duration > 0, duration.isFinite,
            let onset = Self.nearestTick(seconds: event.time, interval: interval),
            let end = Self.nearestTick(seconds: event.time + duration, interval: interval)
        else { return }
        let ticks = max(1, end - onset, Self.ceilingDivide(profile.minimumPulse, interval))
        let intervalSeconds = Double(interval) / 1e9
        let parameters = event.parameters
        let envelope = ContinuousEnvelope(
            duration: max(duration, Double(ticks) * intervalSeconds),
            attack: Self.nonNegative(parameters.resolvedAttackTime)
                * controls.timeScale(.hapticAttackTimeControl, at: event.time),
            decay: Self.nonNegative(parameters.resolvedDecayTime)
                * controls.timeScale(.hapticDecayTimeControl, at: event.time),
            release: Self.nonNegative(parameters.resolvedReleaseTime)
                * controls.timeScale(.hapticReleaseTimeControl, at: event.time),
            sustained: parameters.resolvedSustained
        )
        let baseIntensity = DynamicControls.clamp(parameters.resolvedIntensity, 0, 1)
        let baseSharpness = DynamicControls.clamp(parameters.resolvedSharpness, 0, 1)
        for index in 0..<ticks {
            // The middle of the tick stands for the whole tick: an attack from 0 is felt in its
            // first tick and a release still moves the motor in its last one.
            let local = (Double(index) + 0.5) * intervalSeconds
            let time = event.time + local
            let intensity = baseIntensity * envelope.gain(at: local) * controls.intensityScale(at: time)
            let sharpness = DynamicControls.clamp(baseSharpness + controls.sharpnessShift(at: time), 0, 1)
            timeline.add(intensity: intensity, sharpness: sharpness, at: onset + Int64(index))
        }
    }

    private func emit(_ timeline: TickTimeline, interval: Int64) -> Program {
        var commands: [TimedCommand] = []
        var current = ActuatorCommand.stop
        var previousTick: Int64?
        let kickTicks = profile.overdrive > 0 ? max(1, Self.ceilingDivide(profile.overdrive, interval)) : 0
        var kickLeft: Int64 = 0

        func send(_ command: ActuatorCommand, intensity: Float, sharpness: Float, tick: Int64) {
            guard command != current else { return }
            commands.append(TimedCommand(offset: tick * interval, intensity: intensity, sharpness: sharpness, command: command))
            current = command
        }

        for (tick, level) in timeline.sortedLevels() {
            if let previous = previousTick, tick != previous + 1 {
                send(.stop, intensity: 0, sharpness: 0, tick: previous + 1)
                kickLeft = 0
            }
            previousTick = tick
            var intensity = Float(level.intensity)
            let sharpness = Float(level.sharpness)
            var command = profile.command(intensity: intensity, sharpness: sharpness)
            if command.isSilent {
                kickLeft = 0
                send(.stop, intensity: 0, sharpness: 0, tick: tick)
                continue
            }
            if current == .stop { kickLeft = kickTicks }
            if kickLeft > 0 {
                kickLeft -= 1
                intensity = 1
                command = profile.command(intensity: intensity, sharpness: sharpness)
            }
            send(command, intensity: intensity, sharpness: sharpness, tick: tick)
        }

        let endTick = previousTick.map { $0 + 1 } ?? 0
        if current != .stop || commands.isEmpty {
            commands.append(TimedCommand(offset: endTick * interval, intensity: 0, sharpness: 0, command: .stop))
        }
        return Program(
            profileName: profile.name,
            commands: commands,
            duration: commands[commands.count - 1].offset,
            leadTime: max(0, profile.riseTime)
        )
    }

    /// The tick nearest to a time in seconds (halves round up), or `nil` when out of range.
    static func nearestTick(seconds: Double, interval: Int64) -> Int64? {
        let nanoseconds = (seconds * 1e9).rounded()
        // Ticks must stay representable as nanosecond offsets.
        guard nanoseconds.isFinite, nanoseconds >= 0, nanoseconds < 9.0e18 else { return nil }
        return (Int64(nanoseconds) + interval / 2) / interval
    }

    static func ceilingDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        guard value > 0 else { return 0 }
        return (value + divisor - 1) / divisor
    }

    static func nonNegative(_ value: Double) -> Double {
        value > 0 && value.isFinite ? value : 0
    }
}
