import CALSA
import CHapticsALSA
#if canImport(Glibc)
import Glibc
#endif
import HapticsSystem

/// A sink playing through an ALSA PCM device (`default`, `hw:0,0`, `hw:Loopback,0,0`, …).
///
/// Opened with the format's channels (stereo unless it says otherwise), rate and sample format,
/// with the period and buffer sizes as close to the requested ones as the device allows
/// (``format`` reports what it granted). Playback
/// starts once the buffer is full, so the stream begins with one buffer of silence. Timestamps are
/// enabled on `CLOCK_MONOTONIC` (`SND_PCM_TSTAMP_TYPE_MONOTONIC`): after every period the sink reads
/// the status — the delay (`snd_pcm_delay`: frames written but not yet heard) and the `htstamp` of
/// that same pointer reading — and reports it as an ``AudioTimestamp``.
///
/// An underrun (`-EPIPE`) or suspend (`-ESTRPIPE`) is recovered with `snd_pcm_recover` and the period
/// written again; any other error — `-ENODEV` when the device is unplugged, `-EBADFD` when the
/// stream is unusable — is reported as a lost device. A free-running sink never underruns: the
/// device plays silence where the writer was late, and ``skipPlayedFrames()`` moves the writer on.
///
/// Frames written but not yet taken by the device can be taken back (``rewindable()``,
/// ``rewind(_:)``: `snd_pcm_rewindable`, `snd_pcm_rewind`) and written again; the sink's frame
/// count moves back with them, so its timestamps keep mapping stream positions to the same
/// instants. ``waitForRoom(orReadable:)`` polls the device beside a descriptor of the caller's, so a
/// writer blocked on a full buffer can be woken.
public final class ALSAAudioSink: AudioSink, @unchecked Sendable {
    /// The device name given to `snd_pcm_open`.
    public let device: String
    /// The stream format: the requested one until ``open()``, then what the device granted.
    public private(set) var format: AudioStreamFormat
    private var pcm: OpaquePointer?
    private var status: OpaquePointer?
    private var conversion: UnsafeMutableRawPointer?
    private var framesWritten: Int64 = 0
    /// The device's poll descriptors and one more slot, for ``waitForRoom(orReadable:)``.
    private var pollEntries: UnsafeMutablePointer<pollfd>?
    private var pollCount = 0

    /// Whether the stream runs on when the writer is late: the device plays silence where no
    /// frame was written (`stop_threshold` and `silence_size` at the boundary), and
    /// ``skipPlayedFrames()`` moves the writer past it; else an underrun stops the stream and the
    /// next write restarts it.
    public let freeRunning: Bool

    /// Creates a sink for `device` (`default` unless the user chose one) that an underrun stops.
    public convenience init(device: String = "default", format: AudioStreamFormat = AudioStreamFormat()) {
        self.init(device: device, format: format, freeRunning: false)
    }

    /// Creates a sink for `device`, free-running or not.
    public init(device: String, format: AudioStreamFormat, freeRunning: Bool) {
        self.device = device
        self.format = format
        self.freeRunning = freeRunning
    }

    deinit {
        close()
    }

    /// Opens and configures the device. The corresponding C function is `snd_pcm_open`.
    public func open() throws(AudioSinkError) -> AudioTimestamp? {
        close()
        var handle: OpaquePointer?
        // ALSA's messages go to its error, not to standard error.
        haptics_alsa_route_messages()
        try check(snd_pcm_open(&handle, device, SND_PCM_STREAM_PLAYBACK, 0), "snd_pcm_open")
        pcm = handle
        do {
            try configure()
        } catch {
            close()
            throw error
        }
        framesWritten = 0
        return nil
    }

    private func configure() throws(AudioSinkError) {
        guard let pcm else { return }
        var hardware: OpaquePointer?
        try check(snd_pcm_hw_params_malloc(&hardware), "snd_pcm_hw_params_malloc")
        defer { snd_pcm_hw_params_free(hardware) }
        try check(snd_pcm_hw_params_any(pcm, hardware), "snd_pcm_hw_params_any")
        try check(snd_pcm_hw_params_set_access(pcm, hardware, SND_PCM_ACCESS_RW_INTERLEAVED),
                  "snd_pcm_hw_params_set_access")
        let sampleFormat = format.sampleFormat == .signed16 ? SND_PCM_FORMAT_S16_LE : SND_PCM_FORMAT_FLOAT_LE
        try check(snd_pcm_hw_params_set_format(pcm, hardware, sampleFormat), "snd_pcm_hw_params_set_format")
        try check(snd_pcm_hw_params_set_channels(pcm, hardware, UInt32(format.channelCount)), "snd_pcm_hw_params_set_channels")
        var rate = UInt32(format.sampleRate)
        try check(snd_pcm_hw_params_set_rate_near(pcm, hardware, &rate, nil), "snd_pcm_hw_params_set_rate_near")
        // Sound is converted and synthesized at this rate, within the range audio files use (which
        // bounds the converter): a device that only offers a rate outside it is refused.
        guard Resampler.supportedRates.contains(Int(rate)) else {
            throw AudioSinkError(device: device, call: "snd_pcm_hw_params_set_rate_near", errno: .invalidArgument,
                                 reason: "the device offers \(rate) Hz, outside \(Resampler.supportedRates.lowerBound) to "
                                     + "\(Resampler.supportedRates.upperBound) Hz")
        }
        var period = snd_pcm_uframes_t(format.periodFrames)
        try check(snd_pcm_hw_params_set_period_size_near(pcm, hardware, &period, nil),
                  "snd_pcm_hw_params_set_period_size_near")
        var buffer = snd_pcm_uframes_t(format.periodFrames * format.periodCount)
        try check(snd_pcm_hw_params_set_buffer_size_near(pcm, hardware, &buffer),
                  "snd_pcm_hw_params_set_buffer_size_near")
        try check(snd_pcm_hw_params(pcm, hardware), "snd_pcm_hw_params")
        try check(snd_pcm_hw_params_get_period_size(hardware, &period, nil), "snd_pcm_hw_params_get_period_size")
        try check(snd_pcm_hw_params_get_buffer_size(hardware, &buffer), "snd_pcm_hw_params_get_buffer_size")
        format = AudioStreamFormat(sampleRate: Int(rate), periodFrames: Int(period),
                                   periodCount: max(1, Int(buffer) / Int(period)),
                                   sampleFormat: format.sampleFormat, channelCount: format.channelCount)

        var software: OpaquePointer?
        try check(snd_pcm_sw_params_malloc(&software), "snd_pcm_sw_params_malloc")
        defer { snd_pcm_sw_params_free(software) }
        try check(snd_pcm_sw_params_current(pcm, software), "snd_pcm_sw_params_current")
        // Start once the whole buffer is queued; wake the writer for every period of room.
        try check(snd_pcm_sw_params_set_start_threshold(pcm, software, buffer), "snd_pcm_sw_params_set_start_threshold")
        try check(snd_pcm_sw_params_set_avail_min(pcm, software, period), "snd_pcm_sw_params_set_avail_min")
        if freeRunning {
            var boundary = snd_pcm_uframes_t(0)
            try check(snd_pcm_sw_params_get_boundary(software, &boundary), "snd_pcm_sw_params_get_boundary")
            try check(snd_pcm_sw_params_set_stop_threshold(pcm, software, boundary), "snd_pcm_sw_params_set_stop_threshold")
            try check(snd_pcm_sw_params_set_silence_threshold(pcm, software, 0), "snd_pcm_sw_params_set_silence_threshold")
            try check(snd_pcm_sw_params_set_silence_size(pcm, software, boundary), "snd_pcm_sw_params_set_silence_size")
        }
        try check(snd_pcm_sw_params_set_tstamp_mode(pcm, software, SND_PCM_TSTAMP_ENABLE),
                  "snd_pcm_sw_params_set_tstamp_mode")
        try check(snd_pcm_sw_params_set_tstamp_type(pcm, software, SND_PCM_TSTAMP_TYPE_MONOTONIC),
                  "snd_pcm_sw_params_set_tstamp_type")
        try check(snd_pcm_sw_params(pcm, software), "snd_pcm_sw_params")

        var statusPointer: OpaquePointer?
        try check(snd_pcm_status_malloc(&statusPointer), "snd_pcm_status_malloc")
        status = statusPointer
        let bytesPerSample = format.sampleFormat == .signed16 ? 2 : 4
        conversion = .allocate(byteCount: format.channelCount * Int(period) * bytesPerSample, alignment: 16)
        // The device's poll descriptors, and a slot for the writer's wake-up descriptor.
        let descriptors = snd_pcm_poll_descriptors_count(pcm)
        try check(descriptors, "snd_pcm_poll_descriptors_count")
        let entries = UnsafeMutablePointer<pollfd>.allocate(capacity: Int(descriptors) + 1)
        entries.initialize(repeating: pollfd(fd: -1, events: 0, revents: 0), count: Int(descriptors) + 1)
        pollEntries = entries
        let filled = snd_pcm_poll_descriptors(pcm, entries, UInt32(descriptors))
        try check(filled, "snd_pcm_poll_descriptors")
        pollCount = Int(filled)
        try check(snd_pcm_prepare(pcm), "snd_pcm_prepare")
    }

    /// Writes one period (blocking while the buffer is full), recovering underruns, then reads the
    /// status. The corresponding C functions are `snd_pcm_writei` and `snd_pcm_status`.
    public func write(_ frames: UnsafePointer<Float>) -> AudioSinkWrite {
        guard let pcm, let conversion else { return AudioSinkWrite(status: .deviceLost(errno: Errno(rawValue: EBADFD)), timestamp: nil) }
        let periodFrames = format.periodFrames
        let count = format.channelCount * periodFrames
        switch format.sampleFormat {
        case .signed16:
            let samples = conversion.assumingMemoryBound(to: Int16.self)
            for index in 0..<count { samples[index] = WAVFileSink.pcm16(frames[index]) }
        case .float32:
            let samples = conversion.assumingMemoryBound(to: Float.self)
            for index in 0..<count { samples[index] = min(max(frames[index], -1), 1) }
        }
        let bytesPerFrame = format.channelCount * (format.sampleFormat == .signed16 ? 2 : 4)
        var recovered = false
        var done = 0
        while done < periodFrames {
            let result = snd_pcm_writei(pcm, conversion + done * bytesPerFrame, snd_pcm_uframes_t(periodFrames - done))
            if result >= 0 {
                done += Int(result)
                continue
            }
            let code = Int32(result)
            if code == -EINTR { continue }
            if code == -EPIPE || code == -ESTRPIPE, snd_pcm_recover(pcm, code, 1) == 0 {
                recovered = true
                continue
            }
            return AudioSinkWrite(status: .deviceLost(errno: Errno(rawValue: -code)), timestamp: nil)
        }
        framesWritten += Int64(periodFrames)
        return AudioSinkWrite(status: recovered ? .recoveredUnderrun : .written, timestamp: readTimestamp())
    }

    /// The frames written that the device has not taken yet, its pointer brought up to date first.
    /// The corresponding C functions are `snd_pcm_avail` and `snd_pcm_rewindable`.
    public func rewindable() -> Int64 {
        guard let pcm, snd_pcm_avail(pcm) >= 0 else { return 0 }
        return max(0, Int64(snd_pcm_rewindable(pcm)))
    }

    /// Moves the application pointer back by up to `frames`; the device plays what is written there
    /// next. A device that allows no rewinds takes back nothing. The corresponding C function is
    /// `snd_pcm_rewind`.
    public func rewind(_ frames: Int64) -> Int64 {
        guard let pcm, frames > 0 else { return 0 }
        let taken = Int64(snd_pcm_rewind(pcm, snd_pcm_uframes_t(frames)))
        guard taken > 0 else { return 0 }
        framesWritten -= taken
        return taken
    }

    /// In a free-running stream, forwards the application pointer over the frames the device
    /// played past it (played as silence). The corresponding C functions are `snd_pcm_avail` and
    /// `snd_pcm_forward`.
    public func skipPlayedFrames() -> Int64 {
        guard freeRunning, let pcm else { return 0 }
        let avail = Int64(snd_pcm_avail(pcm))
        let late = avail - Int64(format.bufferFrames)
        guard late > 0 else { return 0 }
        let moved = Int64(snd_pcm_forward(pcm, snd_pcm_uframes_t(late)))
        guard moved > 0 else { return 0 }
        framesWritten += moved
        return moved
    }

    /// Polls the device's descriptors and `descriptor` until the device has room for a period
    /// (its `avail_min`), is in error, or `descriptor` is readable. The corresponding C functions
    /// are `poll` and `snd_pcm_poll_descriptors_revents`.
    public func waitForRoom(orReadable descriptor: Int32) {
        guard let pcm, let pollEntries else { return }
        pollEntries[pollCount] = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(pollEntries, nfds_t(pollCount + 1), -1)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 || pollEntries[pollCount].revents != 0 { return }
            var events: UInt16 = 0
            guard snd_pcm_poll_descriptors_revents(pcm, pollEntries, UInt32(pollCount), &events) == 0 else { return }
            if events & UInt16(POLLOUT | POLLERR) != 0 { return }
        }
    }

    /// The delay and its htstamp, when the stream runs (before it starts there is nothing to time).
    private func readTimestamp() -> AudioTimestamp? {
        guard let pcm, let status, snd_pcm_status(pcm, status) == 0,
              snd_pcm_status_get_state(status) == SND_PCM_STATE_RUNNING else { return nil }
        var stamp = snd_htimestamp_t()
        snd_pcm_status_get_htstamp(status, &stamp)
        let instant = Int64(stamp.tv_sec) * 1_000_000_000 + Int64(stamp.tv_nsec)
        guard instant > 0 else { return nil }
        return AudioTimestamp(framesWritten: framesWritten, delayFrames: Int64(snd_pcm_status_get_delay(status)),
                              instant: MonotonicInstant(nanoseconds: instant))
    }

    /// Drops what is queued and closes the device. The corresponding C function is `snd_pcm_close`.
    public func close() {
        if let pcm {
            snd_pcm_drop(pcm)
            snd_pcm_close(pcm)
            self.pcm = nil
        }
        if let status {
            snd_pcm_status_free(status)
            self.status = nil
        }
        conversion?.deallocate()
        conversion = nil
        pollEntries?.deallocate()
        pollEntries = nil
        pollCount = 0
    }

    private func check(_ result: Int32, _ call: String) throws(AudioSinkError) {
        guard result < 0 else { return }
        throw AudioSinkError(device: device, call: call, errno: Errno(rawValue: -result), reason: String(cString: snd_strerror(result)),
                             alsaMessage: String(cString: haptics_alsa_last_message()))
    }
}
