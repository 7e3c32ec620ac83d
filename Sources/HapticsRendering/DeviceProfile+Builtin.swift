extension DeviceProfile {
    /// A generic dual-ERM rumble pad on the kernel's ff-memless layer, transport unknown.
    ///
    /// ERMs need 50–100 ms to respond, so rise and minimum pulse sit at 60 ms; updates every 20 ms
    /// (five jiffies) stay inside every Bluetooth HID report interval. See docs/reference/profiles.md.
    public static let genericRumble = DeviceProfile(
        name: "generic-rumble",
        displayName: "Generic dual-motor rumble pad",
        actuator: .dualRumble,
        riseTime: .milliseconds(60),
        minimumPulse: .milliseconds(60),
        controlInterval: .milliseconds(20),
        magnitudeExponent: 1.0,
        magnitudeFloor: 0.10
    )

    /// Sony DualSense (054c:0ce6) through hid-playstation's rumble emulation ("compatible vibration").
    ///
    /// The voice coils are driven by the controller's firmware as two emulated motors, so the
    /// rumble path still behaves like rumble; values sit between LRA and ERM figures.
    public static let dualSense = DeviceProfile(
        name: "dualsense",
        displayName: "Sony DualSense (compatible vibration)",
        actuator: .dualRumble,
        riseTime: .milliseconds(30),
        minimumPulse: .milliseconds(40),
        controlInterval: .milliseconds(8),
        magnitudeExponent: 1.0,
        magnitudeFloor: 0.05
    )

    /// Sony DualShock 4 (054c:05c4, 054c:09cc) through hid-sony: two real ERM motors.
    public static let dualShock4 = DeviceProfile(
        name: "dualshock4",
        displayName: "Sony DualShock 4",
        actuator: .dualRumble,
        riseTime: .milliseconds(60),
        minimumPulse: .milliseconds(50),
        controlInterval: .milliseconds(8),
        magnitudeExponent: 1.0,
        magnitudeFloor: 0.10
    )

    /// Xbox controllers (xpad over USB, hid-microsoft over Bluetooth): two ERM motors.
    ///
    /// Some Bluetooth firmware drops rumble reports closer than 50 ms apart; a dropped stop means
    /// stuck rumble, so this profile updates every 52 ms (13 jiffies, the first multiple above 50 ms).
    public static let xboxController = DeviceProfile(
        name: "xbox",
        displayName: "Xbox controller",
        actuator: .dualRumble,
        riseTime: .milliseconds(60),
        minimumPulse: .milliseconds(50),
        controlInterval: .milliseconds(52),
        magnitudeExponent: 1.0,
        magnitudeFloor: 0.10
    )

    /// Nintendo Switch Pro Controller (057e:2009) through hid-nintendo, which exposes its HD rumble
    /// (two linear resonant actuators) as `FF_RUMBLE`: strong → low band, weak → high band.
    ///
    /// The driver paces rumble packets 50 ms apart through an 8-entry queue; faster updates would
    /// only queue up and play late, so this profile updates every 52 ms (13 jiffies).
    public static let switchPro = DeviceProfile(
        name: "switch-pro",
        displayName: "Nintendo Switch Pro Controller",
        actuator: .dualRumble,
        riseTime: .milliseconds(15),
        minimumPulse: .milliseconds(20),
        controlInterval: .milliseconds(52),
        magnitudeExponent: 1.0,
        magnitudeFloor: 0.05
    )

    /// A phone's single ERM vibra motor driven by `FF_PERIODIC` (Linux phones, feedbackd devices).
    public static let phoneVibra = DeviceProfile(
        name: "phone-vibra",
        displayName: "Phone vibra motor",
        actuator: .periodic(minimumPeriodMilliseconds: 20, maximumPeriodMilliseconds: 50),
        riseTime: .milliseconds(80),
        minimumPulse: .milliseconds(80),
        controlInterval: .milliseconds(20),
        magnitudeExponent: 1.0,
        magnitudeFloor: 0.20
    )

    /// A force-feedback wheel or joystick driven by `FF_CONSTANT`.
    public static let constantForceWheel = DeviceProfile(
        name: "constant-force-wheel",
        displayName: "Constant-force wheel",
        actuator: .constantForce,
        riseTime: .milliseconds(10),
        minimumPulse: .milliseconds(20),
        controlInterval: .milliseconds(4),
        magnitudeExponent: 1.0,
        magnitudeFloor: 0
    )

    /// An ideal dual-motor device for tests and previews: no rise time, linear, one-jiffy updates.
    public static let simulated = DeviceProfile(
        name: "simulated",
        displayName: "Simulated ideal device",
        actuator: .dualRumble,
        riseTime: .zero,
        minimumPulse: .milliseconds(4),
        controlInterval: .milliseconds(4),
        magnitudeExponent: 1.0,
        magnitudeFloor: 0
    )

    /// Every built-in profile, in a stable order.
    public static var builtins: [DeviceProfile] {
        [genericRumble, dualSense, dualShock4, xboxController, switchPro, phoneVibra, constantForceWheel, simulated]
    }

    /// The built-in profile with this `name` (`dualsense`, `phone-vibra`, …), or `nil`.
    public static func named(_ name: String) -> DeviceProfile? {
        builtins.first { $0.name == name }
    }
}
