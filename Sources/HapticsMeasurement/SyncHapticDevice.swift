#if canImport(Glibc)
import HapticsAudio
import Glibc
#endif
import Haptics
import HapticsDevices
import HapticsScheduler
import HapticsVirtualDevices

/// The haptic side of a loopback sync measurement: a uinput device created for it (play times are
/// the kernel's receipt timestamps) or a real device (play times from the engine's trace: when the
/// scheduler handed the start to the device).
final class SyncHapticDevice {
    let output: HapticEngine.Output
    /// Where start times come from, for people.
    let timing: String
    private let sink: UInputForceFeedbackSink?
    /// The device's channel in the engine's trace.
    private var channel: Int32 = 0

    init(configuration: SyncLoopbackTest.Configuration) throws(SyncLoopbackError) {
        if let path = configuration.hapticDevice {
            do {
                output = try HapticEngine.evdevOutput(path: path)
            } catch {
                throw .hapticDevice(error.description)
            }
            sink = nil
            timing = "scheduler trace (sent to the device)"
            return
        }
        guard access(UInputForceFeedbackSink.controlPath, W_OK) == 0 else {
            guard let first = HapticEngine.discoverOutputs(in: configuration.inputDirectory).first else { throw .noHapticDevice }
            output = first
            sink = nil
            timing = "scheduler trace (sent to the device)"
            return
        }
        do {
            let sink = try UInputForceFeedbackSink(.init(name: "haptics sync-test \(getpid())"))
            let device = try EvdevDevice(path: sink.eventNodePath)
            output = HapticEngine.Output(device: EvdevActuator(device: device), profile: configuration.profile,
                                         name: sink.configuration.name, path: sink.eventNodePath)
            self.sink = sink
        } catch {
            throw .hapticDevice("cannot create a uinput device: \(error)")
        }
        timing = "kernel receipt (uinput)"
    }

    /// Whether the device itself says when each haptic started (a uinput device created for the
    /// test); otherwise the start times come from the engine's trace.
    var reportsReceipts: Bool { sink != nil }

    /// The engine's trace of the run, with the uinput device's receipts in it when there is one.
    /// Call after the engine stopped.
    func trace(engine: HapticEngine) -> Trace {
        engine.stopTracing()
        var trace = engine.collectTrace()
        channel = output.path.flatMap { engine.traceChannel(path: $0) } ?? 0
        if let sink {
            // The kernel's receipts arrive after the engine stopped: added to the trace here.
            trace.records += sink.receiptRecords(channel: channel)
        }
        return trace
    }

    /// Every instant a haptic started (a play reached the device, or a non-silent command was sent),
    /// in order.
    func starts(in trace: Trace) -> [MonotonicInstant] {
        if sink != nil {
            return trace.records.filter { $0.event == .received }.map(\.time)
        }
        return trace.records.filter { $0.event == .emitted && $0.channel == channel && !$0.command.isSilent }.map(\.time)
    }

    /// The write that started the haptic found starting at `start`: the last sounding write on the
    /// device's channel that began at or before it.
    func write(startingHapticAt start: MonotonicInstant, in trace: Trace) -> SyncLoopbackTest.HapticWrite? {
        SyncLoopbackTest.HapticWrite(startingHapticAt: start, on: channel, in: trace)
    }

    /// Closes the device (the created one disappears).
    func close() {
        (output.device as? EvdevActuator)?.close()
        sink?.close()
    }
}
