import HapticsAudio
import CALSA
#if canImport(Glibc)
import Glibc
#endif
import HapticsSystem

/// Records an ALSA capture device (e.g. `hw:Loopback,1,0`, the far end of the snd-aloop cable) and
/// knows when each captured frame arrived on `CLOCK_MONOTONIC` — so a sound's onset can be timed
/// on the same clock as the haptics.
///
/// After every read it takes the status: at `htstamp`, `framesRead + delay` frames had arrived, so
/// capture position 0 arrived at `htstamp − (framesRead + delay) / rate` (the reading's *origin*).
/// A pointer only lags the sound, so the earliest origin is the truth (the reading `AudioOutput`
/// uses for playback) — as long as no frame was lost. A reader that falls a whole buffer behind
/// loses frames: the device overruns (`-EPIPE`, recovered here), or its pointer wraps unseen and
/// the frames are overwritten without an error. Every later frame then arrived later than the
/// earlier origin says, so the timeline is kept in **segments**: a reading whose origin is later
/// than its segment's by more than ``gapTolerance`` starts a new segment at the frames it read,
/// and each segment keeps the earliest origin of its own readings. The time between segments was
/// not captured (``gaps``); ``onset(from:until:threshold:)`` never looks into it.
///
/// Two channels or more (4 for a DualSense's sound card), 16-bit or float; every channel is kept,
/// the first also as ``samples``. For measurements, not the realtime path: it allocates
/// as it records.
package final class ALSACaptureStream: @unchecked Sendable {
    /// A stretch of time the device did not deliver.
    package struct Gap: Sendable, Hashable {
        /// The first frame captured after it.
        package var frame: Int
        /// When it began: the instant the frame before `frame` arrived, one frame later.
        package var start: MonotonicInstant
        /// How long it lasted. Negative when the frames after it arrived sooner than the frames
        /// before it allow (a pointer that ran ahead): the two segments overlap by that much.
        package var duration: Duration

        /// Creates a gap.
        package init(frame: Int, start: MonotonicInstant, duration: Duration) {
            self.frame = frame
            self.start = start
            self.duration = duration
        }
    }

    /// The device name given to `snd_pcm_open`.
    package let device: String
    /// Frames per second.
    package let sampleRate: Int
    /// Frames per read.
    package let periodFrames: Int
    /// The samples' encoding (the far end of a loopback cable must play the same).
    package let sampleFormat: AudioStreamFormat.SampleFormat
    /// Channels per frame.
    package let channelCount: Int
    /// Frames the device buffers (what it granted): the reader may fall this far behind before
    /// frames are lost.
    package private(set) var bufferFrames = 0
    private var pcm: OpaquePointer?
    private var status: OpaquePointer?
    /// One period as read: interleaved channels in `sampleFormat`.
    private var buffer: [UInt8]
    /// The captured left channel, in −1…1.
    package private(set) var samples: [Float] = []
    /// Every channel of every frame captured, interleaved.
    private var interleaved: [Float] = []
    /// When each frame arrived, in segments.
    private var timeline: _CaptureTimeline
    /// Whether the next reading follows a restart of the device (frames were lost before it).
    private var restarted = false
    /// Reads taken so far.
    package private(set) var reads = 0
    /// Overruns (`-EPIPE`: the reader fell a buffer behind) recovered so far.
    package private(set) var overruns = 0
    /// Reads that timed out (`-EIO`: no period arrived within the kernel's wait) after which the
    /// device was restarted.
    package private(set) var timeouts = 0

    /// Opens and starts `device` (`channelCount` channels, `sampleFormat`, `sampleRate`, `periodFrames` per read)
    /// with monotonic timestamps. `bufferFrames` (`nil`: one second) is how far the reader may fall
    /// behind before frames are lost; the device may grant less (``bufferFrames`` says). The
    /// corresponding C function is `snd_pcm_open`.
    package init(device: String, sampleRate: Int = 48_000, periodFrames: Int = 256,
                bufferFrames: Int? = nil, sampleFormat: AudioStreamFormat.SampleFormat = .signed16,
                channelCount: Int = 2) throws(AudioSinkError) {
        self.device = device
        self.channelCount = channelCount
        self.sampleRate = sampleRate
        self.periodFrames = periodFrames
        self.sampleFormat = sampleFormat
        buffer = [UInt8](repeating: 0, count: channelCount * periodFrames * (sampleFormat == .float32 ? 4 : 2))
        timeline = _CaptureTimeline(sampleRate: sampleRate,
                                    tolerance: max(2 * Int64(periodFrames) * 1_000_000_000 / Int64(sampleRate), 10_000_000))
        do {
            try check(snd_pcm_open(&pcm, device, SND_PCM_STREAM_CAPTURE, 0), "snd_pcm_open")
            try configure(bufferFrames: max(bufferFrames ?? sampleRate, 2 * periodFrames))
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    private func configure(bufferFrames requested: Int) throws(AudioSinkError) {
        var hardware: OpaquePointer?
        try check(snd_pcm_hw_params_malloc(&hardware), "snd_pcm_hw_params_malloc")
        defer { snd_pcm_hw_params_free(hardware) }
        try check(snd_pcm_hw_params_any(pcm, hardware), "snd_pcm_hw_params_any")
        try check(snd_pcm_hw_params_set_access(pcm, hardware, SND_PCM_ACCESS_RW_INTERLEAVED), "snd_pcm_hw_params_set_access")
        try check(snd_pcm_hw_params_set_format(pcm, hardware, sampleFormat == .float32 ? SND_PCM_FORMAT_FLOAT_LE : SND_PCM_FORMAT_S16_LE),
                  "snd_pcm_hw_params_set_format")
        try check(snd_pcm_hw_params_set_channels(pcm, hardware, UInt32(channelCount)), "snd_pcm_hw_params_set_channels")
        try check(snd_pcm_hw_params_set_rate(pcm, hardware, UInt32(sampleRate), 0), "snd_pcm_hw_params_set_rate")
        try check(snd_pcm_hw_params_set_period_size(pcm, hardware, snd_pcm_uframes_t(periodFrames), 0),
                  "snd_pcm_hw_params_set_period_size")
        var size = snd_pcm_uframes_t(requested)
        try check(snd_pcm_hw_params_set_buffer_size_near(pcm, hardware, &size), "snd_pcm_hw_params_set_buffer_size_near")
        try check(snd_pcm_hw_params(pcm, hardware), "snd_pcm_hw_params")
        try check(snd_pcm_hw_params_get_buffer_size(hardware, &size), "snd_pcm_hw_params_get_buffer_size")
        bufferFrames = Int(size)
        var software: OpaquePointer?
        try check(snd_pcm_sw_params_malloc(&software), "snd_pcm_sw_params_malloc")
        defer { snd_pcm_sw_params_free(software) }
        try check(snd_pcm_sw_params_current(pcm, software), "snd_pcm_sw_params_current")
        try check(snd_pcm_sw_params_set_tstamp_mode(pcm, software, SND_PCM_TSTAMP_ENABLE), "snd_pcm_sw_params_set_tstamp_mode")
        try check(snd_pcm_sw_params_set_tstamp_type(pcm, software, SND_PCM_TSTAMP_TYPE_MONOTONIC),
                  "snd_pcm_sw_params_set_tstamp_type")
        try check(snd_pcm_sw_params(pcm, software), "snd_pcm_sw_params")
        try check(snd_pcm_status_malloc(&status), "snd_pcm_status_malloc")
        try check(snd_pcm_prepare(pcm), "snd_pcm_prepare")
        try check(snd_pcm_start(pcm), "snd_pcm_start")
    }

    /// Closes the device. Idempotent.
    package func close() {
        if let pcm { snd_pcm_close(pcm) }
        if let status { snd_pcm_status_free(status) }
        pcm = nil
        status = nil
    }

    /// Reads one period (blocking until it has arrived) and its timing. An overrun is recovered and
    /// a timed-out read restarts the device; the frames lost meanwhile become a gap. The
    /// corresponding C function is `snd_pcm_readi`.
    package func readPeriod() throws(AudioSinkError) {
        let count = buffer.withUnsafeMutableBytes { snd_pcm_readi(pcm, $0.baseAddress, snd_pcm_uframes_t(periodFrames)) }
        if count < 0 {
            let code = Int32(truncatingIfNeeded: count)
            if code == -EIO {
                // No period within the kernel's wait (a guest or host that stalled the device's
                // timer): the stream still runs, but what it buffered can no longer be trusted.
                timeouts += 1
                snd_pcm_drop(pcm)
                try check(snd_pcm_prepare(pcm), "snd_pcm_prepare")
                try check(snd_pcm_start(pcm), "snd_pcm_start")
            } else {
                try check(snd_pcm_recover(pcm, code, 1), "snd_pcm_readi")
                if code == -EPIPE { overruns += 1 }
            }
            restarted = true
            return
        }
        let first = samples.count
        let float = sampleFormat == .float32
        buffer.withUnsafeBytes { bytes in
            for index in 0..<(Int(count) * channelCount) {
                let sample = float ? bytes.load(fromByteOffset: 4 * index, as: Float.self)
                    : Float(bytes.load(fromByteOffset: 2 * index, as: Int16.self)) / 32_768
                interleaved.append(sample)
                if index % channelCount == 0 { samples.append(sample) }
            }
        }
        try check(snd_pcm_status(pcm, status), "snd_pcm_status")
        var stamp = snd_htimestamp_t()
        snd_pcm_status_get_htstamp(status, &stamp)
        let instant = Int64(stamp.tv_sec) * 1_000_000_000 + Int64(stamp.tv_nsec)
        let arrived = Int64(samples.count) + Int64(snd_pcm_status_get_delay(status))
        timeline.observe(origin: instant - arrived * 1_000_000_000 / Int64(sampleRate), firstFrame: first,
                         afterRestart: restarted)
        restarted = false
        reads += 1
    }

    /// How much later than its segment's origin a reading's may be before the frames it read are
    /// taken to follow a gap: two periods or 10 ms, whichever is longer. A pointer lags by less;
    /// a lost stretch is a whole buffer or more. A laggy reading taken for a gap costs nothing:
    /// the segment it starts takes the earlier origins that follow and is joined again.
    package var gapTolerance: Duration { .nanoseconds(timeline.tolerance) }

    /// When capture frame 0 arrived (the first segment's earliest origin), or `nil` before a read.
    package var origin: MonotonicInstant? {
        timeline.segments.first.map { MonotonicInstant(nanoseconds: $0.origin) }
    }

    /// The stretches of time the device did not deliver (or, with a negative duration, delivered
    /// twice), in order.
    package var gaps: [Gap] { timeline.gaps }

    /// Frames captured so far.
    package var frameCount: Int { samples.count }

    /// Channel `channel` of captured `frame`.
    package func sample(frame: Int, channel: Int) -> Float { interleaved[frame * channelCount + channel] }

    /// Channel `channel` of every frame captured.
    package func channel(_ channel: Int) -> [Float] {
        stride(from: channel, to: interleaved.count, by: channelCount).map { interleaved[$0] }
    }

    /// When captured `frame` arrived, by the origin of its segment.
    package func instant(ofFrame frame: Int) -> MonotonicInstant? { timeline.instant(ofFrame: frame) }

    /// The first captured frame that arrived at or after `from` and before `until` whose magnitude
    /// reaches `threshold`: a sound's onset. `nil` when there is none. Time in a gap was not
    /// captured: a sound that began there is found where the capture resumes — check ``gaps``.
    package func onset(from: MonotonicInstant, until: MonotonicInstant, threshold: Float) -> Int? {
        for frames in timeline.frames(from: from, until: until, count: samples.count) {
            for frame in frames where abs(samples[frame]) >= threshold { return frame }
        }
        return nil
    }

    private func check(_ result: Int32, _ call: String) throws(AudioSinkError) {
        guard result < 0 else { return }
        throw AudioSinkError(device: device, call: call, errno: Errno(rawValue: -result), reason: String(cString: snd_strerror(result)))
    }
}
