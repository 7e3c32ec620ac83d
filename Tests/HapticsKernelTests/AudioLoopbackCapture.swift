import CALSA
import Glibc

/// The capture end of the snd-aloop cable: records what the engine plays into `hw:Loopback,0,0`,
/// and where each captured frame arrived on `CLOCK_MONOTONIC`.
///
/// After every read it takes the status: at `htstamp`, `framesRead + delay` frames had arrived, so
/// capture position 0 arrived at `htstamp − (framesRead + delay) / rate`. The pointer only lags, so
/// the earliest such origin over the run is the truth (the same reading the playback side uses).
final class AudioLoopbackCapture {
    let sampleRate = 48_000
    let periodFrames: Int
    private var pcm: OpaquePointer?
    private var status: OpaquePointer?
    let isFloat: Bool
    /// Captured stereo samples, interleaved, in −1…1.
    private(set) var samples: [Float] = []
    private(set) var origins: [Int64] = []
    private var framesRead: Int64 = 0

    init(device: String = "hw:Loopback,1,0", periodFrames: Int, capacityFrames: Int, float: Bool) throws {
        self.periodFrames = periodFrames
        isFloat = float
        samples.reserveCapacity(2 * capacityFrames)
        try check(snd_pcm_open(&pcm, device, SND_PCM_STREAM_CAPTURE, 0), "snd_pcm_open")
        var hardware: OpaquePointer?
        try check(snd_pcm_hw_params_malloc(&hardware), "snd_pcm_hw_params_malloc")
        defer { snd_pcm_hw_params_free(hardware) }
        try check(snd_pcm_hw_params_any(pcm, hardware), "snd_pcm_hw_params_any")
        try check(snd_pcm_hw_params_set_access(pcm, hardware, SND_PCM_ACCESS_RW_INTERLEAVED), "set_access")
        try check(snd_pcm_hw_params_set_format(pcm, hardware, float ? SND_PCM_FORMAT_FLOAT_LE : SND_PCM_FORMAT_S16_LE), "set_format")
        try check(snd_pcm_hw_params_set_channels(pcm, hardware, 2), "set_channels")
        try check(snd_pcm_hw_params_set_rate(pcm, hardware, 48_000, 0), "set_rate")
        try check(snd_pcm_hw_params_set_period_size(pcm, hardware, snd_pcm_uframes_t(periodFrames), 0), "set_period_size")
        // About a second: a reader the loaded guest leaves waiting a whole buffer loses frames
        // without an overrun (the kernel sees the pointer modulo the buffer), and the earliest
        // origin then puts every later frame early by what was lost (see ALSACaptureStream).
        try check(snd_pcm_hw_params_set_buffer_size(pcm, hardware, snd_pcm_uframes_t(periodFrames * 192)), "set_buffer_size")
        try check(snd_pcm_hw_params(pcm, hardware), "snd_pcm_hw_params")
        var software: OpaquePointer?
        try check(snd_pcm_sw_params_malloc(&software), "snd_pcm_sw_params_malloc")
        defer { snd_pcm_sw_params_free(software) }
        try check(snd_pcm_sw_params_current(pcm, software), "sw_params_current")
        try check(snd_pcm_sw_params_set_tstamp_mode(pcm, software, SND_PCM_TSTAMP_ENABLE), "set_tstamp_mode")
        try check(snd_pcm_sw_params_set_tstamp_type(pcm, software, SND_PCM_TSTAMP_TYPE_MONOTONIC), "set_tstamp_type")
        try check(snd_pcm_sw_params(pcm, software), "snd_pcm_sw_params")
        try check(snd_pcm_status_malloc(&status), "snd_pcm_status_malloc")
        try check(snd_pcm_prepare(pcm), "snd_pcm_prepare")
        try check(snd_pcm_start(pcm), "snd_pcm_start")
    }

    deinit {
        if let pcm { snd_pcm_close(pcm) }
        if let status { snd_pcm_status_free(status) }
    }

    /// Reads one period (blocking) and its timing.
    func readPeriod() throws {
        var buffer = [UInt8](repeating: 0, count: 2 * periodFrames * (isFloat ? 4 : 2))
        let count = buffer.withUnsafeMutableBytes { snd_pcm_readi(pcm, $0.baseAddress, snd_pcm_uframes_t(periodFrames)) }
        try check(Int32(truncatingIfNeeded: count < 0 ? count : 0), "snd_pcm_readi")
        buffer.withUnsafeBytes { bytes in
            for index in 0..<2 * Int(count) {
                samples.append(isFloat ? bytes.load(fromByteOffset: 4 * index, as: Float.self)
                    : Float(bytes.load(fromByteOffset: 2 * index, as: Int16.self)) / 32_768)
            }
        }
        framesRead += Int64(count)
        try check(snd_pcm_status(pcm, status), "snd_pcm_status")
        var stamp = snd_htimestamp_t()
        snd_pcm_status_get_htstamp(status, &stamp)
        let instant = Int64(stamp.tv_sec) * 1_000_000_000 + Int64(stamp.tv_nsec)
        let arrived = framesRead + Int64(snd_pcm_status_get_delay(status))
        origins.append(instant - arrived * 1_000_000_000 / Int64(sampleRate))
    }

    /// When capture position 0 arrived (the earliest origin of all readings).
    var origin: Int64 { origins.min() ?? 0 }

    /// Capture frames where the left channel rises above `threshold` after at least `quiet` silent frames.
    func onsets(threshold: Float, quiet: Int) -> [Int] {
        var found: [Int] = []
        var silent = quiet
        for frame in 0..<samples.count / 2 {
            if abs(samples[2 * frame]) >= threshold {
                if silent >= quiet { found.append(frame) }
                silent = 0
            } else {
                silent += 1
            }
        }
        return found
    }

    private func check(_ result: Int32, _ call: String) throws {
        guard result < 0 else { return }
        throw LoopbackError(call: call, reason: String(cString: snd_strerror(result)))
    }
}
