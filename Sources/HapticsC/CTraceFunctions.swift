import CHapticsABI
import Haptics
import HapticsSystem

// Tracing from C: start, stop, write the Chrome/Perfetto trace-event JSON.

@_cdecl("haptics_start_trace")
public func haptics_start_trace(_ handle: OpaquePointer?) -> Int32 {
    withEngine(handle) { engine in
        engine.startTracing()
        return CResult.ok
    }
}

@_cdecl("haptics_stop_trace")
public func haptics_stop_trace(_ handle: OpaquePointer?) -> Int32 {
    withEngine(handle) { engine in
        engine.stopTracing()
        return CResult.ok
    }
}

@_cdecl("haptics_write_trace")
public func haptics_write_trace(_ handle: OpaquePointer?, _ path: UnsafePointer<CChar>?) -> Int32 {
    guard let path else { return CResult.invalidArgument }
    return withEngine(handle) { engine in
        let file = CText.string(path)
        do throws(SystemCallError) {
            try engine.writeTrace(toFile: file)
            return CResult.ok
        } catch {
            LastError.set("haptics_write_trace: \(file): \(error)")
            return CResult.code(error.errno.rawValue)
        }
    }
}
