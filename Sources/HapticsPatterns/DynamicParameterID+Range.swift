extension DynamicParameterID {
    /// The range Core Haptics documents for this control (`CHHapticParameter.h`): the intensity and
    /// volume controls multiply (0…1), every other control shifts or scales (−1…1).
    public var range: ClosedRange<Double> {
        switch self {
        case .hapticIntensityControl, .audioVolumeControl: return 0...1
        default: return -1...1
        }
    }
}
