import HapticsScheduler

/// An actuator whose hardware applies a gain to everything it plays (evdev `FF_GAIN`).
public protocol HardwareGainActuator: Actuator {
    /// Sets the device gain, 0…1. Control side.
    func setGain(_ gain: Double) throws(DeviceError)
}
