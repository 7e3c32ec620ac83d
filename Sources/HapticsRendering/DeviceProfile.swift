/// What a device can do and how it behaves: everything rendering needs to adapt a pattern to it.
///
/// Profiles are plain values; the built-in table lives in `DeviceProfile+Builtin.swift`.
public struct DeviceProfile: Sendable, Hashable {
    /// How the device moves.
    public enum Actuator: Sendable, Hashable {
        /// Two ERM motors driven by `FF_RUMBLE`: a strong low-frequency one and a weak high-frequency one.
        case dualRumble
        /// One vibra motor driven by `FF_PERIODIC` (phones, simple pads), period range in milliseconds.
        case periodic(minimumPeriodMilliseconds: UInt16, maximumPeriodMilliseconds: UInt16)
        /// A force actuator driven by `FF_CONSTANT` (wheels, joysticks).
        case constantForce
    }

    /// Limits the kernel driver imposes (ff-memless for most pads).
    public struct KernelLimits: Sendable, Hashable {
        /// Effect slots (`EVIOCGEFFECTS`).
        public var slots: Int
        /// Envelope update step of the driver, nanoseconds (ff-memless: 50 ms); the engine does
        /// envelopes itself instead of trusting this.
        public var envelopeStep: Int64
        /// The timer granularity that delays and stops are rounded up to, nanoseconds (one jiffy).
        public var jiffy: Int64
        /// Creates limits.
        public init(slots: Int, envelopeStep: Int64, jiffy: Int64) {
            self.slots = slots
            self.envelopeStep = envelopeStep
            self.jiffy = jiffy
        }
        /// ff-memless on a `CONFIG_HZ=250` kernel: 16 slots, 50 ms envelope steps, 4 ms jiffies.
        public static let ffMemless = KernelLimits(slots: 16, envelopeStep: 50_000_000, jiffy: 4_000_000)
    }

    /// A short, stable identifier (`dualsense`, `generic-rumble`, …).
    public var name: String
    /// A human-readable description.
    public var displayName: String
    /// How the device moves.
    public var actuator: Actuator
    /// Time from a start command to the motor reaching its level, nanoseconds. Rendering sends
    /// commands this much early so the felt onset lands on the pattern's time.
    public var riseTime: Int64
    /// The shortest pulse a person feels on this device, nanoseconds; transients are stretched to it.
    public var minimumPulse: Int64
    /// The interval at which the engine updates a continuous level (envelopes, curves), nanoseconds.
    public var controlInterval: Int64
    /// Exponent of the magnitude curve: device magnitude = intensity ^ exponent (1 = linear).
    public var magnitudeExponent: Double
    /// The smallest device magnitude (0…1) that moves the motor at all; non-zero intensities map
    /// above it.
    public var magnitudeFloor: Double
    /// Swap the strong and weak motors (devices that wire them the other way round).
    public var swapsMotors: Bool
    /// Optional overdrive kick at onsets: full magnitude for this many nanoseconds (0 = off).
    public var overdrive: Int64
    /// Kernel-side limits.
    public var limits: KernelLimits

    /// Creates a profile.
    public init(
        name: String,
        displayName: String,
        actuator: Actuator,
        riseTime: Int64,
        minimumPulse: Int64,
        controlInterval: Int64,
        magnitudeExponent: Double = 1.0,
        magnitudeFloor: Double = 0,
        swapsMotors: Bool = false,
        overdrive: Int64 = 0,
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
