import HapticsPatterns
import HapticsSystem

/// Renders device-independent patterns into programs for one device profile.
///
/// Rendering is deterministic: the same pattern and profile always give the same program.
/// It runs on the control side (it allocates); only `DeviceProfile.command(intensity:sharpness:)`
/// is meant for the realtime thread. The rules, in order (docs/internals/rendering.md has the reasons):
///
/// 1. Only haptic events are rendered; audio events are ignored here.
/// 2. Time is cut into ticks of the profile's `controlInterval`, counted from the pattern's time
///    zero. Event onsets and ends snap to the nearest tick; every command lies on a tick.
/// 3. A transient is a flat pulse at its intensity and sharpness, lasting
///    `max(profile.minimumPulse, nominalTransientLength)` rounded up to whole ticks (at least one,
///    and no further than rule 5 allows).
/// 4. A continuous event is sampled in the middle of each of its ticks through its envelope
///    (see `EventEnvelope`; attack, decay and release times are read as seconds); an event
///    shorter than the minimum pulse is stretched to it.
/// 5. Pulses that are separate in the pattern stay separate: where the pattern falls silent (an
///    onset later than every earlier haptic event's end, by even a nanosecond), the tick before
///    that onset's tick is silent. Events before the gap are cut short to leave it, even below
///    the minimum pulse, and onsets never move; only when the two onsets land on the same or
///    neighbouring ticks is there no room, and the earlier event keeps its one tick (see
///    `PlacedEvent`).
/// 6. Dynamic parameters and curves apply at each sample: intensity control multiplies, sharpness
///    control adds; attack, decay and release controls scale the times by `10 ^ value`, taken at
///    the event's onset.
/// 7. Overlapping or touching events combine per tick: intensities add up and saturate at 1 (the
///    way the kernel mixes playing effects, and so a transient on top of a continuous event is
///    still felt), and the sharpness is the intensity-weighted mean of the events sounding in that
///    tick. Every command is therefore exactly `profile.command(intensity:sharpness:)` of its
///    stored intensity and sharpness, so the scheduler can re-map it with dynamic parameters at
///    play time.
/// 8. A silent tick becomes `.stop`. A command is emitted only when it differs from the previous
///    one, and the program always ends with a `.stop` at the end of the last tick.
/// 9. With `profile.overdrive > .zero`, each onset from silence is driven at full intensity for that
///    long (rounded up to whole ticks), keeping the sharpness.
/// 10. Haptic events that end after `maximumPatternDuration` (one hour) are left out, like events
///    whose time is negative or not a number, and a profile's values outside their ranges are
///    clamped into them (`DeviceProfile.clamped`); so are the continuous events, in onset order,
///    past `maximumHapticTime` of summed durations. None of this happens to a decoded file or a
///    built-in profile: it bounds what a pattern or profile built in code can cost.
///
/// Offsets count from the *send start*, which is `leadTime` (the profile's rise time) before the
/// felt time zero; see `Program`.
public struct Renderer: Sendable {
    /// The device the programs are rendered for.
    public var profile: DeviceProfile

    /// The nominal length of a transient before the profile's minimum pulse applies: 20 ms, the
    /// longest single impulse that still feels like a tap rather than a buzz.
    public static let nominalTransientLength: Duration = .milliseconds(20)

    /// Creates a renderer for a device profile.
    public init(profile: DeviceProfile) {
        self.profile = profile
    }

    /// The latest time, in pattern time, a rendered haptic event may end: one hour. Pattern files
    /// are limited to 600 s when decoded; a pattern built in code may be longer, and its events
    /// ending later are left out (`HapticEngine.makePlayer(pattern:)` refuses such a pattern).
    public static let maximumPatternDuration: Duration = .seconds(3_600)

    /// The most time, summed over a pattern's `HapticContinuous` events, that is rendered: four
    /// hours. Rendering samples each continuous event at every tick of the control interval, so its
    /// work grows with this sum (at the finest interval, 1 ms, 14.4 million samples); decoded files
    /// are held to 3,600 s (`PatternLimits.maximumHapticTime`).
    public static let maximumHapticTime: Duration = .seconds(14_400)

    /// `maximumPatternDuration` in nanoseconds, the unit of placement.
    static let maximumPatternNanoseconds: Int64 = 3_600 * 1_000_000_000

    /// Renders a pattern into a program of timed commands for this renderer's profile (clamped into
    /// its ranges, see rule 10).
    public func render(_ pattern: Pattern) -> Program {
        Renderer(profile: profile.clamped).renderWithValidProfile(pattern)
    }

    private func renderWithValidProfile(_ pattern: Pattern) -> Program {
        // Rendering counts in whole nanoseconds, the unit of `TimedCommand.offsetNanoseconds`.
        let interval = max(profile.controlInterval.nanoseconds, 1)
        let controls = DynamicControls(pattern)
        var timeline = TickTimeline()

        let events = pattern.events.enumerated()
            .filter { $0.element.kind.isHaptic && $0.element.time.isFinite && $0.element.time >= 0 }
            .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
            .withinHapticTime(Self.maximumHapticTime.patternSeconds)
        for placed in PlacedEvent.place(events, interval: interval) {
            switch placed.event.kind {
            case .hapticTransient:
                addTransient(placed, interval: interval, controls: controls, to: &timeline)
            case .hapticContinuous:
                addContinuous(placed, interval: interval, controls: controls, to: &timeline)
            case .audioCustom, .audioContinuous:
                continue
            }
        }
        return emit(timeline, interval: interval)
    }

    private func addTransient(
        _ placed: PlacedEvent, interval: Int64, controls: DynamicControls, to timeline: inout TickTimeline
    ) {
        let event = placed.event
        let onset = placed.onsetTick
        let length = max(profile.minimumPulse, Self.nominalTransientLength)
        let ticks = placed.soundingTicks(Self.ceilingDivide(length.nanoseconds, interval))
        let intensity = DynamicControls.clamp(event.parameters.resolvedIntensity, 0, 1)
            * controls.intensityScale(at: event.time)
        let sharpness = DynamicControls.clamp(
            event.parameters.resolvedSharpness + controls.sharpnessShift(at: event.time), 0, 1)
        for tick in onset..<(onset + ticks) {
            timeline.add(intensity: intensity, sharpness: sharpness, tick: tick)
        }
    }

    private func addContinuous(
        _ placed: PlacedEvent, interval: Int64, controls: DynamicControls, to timeline: inout TickTimeline
    ) {
        let event = placed.event
        let duration = event.resolvedDuration
        let onset = placed.onsetTick
        let ticks = placed.soundingTicks(
            max(placed.endTick - onset, Self.ceilingDivide(profile.minimumPulse.nanoseconds, interval)))
        let intervalSeconds = Double(interval) / 1e9
        let parameters = event.parameters
        // A stretched event lays its envelope over the stretched length (a release still ends it);
        // an event cut to leave a silent tick keeps its written timing and loses what does not fit.
        let envelope = EventEnvelope(
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
            timeline.add(intensity: intensity, sharpness: sharpness, tick: onset + Int64(index))
        }
    }

    private func emit(_ timeline: TickTimeline, interval: Int64) -> Program {
        var commands: [TimedCommand] = []
        var current = ActuatorCommand.stop
        var previousTick: Int64?
        let kickTicks = profile.overdrive > .zero ? max(1, Self.ceilingDivide(profile.overdrive.nanoseconds, interval)) : 0
        var kickLeft: Int64 = 0

        func send(_ command: ActuatorCommand, intensity: Float, sharpness: Float, tick: Int64) {
            guard command != current else { return }
            commands.append(TimedCommand(offsetNanoseconds: tick * interval, intensity: intensity, sharpness: sharpness, command: command))
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
            commands.append(TimedCommand(offsetNanoseconds: endTick * interval, intensity: 0, sharpness: 0, command: .stop))
        }
        return Program(
            profileName: profile.name,
            commands: commands,
            durationNanoseconds: commands[commands.count - 1].offsetNanoseconds,
            leadTimeNanoseconds: max(0, profile.riseTime.nanoseconds)
        )
    }

    static func ceilingDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        guard value > 0 else { return 0 }
        return (value + divisor - 1) / divisor
    }

    static func nonNegative(_ value: Double) -> Double {
        value > 0 && value.isFinite ? value : 0
    }
}

extension Array where Element == PatternEvent {
    /// These events, in order, without the continuous ones from the first whose duration takes
    /// the sum past `limit` seconds.
    func withinHapticTime(_ limit: Double) -> [PatternEvent] {
        var total = 0.0
        return filter { event in
            guard event.kind == .hapticContinuous else { return true }
            total += event.resolvedDuration
            return total <= limit
        }
    }
}
