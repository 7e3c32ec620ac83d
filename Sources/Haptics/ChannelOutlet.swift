import Glibc
import HapticsRendering
import HapticsScheduler
import HapticsSystem
import Synchronization

/// What the scheduler drives on one channel: it forwards each command to the device the engine
/// has put on the channel, so that a channel can serve a new device (the same pad plugged in
/// again) without the scheduler's fixed channel table changing.
///
/// The device is swapped without a lock on the realtime side: the realtime thread marks itself
/// inside (`inFlight`), then reads the device; `bind` swaps it and waits until no call that may
/// have read the old one is still inside, so the old device is never used after `bind` returns.
/// The engine swaps only once the scheduler has let go of every player of the old device, so no
/// command meant for the old device reaches the new one.
final class ChannelOutlet: Actuator, @unchecked Sendable {
    /// The device, retained by the outlet while bound: its object's address, or 0 for none.
    private let target = Atomic<UInt>(0)
    private let inFlight = Atomic<Int>(0)

    init(_ device: any Actuator) {
        bindWithoutWaiting(device)
    }

    deinit {
        release(target.exchange(0, ordering: .sequentiallyConsistent))
    }

    func perform(_ command: ActuatorCommand, channel: ChannelID, deadline: MonotonicInstant, now: MonotonicInstant) {
        withBoundDevice { $0.perform(command, channel: channel, deadline: deadline, now: now) }
    }

    /// The bound device's answer: how long the level it just performed lasts on its own, so the
    /// scheduler renews it in time (a wrapper that did not forward this would let holds end early).
    func lifetimeOfPerformedLevel(on channel: ChannelID, now: MonotonicInstant) -> Duration? {
        withBoundDevice { $0.lifetimeOfPerformedLevel(on: channel, now: now) } ?? nil
    }

    /// Runs `body` with the bound device (`nil` when none is bound), counted in `inFlight` so that
    /// `bind` waits for it. The outlet holds the device's box while bound: no retain.
    @inline(__always)
    private func withBoundDevice<Result>(_ body: (any Actuator) -> Result) -> Result? {
        inFlight.add(1, ordering: .sequentiallyConsistent)
        defer { inFlight.subtract(1, ordering: .sequentiallyConsistent) }
        let address = target.load(ordering: .sequentiallyConsistent)
        guard address != 0 else { return nil }
        return Unmanaged<DeviceBox>.fromOpaque(UnsafeRawPointer(bitPattern: address)!)._withUnsafeGuaranteedRef {
            body($0.device)
        }
    }

    /// Puts `device` on the channel; returns once no realtime call can still reach the old one.
    /// Control side.
    func bind(_ device: any Actuator) {
        let old = target.exchange(Self.retained(device), ordering: .sequentiallyConsistent)
        // A call that read the old device is counted in `inFlight` (it counted itself before
        // reading): wait it out. Commands take microseconds; this never waits for long.
        while inFlight.load(ordering: .sequentiallyConsistent) != 0 { Self.pause() }
        release(old)
    }

    private func bindWithoutWaiting(_ device: any Actuator) {
        target.store(Self.retained(device), ordering: .sequentiallyConsistent)
    }

    private static func retained(_ device: any Actuator) -> UInt {
        UInt(bitPattern: Unmanaged.passRetained(DeviceBox(device)).toOpaque())
    }

    private func release(_ address: UInt) {
        guard address != 0 else { return }
        Unmanaged<DeviceBox>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).release()
    }

    private static func pause() {
        // The realtime side never blocks inside: giving the processor up once is enough.
        sched_yield()
    }

    /// The device behind an existential, as one object the outlet can hold by address.
    private final class DeviceBox {
        let device: any Actuator
        init(_ device: any Actuator) { self.device = device }
    }
}
