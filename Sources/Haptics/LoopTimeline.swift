import HapticsPatterns
import HapticsScheduler
import HapticsSystem
import HapticsVoiceCoils

/// What a pattern player knows, on the control side, to repeat its sound and its adaptive trigger
/// effects on every loop pass: the loop switch as the scheduler will see it, the playback rate, and
/// the passes of the current start.
struct LoopTimeline {
    /// The timeline of one start's sound passes: pass `n` is heard at `onset + n × length`.
    struct Passes {
        /// When pass 0 (the start itself) is heard and felt.
        var onset: MonotonicInstant
        /// The loop length, the program duration the scheduler wraps at.
        var length: Duration
        /// How long before a pass is felt (and heard) the scheduler wraps into it: the lead time of
        /// the program whose timeline the sound follows.
        var leadTime: Duration
        /// The last pass handed to the audio output (or skipped).
        var scheduled: Int
        /// The trace's id of the player whose timeline the sound follows (`PlayerID.traceSlot`).
        var player: Int32
        /// The playback rate the passes follow: pass `n` begins `n × length / rate` after the onset.
        var rate = 1.0
        /// The last pass at whose start the pass before it was ended (trigger effects set off).
        var ended = 0

        /// When pass `n` begins.
        func start(of pass: Int) -> MonotonicInstant {
            rate == 1 ? onset + length * pass : onset + .nanoseconds(Int64((Double(length.nanoseconds) * Double(pass) / rate).rounded()))
        }

        /// When the scheduler wraps into pass `n` (and decides by the loop switch whether it does).
        func wrap(into pass: Int) -> MonotonicInstant {
            start(of: pass) - leadTime
        }
    }

    /// The loop switch before `changedAt` and from then on: the scheduler applies a `setLoop` due at
    /// an instant before a wrap due at the same instant, so a pass starting at `changedAt` follows
    /// the new value.
    private var loopsBefore = false
    private var loopsAfter = false
    private var changedAt = MonotonicInstant(nanoseconds: .min)
    /// The playback rate last set (the scheduler keeps it across starts).
    var rate = 1.0
    /// The sound passes of the current start, or `nil` when no further pass will be scheduled.
    var soundPasses: Passes?
    /// The trigger effect passes of the current start, or `nil` when none follows: `scheduled` is
    /// the last pass whose effects were handed to the pads.
    var triggerPasses: Passes?
    /// Whether a start set trigger effects that no stop has ended yet (a released player ends them).
    var ownsTriggers = false
    /// The pattern as the pads' voice coils play it since the latest start, resume, seek, loop or
    /// rate change; `nil` when it plays on none.
    var voiceCoils: VoiceCoilTimeline?
    /// Where a paused player's voice coils resume (pattern time), while paused.
    var voiceCoilsPausedAt: Duration?
    /// A control due later moves the voice coils' timeline then: what plays goes on until then,
    /// and housekeeping hands the pads the new timeline at its anchor.
    var voiceCoilsLater: VoiceCoilTimeline?
    /// The dynamic parameters other than the intensity sent since the player was made (the
    /// scheduler keeps them across starts too): the voice coils play the pattern with them.
    var voiceCoilParameters: [DynamicParameterID: Double] = [:]

    /// Whether the scheduler loops at `instant`, by the switches set so far.
    func loops(at instant: MonotonicInstant) -> Bool {
        instant >= changedAt ? loopsAfter : loopsBefore
    }

    /// Records `setLooping(enabled, at: time)`.
    mutating func setLooping(_ enabled: Bool, at time: MonotonicInstant) {
        loopsBefore = loops(at: time - .nanoseconds(1))
        loopsAfter = enabled
        changedAt = time
    }
}

/// Where a pattern stands on the voice coils that play it: pattern time `position` at `anchor`,
/// running at `rate`, wrapping at `loopLength` while looping.
struct VoiceCoilTimeline {
    var plays: [HapticDevice.ID: HDPlay]
    var anchor: MonotonicInstant
    var position: Duration
    var rate: Double
    var loopLength: Duration?
    /// The intensity control sent since the start (1 until one is).
    var intensity = 1.0

    /// The pattern time at `instant`.
    func position(at instant: MonotonicInstant) -> Duration {
        let elapsed = Double((instant - anchor).nanoseconds) * rate
        var time = position.nanoseconds + Int64(elapsed.rounded())
        if let loopLength, loopLength > .zero { time %= loopLength.nanoseconds }
        return .nanoseconds(max(0, time))
    }
}
