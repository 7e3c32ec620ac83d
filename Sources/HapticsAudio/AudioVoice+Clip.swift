import HapticsPatterns

extension AudioVoice {
    /// A voice playing `clip` once at `volume`, placed by `pan` (equal-power for mono clips, balance
    /// for stereo ones, as for `AudioCustom` events). It reads the clip's samples in place.
    public convenience init(clip: AudioClip, volume: Double = 1, pan: Double = 0) {
        let gains = AudioRenderer.clipGains(pan: pan, stereo: clip.channelCount == 2)
        var program = _VoiceProgram(
            kind: .clip, frameCount: clip.frameCount, rate: Double(clip.sampleRate), eventTime: 0,
            envelope: EventEnvelope(duration: 0, attack: 0, decay: 0, release: 0, sustained: true),
            controls: .none)
        program.samples = UnsafePointer(clip.storage.base)
        program.clipFrames = clip.frameCount
        program.clipChannels = clip.channelCount
        program.volume = volume
        program.fixedGain = volume
        program.fixedPanGains = gains
        self.init(program: program, clip: clip.storage, curves: nil)
    }
}
