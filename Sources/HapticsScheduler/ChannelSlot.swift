import HapticsRendering

/// A channel's fixed configuration, written once by `addChannel` before the channel is published.
struct ChannelSlot {
    let output: any Actuator
    let profile: DeviceProfile
    let policy: OverlapPolicy
}
