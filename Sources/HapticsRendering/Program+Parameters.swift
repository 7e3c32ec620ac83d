extension DeviceProfile {
    /// The command `timed` plays as once a player's dynamic parameters apply: its intensity times
    /// `intensityScale` and its sharpness plus `sharpnessShift`, each clamped to 0…1, re-mapped
    /// through this profile (``command(intensity:sharpness:)``). A silent command, or a scale of 1
    /// with no shift, plays as rendered.
    ///
    /// The scheduler calls this on its realtime thread for every command of a player with
    /// parameters, and preparation calls it to know ahead which levels such a play sends, so the
    /// two always agree to the bit. No allocation, no lock, no logging.
    @inline(__always)
    public func command(_ timed: TimedCommand, intensityScale: Float, sharpnessShift: Float) -> ActuatorCommand {
        if timed.command.isSilent || (intensityScale == 1 && sharpnessShift == 0) { return timed.command }
        let intensity = min(max(timed.intensity * intensityScale, 0), 1)
        let sharpness = min(max(timed.sharpness + sharpnessShift, 0), 1)
        return command(intensity: intensity, sharpness: sharpness)
    }
}

extension Program {
    /// This program as a player with the intensity parameter `intensityScale` plays it on a device
    /// of `profile` (``DeviceProfile/command(_:intensityScale:sharpnessShift:)`` for every command):
    /// what to prepare so that such a play finds every level uploaded. Offsets, duration and lead
    /// time stay; a scale below 0 counts as 0, as the scheduler counts it.
    public func scaled(intensity intensityScale: Double, profile: DeviceProfile) -> Program {
        let scale = Float(max(0, intensityScale))
        var program = self
        for index in program.commands.indices {
            program.commands[index].command = profile.command(commands[index], intensityScale: scale, sharpnessShift: 0)
        }
        return program
    }
}
