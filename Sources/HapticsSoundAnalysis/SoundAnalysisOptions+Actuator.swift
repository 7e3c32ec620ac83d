extension SoundAnalysisOptions {
    /// The kind of actuator a pattern made from sound is meant for; it chooses the default band
    /// (``SoundAnalysisOptions/band``).
    public enum Actuator: String, Sendable, Hashable, CaseIterable {
        /// Rumble motors (ERM or LRA): two speeds, low and high. Sharpness only chooses between them, so
        /// the band spans most of what a sound holds: 50 Hz to 5 kHz.
        case rumble
        /// Voice coils (the DualSense's actuators, HD haptics): they play what they are given between
        /// about 40 Hz and 1 kHz, so sharpness follows the sound's content in that band.
        case voiceCoil = "voice-coil"

        /// The band of sound frequencies mapped onto sharpness 0…1, in hertz.
        public var defaultBand: ClosedRange<Double> {
            switch self {
            case .rumble: return 50...5_000
            case .voiceCoil: return 40...1_000
            }
        }
    }
}
