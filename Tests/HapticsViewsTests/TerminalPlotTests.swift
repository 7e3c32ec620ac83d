import HapticsRendering
import Testing
@testable import HapticsDevices
@testable import HapticsViews

@Suite struct TerminalPlotTests {
    let ms: Int64 = 1_000_000

    /// A heavy hit on both motors, a 1 ms weak pulse (shorter than a column) and a faint strong tail.
    var rumble: MotorTimeline {
        MotorTimeline(commands: [
            TimedCommand(offsetNanoseconds: 0, intensity: 1, sharpness: 0, command: .rumble(strong: 0xFFFF, weak: 0x7FFF)),
            TimedCommand(offsetNanoseconds: 10 * ms, intensity: 0, sharpness: 0, command: .stop),
            TimedCommand(offsetNanoseconds: 12 * ms, intensity: 1, sharpness: 1, command: .rumble(strong: 0, weak: 0xFFFF)),
            TimedCommand(offsetNanoseconds: 13 * ms, intensity: 0.1, sharpness: 0, command: .rumble(strong: 0x2000, weak: 0)),
            TimedCommand(offsetNanoseconds: 30 * ms, intensity: 0, sharpness: 0, command: .stop),
        ], end: .milliseconds(40))
    }

    @Test func drawsOneRowPerMotorATimeAxisAndPeaks() {
        #expect(TerminalPlot.draw(rumble, width: 20, color: false) == """
            strong │█████ ▁▁▁▁▁▁▁▁▁     │ peak 1.00
            weak   │▄▄▄▄▄ █             │ peak 1.00
                   └┬─────────┬─────────┘
                    0         20        40 ms

            """)
    }

    @Test func colorWrapsOnlyTheBars() {
        #expect(TerminalPlot.draw(rumble, width: 20, color: true) == """
            strong │\u{1B}[31m█████ ▁▁▁▁▁▁▁▁▁     \u{1B}[0m│ peak 1.00
            weak   │\u{1B}[36m▄▄▄▄▄ █             \u{1B}[0m│ peak 1.00
                   └┬─────────┬─────────┘
                    0         20        40 ms

            """)
    }

    @Test func periodicRowNamesItsPeriodRange() {
        let timeline = MotorTimeline(commands: [
            TimedCommand(offsetNanoseconds: 0, intensity: 1, sharpness: 0,
                         command: .periodic(waveform: .sine, periodMilliseconds: 25, magnitude: 0x4000)),
            TimedCommand(offsetNanoseconds: 1 * ms, intensity: 1, sharpness: 0,
                         command: .periodic(waveform: .sine, periodMilliseconds: 10, magnitude: 0x7FFF)),
            TimedCommand(offsetNanoseconds: 1_600_000, intensity: 0, sharpness: 0, command: .stop),
        ], end: .milliseconds(2))
        #expect(TerminalPlot.draw(timeline, width: 20, color: false) == """
            magnitude │▄▄▄▄▄▄▄▄▄▄██████    │ peak 1.00, period 10–25 ms
                      └┬─────────┬─────────┘
                       0         1         2 ms

            """)
    }

    @Test func stepsBelowAMillisecondGetDecimalLabels() {
        let timeline = MotorTimeline(commands: [
            TimedCommand(offsetNanoseconds: 0, intensity: 1, sharpness: 0, command: .constant(level: -0x4000)),
            TimedCommand(offsetNanoseconds: 1 * ms, intensity: 0, sharpness: 0, command: .stop),
        ], end: .milliseconds(2))
        #expect(TerminalPlot.draw(timeline, width: 40, color: false) == """
            level │▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄                    │ peak 0.50
                  └┬─────────┬─────────┬─────────┬─────────┘
                   0.0       0.5       1.0       1.5       2.0 ms

            """)
    }

    @Test func blocksRoundUpToTheNextEighthSoAnyMotionShows() {
        #expect(TerminalPlot.block(for: 0) == " ")
        #expect(TerminalPlot.block(for: 0.0001) == "▁")
        #expect(TerminalPlot.block(for: 0.125) == "▁")
        #expect(TerminalPlot.block(for: 0.126) == "▂")
        #expect(TerminalPlot.block(for: 0.5) == "▄")
        #expect(TerminalPlot.block(for: 0.51) == "▅")
        #expect(TerminalPlot.block(for: 1) == "█")
    }
}
