import Haptics
import HapticsSystem
import HapticsVirtualDevices

/// `--trace <file.json>`: the engine's trace of a command's run, written as Chrome/Perfetto
/// trace-event JSON. A command that runs several engines one after the other (`demo`) adds each
/// engine's trace; they share one file and one time origin.
final class TraceFile {
    /// The help row every command with `--trace` shows.
    static let help = HelpRow("--trace <file.json>", "Write the engine's trace: every command's stages (submitted, dequeued, written, felt), as Chrome/Perfetto trace-event JSON (ui.perfetto.dev, chrome://tracing).")

    let path: String
    private(set) var trace: Trace?

    init(path: String) {
        self.path = path
    }

    /// Adds what `engine` traced (call once it has stopped).
    func add(from engine: HapticEngine) {
        engine.stopTracing()
        add(engine.collectTrace())
    }

    /// Adds a trace: its records after those before (their submission numbers after those before),
    /// its devices and threads to those known.
    func add(_ more: Trace) {
        guard var merged = trace else {
            trace = more
            return
        }
        // Each engine numbers its submissions from 1: the later ones' numbers follow on, so
        // that every flow keeps its own id.
        let offset = merged.records.map(\.sequence).max() ?? 0
        merged.records += more.records.map { record in
            var record = record
            if record.sequence != 0 { record.sequence &+= offset }
            return record
        }
        for device in more.devices where merged.device(device.channel) == nil { merged.devices.append(device) }
        merged.threadNames.merge(more.threadNames) { first, _ in first }
        merged.lost += more.lost
        trace = merged
    }

    /// Writes the trace (an empty one when nothing was added).
    func write(_ context: CommandContext) throws(CommandLineError) {
        let trace = self.trace ?? Trace(records: [], devices: [], lost: 0, origin: .now, processName: "haptics", threadNames: [:])
        try OutputFile.write(Array(trace.json().utf8), to: path, context)
    }
}
