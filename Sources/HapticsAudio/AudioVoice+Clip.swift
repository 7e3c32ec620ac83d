extension AudioVoice {
    /// A voice playing `clip` once at `volume`, placed by `pan` (equal-power for mono clips, balance
    /// for stereo ones, as for `AudioCustom` events).
    public convenience init(clip: AudioClip, volume: Double = 1, pan: Double = 0) {
        let gains = AudioRenderer.clipGains(pan: pan, stereo: clip.channelCount == 2)
        var samples = [Float](repeating: 0, count: 2 * clip.frameCount)
        for frame in 0..<clip.frameCount {
            samples[2 * frame] = Float(volume * gains.left * Double(clip.sample(frame: frame, channel: 0)))
            samples[2 * frame + 1] = Float(volume * gains.right * Double(clip.sample(frame: frame, channel: 1)))
        }
        self.init(stereoSamples: samples)
    }
}
