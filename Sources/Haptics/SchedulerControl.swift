import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import HapticsSystem

/// The part of `Scheduler<Clock>` the engine uses, so the engine itself need not be generic over
/// the clock: production engines run on `SystemMonotonicClock`, tests on `ManualClock`.
protocol SchedulerControl: AnyObject, Sendable {
    func currentTime() -> MonotonicInstant
    func addChannel(output: any Actuator, profile: DeviceProfile, policy: OverlapPolicy) throws(SchedulerError) -> ChannelID
    var channelTotal: Int { get }
    func load(_ program: Program) throws -> ProgramID
    func unload(_ program: ProgramID) -> Bool
    func makePlayer(program: ProgramID, channel: ChannelID) throws -> PlayerID
    func releasePlayer(_ player: PlayerID)
    func start(_ player: PlayerID, at time: MonotonicInstant) -> Bool
    func start(_ player: PlayerID, at time: MonotonicInstant, tag: Int64) -> Bool
    func pause(_ player: PlayerID, at time: MonotonicInstant) -> Bool
    func resume(_ player: PlayerID, at time: MonotonicInstant) -> Bool
    func setCurve(_ player: PlayerID, _ curve: ParameterCurve, startingAt origin: MonotonicInstant, scale: Double) throws(SchedulerError) -> Bool
    func progress(of player: PlayerID, at instant: MonotonicInstant?) -> PlayerProgress?
    func validateCurve(_ curve: ParameterCurve, scale: Double) throws(SchedulerError)
    func drainEndings(into endings: inout [PlayerEnding]) -> Int
    func stop(_ player: PlayerID, at time: MonotonicInstant) -> Bool
    func seek(_ player: PlayerID, to offset: Duration, at time: MonotonicInstant) -> Bool
    func setRate(_ player: PlayerID, _ rate: Double, at time: MonotonicInstant) throws(SchedulerError) -> Bool
    func setLoop(_ player: PlayerID, _ enabled: Bool, at time: MonotonicInstant) -> Bool
    func setParameter(_ player: PlayerID, _ id: DynamicParameterID, value: Double, at time: MonotonicInstant) throws(SchedulerError) -> Bool
    func beginImmediateGroup(now: MonotonicInstant?) -> ImmediateGroup
    @discardableResult func endImmediateGroup(_ group: ImmediateGroup) -> ImmediateProcessing
    func start(_ player: PlayerID, at time: MonotonicInstant, tag: Int64, intensity: Double,
               in group: inout ImmediateGroup) throws(SchedulerError) -> Bool
    func setMotorLevels(low: Double, high: Double, on channel: ChannelID, at time: MonotonicInstant,
                        until end: MonotonicInstant, in group: inout ImmediateGroup) throws(SchedulerError) -> Bool
    func stopAll(at time: MonotonicInstant) -> Bool
    func setMotorLevels(low: Double, high: Double, on channel: ChannelID, at time: MonotonicInstant,
                        until end: MonotonicInstant) throws(SchedulerError) -> Bool
    func stopPlayers(on channel: ChannelID, at time: MonotonicInstant) -> Bool
    func releasePlayers(on channel: ChannelID) -> Int
    func processingMark() -> ProcessingMark
    func hasPassed(_ mark: ProcessingMark) -> Bool
    func requestProcessingPass()
    func setChannelProfile(_ channel: ChannelID, _ profile: DeviceProfile, after mark: ProcessingMark) throws(SchedulerError)
    func process() -> MonotonicInstant?
    func startRealtime() throws
    func stopRealtime()
    func drainTrace(into records: inout [TraceRecord]) -> Int
    func startTracing()
    func stopTracing()
    var isTracing: Bool { get }
    var realtimeThread: (id: Int32, name: String) { get }
    var realtimeGrant: RealtimeThread.Grant? { get }
    func recordTrace(_ record: TraceRecord)
    func makeTraceSequence() -> UInt32
    var traceOverflowTotal: Int { get }
}

extension Scheduler: SchedulerControl {
    func currentTime() -> MonotonicInstant { clock.now() }
    var traceOverflowTotal: Int { statistics.traceOverflows }
    var realtimeGrant: RealtimeThread.Grant? { statistics.realtimeThread }

    // The realtime thread sleeps on CLOCK_MONOTONIC itself, so it exists only for schedulers on the
    // system clock; engines on other clocks are driven with `process()`.
    func startRealtime() throws {
        guard let system = self as? Scheduler<SystemMonotonicClock> else { throw EngineError.clockNotRealtime }
        try system.startRealtimeThread()
    }

    func stopRealtime() {
        (self as? Scheduler<SystemMonotonicClock>)?.stopRealtimeThread()
    }
}
