import HapticsDevices
import HapticsPatterns

/// Draws a ``MotorTimeline`` as text: one row of block characters per motor, a time axis in
/// milliseconds, and each motor's peak. Deterministic, so its output can be compared exactly.
///
/// ```
/// strong │█████ ▁▁▁▁▁▁▁▁▁     │ peak 1.00
/// weak   │▄▄▄▄▄ █             │ peak 1.00
///        └┬─────────┬─────────┘
///         0         20        40 ms
/// ```
/// Each column shows the highest level reached during its slice of time, so a pulse shorter than a
/// column still shows.
public enum TerminalPlot {
    /// The eight block heights, lowest first; a silent column is a space.
    static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// Draws `timeline` with `width` time columns; `color` adds ANSI colors to the motor rows.
    ///
    /// - Precondition: `width >= 8`.
    public static func draw(_ timeline: MotorTimeline, width: Int = 72, color: Bool) -> String {
        precondition(width >= 8, "TerminalPlot needs at least 8 columns, got \(width)")
        // Columns are cut in whole nanoseconds.
        let duration = max(timeline.duration.nanoseconds, 1)
        let start = timeline.start.nanoseconds
        let labelWidth = timeline.motors.map(\.rawValue.count).max() ?? 0
        let indent = String(repeating: " ", count: labelWidth)
        var output = ""

        for motor in timeline.motors {
            var bars = ""
            for column in 0..<width {
                let from = start + duration * Int64(column) / Int64(width)
                let to = start + duration * Int64(column + 1) / Int64(width)
                bars.append(block(for: highest(motor, in: timeline, from: from, to: to)))
            }
            if color { bars = ansiColor(motor) + bars + "\u{1B}[0m" }
            let name = motor.rawValue + String(repeating: " ", count: labelWidth - motor.rawValue.count)
            output += "\(name) │\(bars)│ \(legend(motor, in: timeline))\n"
        }

        let axis = PlotTimeAxis(duration: duration, maximumTicks: max(1, width / 10))
        var axisLine = Array(repeating: Character("─"), count: width)
        var labelLine = Array(repeating: Character(" "), count: width + 16)
        var nextFree = 0
        for tick in axis.ticks {
            // A tick marks the column that starts at its time; the end of the timeline is the
            // right border, which keeps its corner.
            let column = Int(tick * Int64(width) / duration)
            if column < width { axisLine[column] = "┬" }
            let text = Array(axis.label(tick))
            // Skip a label that would touch the previous one.
            guard column >= nextFree, column + text.count < labelLine.count else { continue }
            labelLine.replaceSubrange(column..<column + text.count, with: text)
            nextFree = column + text.count + 1
        }
        // The unit follows the last label, one space after it.
        output += "\(indent) └\(String(axisLine))┘\n"
        output += "\(indent)  \(String(labelLine[0..<nextFree]))ms\n"
        return output
    }

    /// The highest level `motor` reaches in `[from, to)` (nanoseconds from the origin).
    static func highest(_ motor: MotorTimeline.Motor, in timeline: MotorTimeline, from: Int64, to: Int64) -> Double {
        var highest = 0.0
        for (index, step) in timeline.steps.enumerated() {
            let stepEnd = (index + 1 < timeline.steps.count ? timeline.steps[index + 1].time : timeline.end).nanoseconds
            if step.time.nanoseconds < max(to, from + 1) && stepEnd > from {
                highest = max(highest, step.levels.value(of: motor))
            }
        }
        return highest
    }

    /// A block whose height rounds `level` up to the next eighth, so any motion shows.
    static func block(for level: Double) -> Character {
        guard level > 0 else { return " " }
        // The allowance keeps a kernel value one step above an eighth (0x2000 of 0xFFFF) on that eighth.
        let index = Int((level * 8 - 1e-3).rounded(.up)) - 1
        return blocks[min(max(index, 0), blocks.count - 1)]
    }

    static func legend(_ motor: MotorTimeline.Motor, in timeline: MotorTimeline) -> String {
        var text = "peak \(NumberText.fixed(timeline.peak(of: motor), digits: 2))"
        if motor == .magnitude, let periods = timeline.periodRange {
            text += periods.count == 1
                ? ", period \(periods.lowerBound) ms"
                : ", period \(periods.lowerBound)–\(periods.upperBound) ms"
        }
        return text
    }

    static func ansiColor(_ motor: MotorTimeline.Motor) -> String {
        switch motor {
        case .strong: return "\u{1B}[31m"
        case .weak: return "\u{1B}[36m"
        case .magnitude: return "\u{1B}[35m"
        case .level: return "\u{1B}[32m"
        }
    }
}
