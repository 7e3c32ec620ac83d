import HapticsRendering

/// What the realtime side last sent to a channel.
struct ChannelState {
    var last: ActuatorCommand = .stop
    var silent = true
}
