import HapticsDevices
import HapticsScheduler
import HapticsSystem

extension HapticEngine {
    /// Opens an event node as an output, or says why not (`noForceFeedback`, `permissionDenied`…).
    public typealias DeviceOpener = @Sendable (_ path: String) throws(DeviceError) -> Output

    /// Watches `directory` for event nodes: a new force-feedback node is opened with `opener`,
    /// added (the vocabulary loaded on it, current preparations prepared on it) and reported as
    /// `.deviceAdded`; a pad the engine had before comes back as the same `HapticDevice`, with its
    /// settings. A removed node's device is removed, listed as `.lost` and reported as
    /// `.deviceLost`. A node `opener` refuses for lack of permission is listed as `.unavailable`
    /// and reported as `.deviceUnavailable` (once per reason; a permission change re-tries it);
    /// other refusals (no force feedback) are skipped. Replaces an earlier watch; ends with `stop()`.
    public func watchForDevices(in directory: String = "/dev/input", opening opener: @escaping DeviceOpener) throws(DeviceError) {
        let monitor: HotplugMonitor
        do {
            monitor = try HotplugMonitor(directory: directory) { [weak self] change in
                self?.handle(change, opener: opener)
            }
        } catch {
            throw .systemCall(path: directory, error)
        }
        let previous = background.withLock { background in
            defer { background.hotplug = monitor }
            return background.hotplug
        }
        previous?.stop()
    }

    /// Applies one hotplug change. Runs on the monitor's thread.
    func handle(_ change: HotplugMonitor.Change, opener: DeviceOpener) {
        switch change {
        case let .appeared(path):
            guard !hasOutput(path: path) else { return }
            let output: Output
            do throws(DeviceError) {
                output = try opener(path)
            } catch {
                guard case .permissionDenied = error else { return }
                // Describe what can be read of it (a read-only open, sysfs); none: no force feedback.
                guard var info = DeviceCatalog.describe(path: path) else { return }
                info.accessError = error
                if let event = recordUnavailable(info) { eventHub.deliver(event) }
                return
            }
            _ = try? addOutput(output)
        case let .disappeared(path):
            guard let channel = channel(path: path) else {
                // A node that could not be opened went away: its device is gone, not just locked.
                book.withLock { book in
                    for index in book.records.indices where book.records[index].device.path == path {
                        guard case .unavailable = book.records[index].device.state else { continue }
                        book.records[index].device.state = .lost(.deviceLost(path: path, SystemCallError(call: "IN_DELETE", errno: .operationNotSupportedByDevice)))
                    }
                }
                return
            }
            let reported = channelDevices.withLock { $0.first { $0.channel == channel }?.lossReporting?.lossError }
            // The node is gone, so is the device: writes to it would fail with ENODEV.
            let error = reported ?? SystemCallError(call: "IN_DELETE", errno: .operationNotSupportedByDevice)
            reportLoss(of: channel, error: .deviceLost(path: path, error))
        }
    }

    /// Starts the housekeeping thread of a started engine. It runs only when something is due
    /// (``nextHousekeeping(after:)``), the first time too: an idle engine is never woken by it.
    func startHousekeeping() {
        // One thread at a time serves `housekeepingRequests`: any previous one ends first.
        background.withLock { background in
            defer { background.housekeeping = nil }
            return background.housekeeping
        }?.stop()
        let thread: OnDemandThread
        do throws(SystemCallError) {
            thread = try OnDemandThread(name: "haptics-house", requests: housekeepingRequests) { [weak self] now in
                guard let self else { return nil }
                performHousekeeping()
                return nextHousekeeping(after: now)
            }
        } catch {
            // No thread to spare: the engine plays on; what housekeeping does waits for a manual call.
            return
        }
        background.withLock { $0.housekeeping = thread }
        // What was asked before the thread existed (tracing, sound, a preparation…) is due now.
        if let next = nextHousekeeping(after: now) { thread.schedule(at: next) }
    }

    /// How many times a started engine's housekeeping thread has run (0 when it has none).
    package var housekeepingRuns: Int { background.withLock { $0.housekeeping?.runs ?? 0 } }

    /// The interval housekeeping keeps while something needs watching.
    var housekeepingPeriod: Duration { max(configuration.housekeepingInterval, .milliseconds(1)) }

    /// Asks a started engine's housekeeping to run at `instant` (one interval from now when `nil`),
    /// unless it runs sooner anyway. Called by whatever gives housekeeping something to do. Lock-
    /// free once the thread is read; control side.
    func requestHousekeeping(at instant: MonotonicInstant? = nil) {
        let thread = background.withLock { $0.housekeeping }
        thread?.schedule(at: instant ?? now + housekeepingPeriod)
    }

    /// When housekeeping is due next after a run at `now`: one interval on while something needs
    /// watching (tracing, pattern players playing, players kept for feedbackd events, sound
    /// attached, a lost device still to report), else when the oldest unused preparation expires,
    /// else never.
    func nextHousekeeping(after now: MonotonicInstant) -> MonotonicInstant? {
        let watching = isTracing || patternPlayers.players.contains(where: \.needsWatching) || keptPlayers.count > 0
            || audioState.load() != nil
            || channelDevices.withLock { $0.contains { $0.lossReporting?.lossError != nil } }
        if watching { return now + housekeepingPeriod }
        let outputs = channelDevices.withLock { $0.compactMap(\.preparable) }
        guard let oldest = outputs.compactMap({ $0.oldestPreparationUse }).min() else { return nil }
        return max(preparationExpiry(lastUsed: oldest), now + .milliseconds(1))
    }

    /// When a preparation last used at `lastUsed` has expired: just after `prepareLifetime`, so
    /// that a housekeeping run then finds it expired.
    func preparationExpiry(lastUsed: MonotonicInstant) -> MonotonicInstant {
        lastUsed + configuration.prepareLifetime + .milliseconds(1)
    }

    /// Ends hotplug watching and housekeeping.
    func stopBackgroundWork() {
        let (housekeeping, monitor) = background.withLock { background in
            defer { background = EngineBackground() }
            return (background.housekeeping, background.hotplug)
        }
        housekeeping?.stop()
        monitor?.stop()
    }
}
