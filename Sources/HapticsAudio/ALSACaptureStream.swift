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
/// capture position 0 arrived at `htstamp − (framesRead + delay) / rate`. A pointer only lags the
/// sound, so the earliest of these origins is the truth (the reading `AudioOutput` uses for
/// playback). Stereo 16-bit; the left channel is kept. For measurements, not the realtime path:
/// it allocates as it records.
public final class ALSACaptureStream: @unchecked Sendable {
    /// The device name given to `snd_pcm_open`.
    public let device: String
    /// Frames per second.
    public let sampleRate: Int
    /// Frames per read.
    public let periodFrames: Int
    private var pcm: OpaquePointer?
    private var status: OpaquePointer?
    private var buffer: [Int16]
    /// The captured left channel, in −1…1.
    public private(set) var samples: [Float] = []
    private var framesRead: Int64 = 0
    private var earliestOrigin = Int64.max
    /// Reads taken so far.
    public private(set) var reads = 0

    /// Opens and starts `device` (stereo, 16-bit, `sampleRate`, `periodFrames` per read, 16 periods of
    /// buffer) with monotonic timestamps. The corresponding C function is `snd_pcm_open`.
    public init(device: String, sampleRate: Int = 48_000, periodFrames: Int = 256) throws(AudioSinkError) {
        self.device = device
        self.sampleRate = sampleRate
        self.periodFrames = periodFrames
        buffer = [Int16](repeating: 0, count: 2 * periodFrames)
        do {
            try check(snd_pcm_open(&pcm, device, SND_PCM_STREAM_CAPTURE, 0), "snd_pcm_open")
            try configure()
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    private func configure() throws(AudioSinkError) {
        var hardware: OpaquePointer?
        try check(snd_pcm_hw_params_malloc(&hardware), "snd_pcm_hw_params_malloc")
        defer { snd_pcm_hw_params_free(hardware) }
        try check(snd_pcm_hw_params_any(pcm, hardware), "snd_pcm_hw_params_any")
        try check(snd_pcm_hw_params_set_access(pcm, hardware, SND_PCM_ACCESS_RW_INTERLEAVED), "snd_pcm_hw_params_set_access")
        try check(snd_pcm_hw_params_set_format(pcm, hardware, SND_PCM_FORMAT_S16_LE), "snd_pcm_hw_params_set_format")
        try check(snd_pcm_hw_params_set_channels(pcm, hardware, 2), "snd_pcm_hw_params_set_channels")
        try check(snd_pcm_hw_params_set_rate(pcm, hardware, UInt32(sampleRate), 0), "snd_pcm_hw_params_set_rate")
        try check(snd_pcm_hw_params_set_period_size(pcm, hardware, snd_pcm_uframes_t(periodFrames), 0),
                  "snd_pcm_hw_params_set_period_size")
        try check(snd_pcm_hw_params_set_buffer_size(pcm, hardware, snd_pcm_uframes_t(periodFrames * 16)),
                  "snd_pcm_hw_params_set_buffer_size")
        try check(snd_pcm_hw_params(pcm, hardware), "snd_pcm_hw_params")
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
    public func close() {
        if let pcm { snd_pcm_close(pcm) }
        if let status { snd_pcm_status_free(status) }
        pcm = nil
        status = nil
    }

    /// Reads one period (blocking until it has arrived) and its timing. The corresponding C
    /// function is `snd_pcm_readi`.
    public func readPeriod() throws(AudioSinkError) {
        let count = buffer.withUnsafeMutableBytes { snd_pcm_readi(pcm, $0.baseAddress, snd_pcm_uframes_t(periodFrames)) }
        if count < 0 {
            // An overrun (the reader fell behind) is recovered; the gap shows up as lost frames.
            try check(snd_pcm_recover(pcm, Int32(truncatingIfNeeded: count), 1), "snd_pcm_readi")
            return
        }
        for frame in 0..<Int(count) { samples.append(Float(buffer[2 * frame]) / 32_768) }
        framesRead += Int64(count)
        try check(snd_pcm_status(pcm, status), "snd_pcm_status")
        var stamp = snd_htimestamp_t()
        snd_pcm_status_get_htstamp(status, &stamp)
        let instant = Int64(stamp.tv_sec) * 1_000_000_000 + Int64(stamp.tv_nsec)
        let arrived = framesRead + Int64(snd_pcm_status_get_delay(status))
        earliestOrigin = min(earliestOrigin, instant - arrived * 1_000_000_000 / Int64(sampleRate))
        reads += 1
    }

    /// When capture frame 0 arrived (the earliest origin of all readings), or `nil` before a read.
    public var origin: MonotonicInstant? {
        earliestOrigin == .max ? nil : MonotonicInstant(nanoseconds: earliestOrigin)
    }

    /// When captured `frame` arrived.
    public func instant(ofFrame frame: Int) -> MonotonicInstant? {
        origin.map { $0.advanced(by: Int64(frame) * 1_000_000_000 / Int64(sampleRate)) }
    }

    /// The first captured frame at or after `from` (an instant) and before `until` whose magnitude
    /// reaches `threshold`: a sound's onset. `nil` when there is none.
    public func onset(from: MonotonicInstant, until: MonotonicInstant, threshold: Float) -> Int? {
        guard let origin else { return nil }
        func frame(_ instant: MonotonicInstant) -> Int {
            Int(max(0, (instant.nanoseconds - origin.nanoseconds) * Int64(sampleRate) / 1_000_000_000))
        }
        let first = frame(from)
        let last = min(samples.count, frame(until))
        guard first < last else { return nil }
        for index in first..<last where abs(samples[index]) >= threshold { return index }
        return nil
    }

    private func check(_ result: Int32, _ call: String) throws(AudioSinkError) {
        guard result < 0 else { return }
        throw AudioSinkError(device: device, call: call, errno: Errno(rawValue: -result), reason: String(cString: snd_strerror(result)))
    }
}
