import HapticsDevices
import HapticsVirtualDevices

/// Times one trigger at a time against the kernel's receipt stamp on a uinput sink.
///
/// Each measurement is a play and a stop, then a wait until the sink has read both: its queue holds
/// 16 events, so reading after every pair keeps anything from being dropped, and the waiting happens
/// after the trigger, outside what is timed.
struct TriggerLatencyMeasurement {
    let sink: UInputForceFeedbackSink
    /// Records the sink holds before the next measurement.
    var recordsSoFar: Int

    /// Runs `playAndStop` (which returns the CLOCK_MONOTONIC reading taken just before its play) and
    /// returns the nanoseconds from that reading to the kernel's stamp on the play of `effectID`.
    mutating func measure(effectID: Int16, _ playAndStop: () -> Int64) -> Int64 {
        let start = playAndStop()
        let records = sink.waitForRecords(count: recordsSoFar + 2)
        guard records.count >= recordsSoFar + 2 else {
            benchFailure("the sink received \(records.count - recordsSoFar) of the 2 events of a play and stop")
        }
        let play = records[recordsSoFar]
        guard play.event == .play(effectID: effectID, count: 1),
              records[recordsSoFar + 1].event == .stop(effectID: effectID)
        else {
            benchFailure("expected play and stop of effect \(effectID), the sink received \(records[recordsSoFar...].map(\.event))")
        }
        recordsSoFar += 2
        return play.timestamp.nanoseconds - start
    }
}
