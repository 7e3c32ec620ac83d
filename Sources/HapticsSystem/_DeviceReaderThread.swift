import CHapticsSystem
import Glibc
import Synchronization

/// A named thread that calls `handle` whenever a device descriptor is readable, and `tick` every
/// interval when given one, until stopped.
///
/// The hotplug monitor needs one for inotify; virtual devices need one: a uinput upload blocks the uploader in `EVIOCSFF` until the device
/// owner answers, and a uhid probe blocks the kernel until its feature reports are answered, so the
/// owner must read concurrently with whoever drives the device. Stopping wakes the thread through
/// a pipe and joins it, so no callback runs after ``stop()`` returns.
package final class _DeviceReaderThread: @unchecked Sendable {
    private let device: FileDescriptor
    private let wake: FileDescriptor
    private let wakeWriter: FileDescriptor
    private let handle: () -> Void
    private let tick: (interval: Int64, call: () -> Void)?
    private var thread: RealtimeThread?
    /// Set once the thread reaches its first `poll`.
    private let waiting = Atomic<Bool>(false)

    /// Starts the thread. `name` is at most 15 characters (the kernel's limit). With `interval`,
    /// `tick` runs on the thread every interval (a virtual device sending its periodic reports),
    /// between the calls to `handle`, never beside them.
    package init(
        name: String, device: FileDescriptor, every interval: Duration? = nil, tick: (() -> Void)? = nil,
        handle: @escaping () -> Void
    ) throws(SystemCallError) {
        precondition((interval == nil) == (tick == nil), "a tick needs an interval, and an interval a tick")
        precondition(interval.map { $0 >= .milliseconds(1) } ?? true, "a tick interval is at least 1 ms")
        self.device = device
        self.handle = handle
        if let interval, let tick {
            self.tick = (interval.nanoseconds, tick)
        } else {
            self.tick = nil
        }
        var ends: [CInt] = [-1, -1]
        _ = try _SystemCall.run("pipe", fileDescriptor: -1) { Int(pipe(&ends)) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        wake = FileDescriptor(rawValue: ends[0])
        wakeWriter = FileDescriptor(rawValue: ends[1])
        let configuration = RealtimeThread.Configuration(name: name, timerSlack: .zero, realtimeKit: nil)
        do {
            thread = try RealtimeThread.start(configuration) { [self] in run() }
        } catch {
            try? wake.close()
            try? wakeWriter.close()
            throw error
        }
        // Returns once the thread is about to wait: none of its start is left to run later.
        RealtimeThread.yield { waiting.load(ordering: .acquiring) }
    }

    /// Wakes the thread, waits for it to end and releases the wake descriptor. Idempotent.
    package func stop() {
        guard let thread else { return }
        self.thread = nil
        var one: UInt8 = 1
        _ = Glibc.write(wakeWriter.rawValue, &one, 1)
        thread.join()
        try? wake.close()
        try? wakeWriter.close()
    }

    private func run() {
        var entries = [
            pollfd(fd: device.rawValue, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.rawValue, events: Int16(POLLIN), revents: 0),
        ]
        var nextTick = tick.map { MonotonicInstant.now.nanoseconds + $0.interval }
        while true {
            var timeout: CInt = -1
            if let tick, let due = nextTick {
                let now = MonotonicInstant.now.nanoseconds
                if now >= due {
                    tick.call()
                    // Late by more than an interval: start again from now rather than catch up.
                    nextTick = now - due >= tick.interval ? now + tick.interval : due + tick.interval
                    continue
                }
                timeout = CInt(clamping: (due - now + 999_999) / 1_000_000)
            }
            waiting.store(true, ordering: .releasing)
            let ready = poll(&entries, 2, timeout)
            if ready < 0 {
                if Errno.current == .interrupted { continue }
                return
            }
            if ready == 0 { continue }  // the tick is due
            if entries[1].revents != 0 { return }
            if entries[0].revents & Int16(POLLIN) != 0 {
                handle()
            } else if entries[0].revents != 0 {
                return  // POLLHUP/POLLERR: the device is gone; nothing more will arrive.
            }
        }
    }
}
