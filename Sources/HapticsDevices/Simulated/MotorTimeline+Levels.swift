import HapticsRendering
import HapticsSystem

extension MotorTimeline {
    /// The state of every motor between two commands, normalized from the kernel's ranges.
    public struct Levels: Sendable, Hashable {
        /// Strong rumble motor, 0…1 (`strong / 0xFFFF`).
        public var strong: Double
        /// Weak rumble motor, 0…1 (`weak / 0xFFFF`).
        public var weak: Double
        /// Periodic effect magnitude, 0…1 (`|magnitude| / 0x7FFF`, clamped).
        public var magnitude: Double
        /// Periodic effect period in milliseconds (0 when no periodic effect plays).
        public var periodMilliseconds: Int
        /// Periodic effect waveform, when one plays.
        public var waveform: PeriodicWaveform?
        /// Constant force, −1…1 (`level / 0x7FFF`, clamped); the sign is the direction.
        public var level: Double

        /// Everything still.
        public static let silent = Levels(
            strong: 0, weak: 0, magnitude: 0, periodMilliseconds: 0, waveform: nil, level: 0
        )

        /// Creates levels.
        public init(strong: Double, weak: Double, magnitude: Double, periodMilliseconds: Int,
                    waveform: PeriodicWaveform?, level: Double) {
            self.strong = strong
            self.weak = weak
            self.magnitude = magnitude
            self.periodMilliseconds = periodMilliseconds
            self.waveform = waveform
            self.level = level
        }

        /// The levels a command leaves the actuator in.
        public init(_ command: ActuatorCommand) {
            self = .silent
            switch command {
            case let .rumble(strong, weak):
                self.strong = Double(strong) / Double(UInt16.max)
                self.weak = Double(weak) / Double(UInt16.max)
            case let .periodic(waveform, period, magnitude):
                self.magnitude = min(Double(magnitude.magnitude) / Double(Int16.max), 1)
                self.periodMilliseconds = Int(period)
                self.waveform = waveform
            case let .constant(level):
                self.level = max(min(Double(level) / Double(Int16.max), 1), -1)
            case .stop:
                break
            }
        }

        /// How strongly `motor` moves, 0…1 (a constant force counts by its size, whatever its direction).
        public func value(of motor: Motor) -> Double {
            switch motor {
            case .strong: return strong
            case .weak: return weak
            case .magnitude: return magnitude
            case .level: return abs(level)
            }
        }
    }

    /// Levels that take effect at a time.
    public struct Step: Sendable, Hashable {
        /// The span from the timeline's origin.
        public var time: Duration
        /// The levels from `time` until the next step.
        public var levels: Levels

        /// Creates a step.
        public init(time: Duration, levels: Levels) {
            self.time = time
            self.levels = levels
        }
    }
}
