import HapticsRendering

// How levels add up on one output: the players of a `mix` channel, and the players' level with
// the channel's direct level.
extension ActuatorCommand {
    /// What an output plays: the players' level plus the direct level, saturating per motor. Of
    /// two levels of different kinds (which one device's profile never makes), the players' wins.
    @inline(__always)
    static func combined(_ playerLevel: ActuatorCommand, _ direct: ActuatorCommand) -> ActuatorCommand {
        if direct.isSilent { return playerLevel }
        if playerLevel.isSilent { return direct }
        return saturatingSum(playerLevel, direct) ?? playerLevel
    }

    /// Two levels summed per motor, saturating like the kernel sums its effects; the first one's
    /// periodic waveform and period. `nil` when they are of different kinds.
    static func saturatingSum(_ first: ActuatorCommand, _ second: ActuatorCommand) -> ActuatorCommand? {
        switch (first, second) {
        case let (.rumble(strong, weak), .rumble(addedStrong, addedWeak)):
            return .rumble(strong: saturatingSum(strong, addedStrong), weak: saturatingSum(weak, addedWeak))
        case let (.periodic(waveform, period, magnitude), .periodic(_, _, addedMagnitude)):
            return .periodic(waveform: waveform, periodMilliseconds: period,
                             magnitude: saturatingSum(magnitude, addedMagnitude))
        case let (.constant(level), .constant(addedLevel)):
            return .constant(level: saturatingSum(level, addedLevel))
        default:
            return nil
        }
    }

    static func saturatingSum(_ a: UInt16, _ b: UInt16) -> UInt16 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }

    static func saturatingSum(_ a: Int16, _ b: Int16) -> Int16 {
        Int16(clamping: Int32(a) + Int32(b))
    }
}
