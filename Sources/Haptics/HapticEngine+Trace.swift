import HapticsScheduler
import HapticsSystem
import Synchronization

/// What the engine keeps of a trace between `startTracing()` and `collectTrace()`: records drained
/// from the scheduler's ring (at housekeeping and at collection) and the devices seen.
struct TraceLog {
    /// The most records one trace keeps (≈ 64 MiB); later ones are counted as lost.
    static let recordLimit = 1 << 20

    var records: [TraceRecord] = []
    var origin = MonotonicInstant(nanoseconds: 0)
    /// The scheduler's overflow count when tracing started, and records over `recordLimit`.
    var overflowsAtStart = 0
    var overLimit = 0
    var devices: [Int32: Trace.Device] = [:]
    /// Names of the threads that recorded, read while they run (the realtime thread's is gone once
    /// the engine stopped).
    var threadNames: [Int32: String] = [:]
    /// The latest instant an `audible` record in `records` names: a cancellation from after it has
    /// nothing to take back.
    var latestAudible = MonotonicInstant(nanoseconds: .min)
}

extension HapticEngine {
    /// Starts tracing: from now on every command records the stages it passes (submitted on the
    /// caller's thread, dequeued by the realtime thread, written, felt; received and audible where
    /// observed), into a preallocated ring of `Configuration.scheduler.traceCapacity` records that
    /// the engine's housekeeping empties. Whatever an earlier trace collected is discarded. Any
    /// thread.
    ///
    /// While tracing, the realtime thread reads the clock twice per write and appends fixed-size
    /// records without locking or allocating; a full ring counts the records it loses (the trace
    /// reports them). Not tracing, it pays one load per write.
    public func startTracing() {
        scheduler.stopTracing()
        var discarded: [TraceRecord] = []
        traceLog.withLock { log in
            _ = scheduler.drainTrace(into: &discarded)
            log = TraceLog()
            log.origin = scheduler.currentTime()
            log.overflowsAtStart = scheduler.statistics.traceOverflows
            log.devices = traceDevices()
        }
        scheduler.startTracing()
        // Collects the records while tracing is on.
        requestHousekeeping()
    }

    /// Stops tracing; what was recorded stays for `collectTrace()` and `writeTrace(toFile:)`.
    public func stopTracing() {
        scheduler.stopTracing()
        collectTraceRecords()
    }

    /// Whether the engine is tracing.
    public var isTracing: Bool { scheduler.isTracing }

    /// Everything recorded since `startTracing()`, with the devices and threads it names. Tracing
    /// goes on if it was on. Control side: allocates, reads thread names from `/proc`.
    public func collectTrace() -> Trace {
        collectTraceRecords()
        let log = traceLog.withLock { $0 }
        let lost = scheduler.statistics.traceOverflows - log.overflowsAtStart + log.overLimit
        return Trace(records: log.records, devices: log.devices.values.sorted { $0.channel < $1.channel },
                     lost: lost, origin: log.origin,
                     processName: ThreadIdentity.processName ?? "haptics", threadNames: log.threadNames)
    }

    /// Writes `collectTrace().json()` to `path` (replacing it atomically): open it in the Perfetto
    /// UI (ui.perfetto.dev) or `chrome://tracing`.
    ///
    /// - Throws: `SystemCallError` of the `open`, `write`, `fsync` or `rename` that failed.
    public func writeTrace(toFile path: String) throws(SystemCallError) {
        try FileDescriptor.writeContents(Array(collectTrace().json().utf8), toFile: path)
    }

    /// Records that the device on event node `path` was seen receiving a command at `instant` (a
    /// uinput sink's event time, a virtual DualSense's output report): the trace matches it to the
    /// last write to that device that began before it. Does nothing when not tracing or when no
    /// device has that path. Any thread; looks the channel up under the devices' lock.
    public func recordDeviceReceipt(at instant: MonotonicInstant, path: String) {
        guard isTracing, let channel = channel(path: path) else { return }
        scheduler.recordTrace(TraceRecord(event: .received, channel: Int32(channel.rawValue), player: -1,
                                          command: .stop, deadline: instant, time: instant))
    }

    /// Records that a sound the caller asked for at `called` becomes audible at `audible`, the
    /// instant the engine placed it on the audio output. `player` is the trace's id of the
    /// scheduler player whose timeline the sound follows (`PlayerID.traceSlot`: a pattern player's
    /// first output that plays, or its first output), −1 for none (a feedback's cue goes with every
    /// device's start). A sound silenced before it is heard is taken back (`withdrawAudible`).
    /// Does nothing when not tracing. Lock-free, allocation-free.
    func recordAudible(at audible: MonotonicInstant, calledAt called: MonotonicInstant, player: Int32 = -1) {
        scheduler.recordTrace(TraceRecord(event: .audible, channel: -1, player: player, command: .stop,
                                          deadline: audible, time: audible, began: called))
    }

    /// Takes back the `audible` records of the sounds a cancellation from `time` keeps from being
    /// heard, of the players `matches` accepts (by `TraceRecord.player`): those due at or after
    /// `time` and after what the audio output may already have mixed (now + its
    /// `minimumLeadTime`). Does nothing when not tracing. Control side: drains the trace ring and
    /// takes the trace's lock.
    func withdrawAudible(from time: MonotonicInstant, players matches: (Int32) -> Bool) {
        guard isTracing else { return }
        let mixed = scheduler.currentTime() + (audioState.load()?.output.minimumLeadTime ?? .zero)
        let from = max(time, mixed)
        collectTraceRecords()
        traceLog.withLock { log in
            guard log.latestAudible >= from else { return }
            log.records.removeAll { $0.event == .audible && $0.time >= from && matches($0.player) }
        }
    }

    /// The scheduler channel of the live output on event node `path`, to match trace records.
    public func traceChannel(path: String) -> Int32? {
        channel(path: path).map { Int32($0.rawValue) }
    }

    /// Moves what the scheduler's ring holds into the trace log (housekeeping, collection).
    func collectTraceRecords() {
        traceLog.withLock { log in
            var drained: [TraceRecord] = []
            _ = scheduler.drainTrace(into: &drained)
            let room = max(0, TraceLog.recordLimit - log.records.count)
            log.records += drained.prefix(room)
            log.overLimit += max(0, drained.count - room)
            for record in drained.prefix(room) where record.event == .audible {
                log.latestAudible = max(log.latestAudible, record.time)
            }
            for (channel, device) in traceDevices() { log.devices[channel] = device }
            for record in drained where record.thread != 0 && log.threadNames[record.thread] == nil {
                // The realtime thread may have ended (the engine stopped) before its records came here.
                let realtime = scheduler.realtimeThread
                if let name = ThreadIdentity.name(of: record.thread) ?? (record.thread == realtime.id ? realtime.name : nil) {
                    log.threadNames[record.thread] = name
                }
            }
        }
    }

    /// The live devices as the trace names them.
    private func traceDevices() -> [Int32: Trace.Device] {
        channelDevices.withLock { devices in
            var result: [Int32: Trace.Device] = [:]
            for device in devices {
                let channel = Int32(device.channel.rawValue)
                result[channel] = Trace.Device(channel: channel, name: device.output.name, path: device.output.path,
                                               riseTime: device.profile.riseTime)
            }
            return result
        }
    }
}

extension PlayerID {
    /// The player as trace records name it (`TraceRecord.player`): its slot, the low 32 bits of
    /// `rawValue`.
    var traceSlot: Int32 { Int32(truncatingIfNeeded: rawValue & 0xFFFF_FFFF) }
}
