import Dispatch
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
                        book.records[index].device.state = .lost(.deviceLost(path: path, SystemCallError(call: "IN_DELETE", errno: .noSuchDevice)))
                    }
                }
                return
            }
            let reported = channelDevices.withLock { $0.first { $0.channel == channel }?.lossReporting?.lossError }
            // The node is gone, so is the device: writes to it would fail with ENODEV.
            let error = reported ?? SystemCallError(call: "IN_DELETE", errno: .noSuchDevice)
            reportLoss(of: channel, error: .deviceLost(path: path, error))
        }
    }

    /// Starts the periodic housekeeping of a started engine.
    func startHousekeeping() {
        let interval = Int(max(configuration.housekeepingInterval, .milliseconds(1)).nanoseconds)
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "haptics.housekeeping"))
        timer.schedule(deadline: .now() + .nanoseconds(interval), repeating: .nanoseconds(interval))
        timer.setEventHandler { [weak self] in self?.performHousekeeping() }
        let previous = background.withLock { background in
            defer { background.housekeeping = timer }
            return background.housekeeping
        }
        previous?.cancel()
        timer.resume()
    }

    /// Ends hotplug watching and housekeeping.
    func stopBackgroundWork() {
        let (timer, monitor) = background.withLock { background in
            defer { background = EngineBackground() }
            return (background.housekeeping, background.hotplug)
        }
        timer?.cancel()
        monitor?.stop()
    }
}
