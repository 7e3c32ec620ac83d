#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension HapticAudioRenderer {
    /// sin(2π · cycles).
    @inline(__always)
    func _sine(cycles: Double) -> Double {
        sin(2 * Double.pi * cycles)
    }
}
