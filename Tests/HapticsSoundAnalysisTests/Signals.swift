#if canImport(Glibc)
import Glibc
#endif
import HapticsAudio
import HapticsTestSupport

/// Sounds with known answers, made sample by sample.
enum Signals {
    /// A click: 3 ms of a 3 kHz sine falling from `amplitude` to nothing, starting at `time`.
    static func clicks(at times: [Double], duration: Double, rate: Int, amplitude: Double = 0.8) -> [Double] {
        var samples = [Double](repeating: 0, count: Int(duration * Double(rate)))
        let length = Int(0.003 * Double(rate))
        for time in times {
            let start = Int((time * Double(rate)).rounded())
            for index in 0..<length where start + index < samples.count {
                let t = Double(index) / Double(rate)
                samples[start + index] += amplitude * (1 - Double(index) / Double(length)) * sin(2 * .pi * 3_000 * t + .pi / 2)
            }
        }
        return samples
    }

    /// A sine burst of `frequency` from `start` for `length` seconds, with 2 ms ramps at each end.
    static func tone(_ frequency: Double, start: Double, length: Double, duration: Double, rate: Int,
                     amplitude: Double = 0.5) -> [Double] {
        var samples = [Double](repeating: 0, count: Int(duration * Double(rate)))
        let first = Int(start * Double(rate))
        let count = Int(length * Double(rate))
        let ramp = Double(rate) * 0.002
        for index in 0..<count where first + index < samples.count {
            let gain = min(1, Double(index) / ramp, Double(count - index) / ramp)
            samples[first + index] = amplitude * gain * sin(2 * .pi * frequency * Double(index) / Double(rate))
        }
        return samples
    }

    /// White noise (a fixed generator, so every run is the same) starting at `start`, falling by
    /// e every `decay` seconds.
    static func decayingNoise(start: Double, decay: Double, duration: Double, rate: Int) -> [Double] {
        var samples = [Double](repeating: 0, count: Int(duration * Double(rate)))
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let first = Int(start * Double(rate))
        for index in first..<samples.count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let uniform = Double(state >> 11) / Double(1 << 53) * 2 - 1
            samples[index] = 0.9 * uniform * exp(-Double(index - first) / Double(rate) / decay)
        }
        return samples
    }

    /// `mono` written as a WAV file of `encoding` (stereo: the same in both channels).
    static func wav(_ mono: [Double], rate: Int, encoding: WAVSampleEncoding, channels: Int = 1) -> [UInt8] {
        var data: [UInt8] = []
        for sample in mono {
            let clamped = min(max(sample, -1), 1)
            for _ in 0..<channels {
                switch encoding {
                case .unsignedInteger8:
                    data.append(UInt8(max(0, min(255, (clamped * 128 + 128).rounded()))))
                case .signedInteger16:
                    let value = Int16(max(-32_768, min(32_767, (clamped * 32_768).rounded())))
                    data += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
                case .signedInteger24:
                    let value = Int32(max(-8_388_608, min(8_388_607, (clamped * 8_388_608).rounded())))
                    data += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8),
                             UInt8(truncatingIfNeeded: value >> 16)]
                case .float32:
                    let bits = Float(clamped).bitPattern
                    data += (0..<4).map { UInt8((bits >> (8 * $0)) & 0xFF) }
                }
            }
        }
        let (tag, bits): (UInt16, UInt16) = switch encoding {
        case .unsignedInteger8: (1, 8)
        case .signedInteger16: (1, 16)
        case .signedInteger24: (1, 24)
        case .float32: (3, 32)
        }
        return wavBytes(formatTag: tag, channels: UInt16(channels), sampleRate: UInt32(rate), bits: bits, data: data)
    }

    /// `mono` as decoded mono 32-bit float audio.
    static func sound(_ mono: [Double], rate: Int) -> WAVSamples {
        WAVSamples(sampleRate: rate, channelCount: 1, encoding: .float32, samples: mono.map { Float($0) })
    }
}
