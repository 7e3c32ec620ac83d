/// What a device can do and how it behaves: everything rendering needs to adapt a pattern to it.
///
/// Profiles are plain values; the built-in table lives in `DeviceProfile+Builtin.swift`.
public struct DeviceProfile: Sendable, Hashable {
    /// How the device moves: the kind of its actuators (the `Actuator` protocol is what plays on one).
    public enum ActuatorKind: Sendable, Hashable {
        /// Two ERM motors driven by `FF_RUMBLE`: a strong low-frequency one and a weak high-frequency one.
        case dualRumble
        /// One vibra motor driven by `FF_PERIODIC` (phones, simple pads), period range in milliseconds:
        /// the unit of `ff_periodic_effect.period` and of `ActuatorCommand.periodic`, which the
        /// realtime re-mapping (`command(intensity:sharpness:)`) produces from it unchanged.
        case periodic(minimumPeriodMilliseconds: UInt16, maximumPeriodMilliseconds: UInt16)
        /// A force actuator driven by `FF_CONSTANT` (wheels, joysticks).
        case constantForce
    }

    /// Limits the kernel driver imposes (ff-memless for most pads).
    public struct KernelLimits: Sendable, Hashable {
        /// Effect slots (`EVIOCGEFFECTS`).
        public var slots: Int
        /// Envelope update step of the driver (ff-memless: 50 ms); the engine does envelopes itself
        /// instead of trusting this.
        public var envelopeStep: Duration
        /// The timer granularity that delays and stops are rounded up to (one jiffy).
        public var jiffy: Duration
        /// Creates limits.
        public init(slots: Int, envelopeStep: Duration, jiffy: Duration) {
            self.slots = slots
            self.envelopeStep = envelopeStep
            self.jiffy = jiffy
        }
        /// ff-memless on a `CONFIG_HZ=250` kernel: 16 slots, 50 ms envelope steps, 4 ms jiffies.
        public static let ffMemless = KernelLimits(slots: 16, envelopeStep: .milliseconds(50), jiffy: .milliseconds(4))
    }

    /// A short, stable identifier (`dualsense`, `generic-rumble`, …).
    public var name: String
    /// A human-readable description.
    public var displayName: String
    /// How the device moves.
    public var actuator: ActuatorKind
    /// Time from a start command to the motor reaching its level. Rendering sends commands this
    /// much early so the felt onset lands on the pattern's time.
    public var riseTime: Duration
    /// The shortest pulse a person feels on this device; transients are stretched to it.
    public var minimumPulse: Duration
    /// The interval at which the engine updates a continuous level (envelopes, curves). Rendering
    /// works in whole nanoseconds of it.
    public var controlInterval: Duration
    /// Exponent of the magnitude curve: device magnitude = intensity ^ exponent (1 = linear).
    public var magnitudeExponent: Double
    /// The smallest device magnitude (0…1) that moves the motor at all; non-zero intensities map
    /// above it.
    public var magnitudeFloor: Double
    /// Swap the strong and weak motors (devices that wire them the other way round).
    public var swapsMotors: Bool
    /// Optional overdrive kick at onsets: full magnitude for this long (`.zero` = off).
    public var overdrive: Duration
    /// Kernel-side limits.
    public var limits: KernelLimits

    /// Creates a profile.
    public init(
        name: String,
        displayName: String,
        actuator: ActuatorKind,
        riseTime: Duration,
        minimumPulse: Duration,
        controlInterval: Duration,
        magnitudeExponent: Double = 1.0,
        magnitudeFloor: Double = 0,
        swapsMotors: Bool = false,
        overdrive: Duration = .zero,
        limits: KernelLimits = .ffMemless
    ) {
        self.name = name
        self.displayName = displayName
        self.actuator = actuator
        self.riseTime = riseTime
        self.minimumPulse = minimumPulse
        self.controlInterval = controlInterval
        self.magnitudeExponent = magnitudeExponent
        self.magnitudeFloor = magnitudeFloor
        self.swapsMotors = swapsMotors
        self.overdrive = overdrive
        self.limits = limits
    }
}
