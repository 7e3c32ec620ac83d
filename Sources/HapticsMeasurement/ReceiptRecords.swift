import HapticsScheduler
import HapticsVirtualDevices

extension UInputForceFeedbackSink {
    /// The kernel's receipt of every play the device was sent, as trace records on `channel`: what
    /// a trace of an engine playing on it adds once the engine has stopped.
    package func receiptRecords(channel: Int32) -> [TraceRecord] {
        records.compactMap { record in
            guard case .play = record.event else { return nil }
            return TraceRecord(event: .received, channel: channel, player: -1, command: .stop,
                               deadline: record.timestamp, time: record.timestamp)
        }
    }
}

extension VirtualDualSense {
    /// Every output report that set the motors going, as trace records on `channel`: when the
    /// driver's report of a play reached the device.
    package func receiptRecords(channel: Int32) -> [TraceRecord] {
        outputReports.compactMap { report in
            guard report.setsMotors, report.strongMotor > 0 || report.weakMotor > 0 else { return nil }
            return TraceRecord(event: .received, channel: channel, player: -1, command: .stop,
                               deadline: report.receivedAt, time: report.receivedAt)
        }
    }
}
