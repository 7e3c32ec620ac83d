import HapticsPatterns

extension Feedback {
    /// The file of the feedback's sound cue in `Patterns/`, next to its canonical pattern
    /// (`impact-light.wav`). Written by `Tools/generate-sound-cues`.
    public var soundCueFileName: String {
        String(canonicalFileName.dropLast(".ahap".count)) + ".wav"
    }
}
