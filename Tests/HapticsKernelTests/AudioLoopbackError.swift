/// A failed ALSA call in the loopback test.
struct LoopbackError: Error, CustomStringConvertible {
    var call: String
    var reason: String
    var description: String { "\(call): \(reason)" }
}
