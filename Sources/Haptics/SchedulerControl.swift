import HapticsPatterns
import HapticsRendering
import HapticsScheduler

/// The part of `Scheduler<Clock>` the engine uses, so the engine itself need not be generic over
/// the clock: production engines run on `SystemMonotonicClock`, tests on `ManualClock`.
protocol SchedulerControl: AnyObject, Sendable {
    func currentTime() -> MonotonicInstant
    func addChannel(output: any ActuatorOutput, profile: DeviceProfile, policy: OverlapPolicy) -> ChannelID
    func load(_ program: Program) throws -> ProgramID
    func unload(_ program: ProgramID)
    func makePlayer(program: ProgramID, channel: ChannelID) throws -> PlayerID
    func releasePlayer(_ player: PlayerID)
    func start(_ player: PlayerID, at time: MonotonicInstant) -> Bool
    func stop(_ player: PlayerID, at time: MonotonicInstant) -> Bool
    func seek(_ player: PlayerID, to offset: Int64, at time: MonotonicInstant) -> Bool
    func setRate(_ player: PlayerID, _ rate: Double, at time: MonotonicInstant) -> Bool
    func setLoop(_ player: PlayerID, _ enabled: Bool, at time: MonotonicInstant) -> Bool
    func setParameter(_ player: PlayerID, _ id: DynamicParameterID, value: Double, at time: MonotonicInstant) -> Bool
    func stopAll(at time: MonotonicInstant) -> Bool
    func process() -> MonotonicInstant?
    func startRealtimeThread() throws
    func stopRealtimeThread()
}

extension Scheduler: SchedulerControl {
    func currentTime() -> MonotonicInstant { clock.now() }
}
