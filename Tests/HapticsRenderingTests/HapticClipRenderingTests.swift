import Testing
import HapticsPatterns
@testable import HapticsRendering
import HapticsTestSupport
import Foundation

/// What the renderer makes of a pattern and of the same pattern sent through a `.haptic` clip:
/// the clip format is only as good as what a device is sent.
@Suite("A pattern renders the same after AHAP → .haptic → AHAP")
struct HapticClipRenderingTests {
    /// The pattern after a trip through a clip and back through AHAP text.
    static func throughAClip(_ pattern: Pattern) throws -> Pattern {
        let clip = HapticClipEncoder().encode(pattern)
        let decoded = try HapticClipDecoder().decode(clip, fileName: "trip.haptic").pattern
        return try AHAPDecoder().decode(AHAPEncoder().encode(decoded), fileName: "trip.ahap").pattern
    }

    /// The intensity and sharpness a program holds at `offset`: the last command at or before it.
    static func level(_ program: Program, at offset: Int64) -> (intensity: Float, sharpness: Float) {
        var level: (Float, Float) = (0, 0)
        for command in program.commands where command.offsetNanoseconds <= offset { level = (command.intensity, command.sharpness) }
        return level
    }

    /// Every millisecond of both programs on the ideal simulated profile (4 ms ticks, linear, no
    /// floor): the same length, intensities within 1/255, and sharpness within 1/255 wherever
    /// something is felt. Fixtures keep event ends on its 4 ms grid: the renderer stretches an
    /// event that ends between ticks to the next tick, which the clip (holding the shape as
    /// written) does not do, and that is the renderer's rounding, not the clip's.
    static func expectSameRendering(_ original: Pattern, _ back: Pattern) {
        let before = Renderer(profile: .simulated).render(original)
        let after = Renderer(profile: .simulated).render(back)
        #expect(before.durationNanoseconds == after.durationNanoseconds)
        for offset in stride(from: Int64(0), through: before.durationNanoseconds, by: 1_000_000) {
            let was = level(before, at: offset)
            let now = level(after, at: offset)
            #expect(abs(was.intensity - now.intensity) <= 1.0 / 255, "intensity at \(offset) ns")
            if was.intensity > 0 {
                #expect(abs(was.sharpness - now.sharpness) <= 1.0 / 255, "sharpness at \(offset) ns")
            }
        }
    }

    @Test(arguments: Feedback.vocabulary)
    func canonicalPatterns(_ feedback: Feedback) throws {
        let pattern = feedback.canonicalPattern
        Self.expectSameRendering(pattern, try Self.throughAClip(pattern))
    }

    @Test func shapedAndLayeredEvents() throws {
        let pattern = Pattern(events: [
            PatternEvent(kind: .hapticContinuous, time: 0, duration: 0.3, parameters: EventParameters(
                hapticIntensity: 0.6, hapticSharpness: 0.2, attackTime: 0.05, releaseTime: 0.1)),
            PatternEvent(kind: .hapticContinuous, time: 0.1, duration: 0.16, parameters: EventParameters(
                hapticIntensity: 0.3, hapticSharpness: 0.8, sustained: false)),
        ], curves: [
            ParameterCurve(id: .hapticIntensityControl, time: 0.15, controlPoints: [.init(time: 0, value: 1), .init(time: 0.1, value: 0.5)]),
        ])
        Self.expectSameRendering(pattern, try Self.throughAClip(pattern))
    }

    @Test func transientsBetweenAndOnFlatEvents() throws {
        let pattern = Pattern(events: [
            PatternEvent(kind: .hapticContinuous, time: 0, duration: 0.1, parameters: EventParameters(hapticIntensity: 0.4, hapticSharpness: 0.3)),
            PatternEvent(kind: .hapticTransient, time: 0.05, parameters: EventParameters(hapticIntensity: 0.5, hapticSharpness: 0.9)),
            PatternEvent(kind: .hapticTransient, time: 0.3, parameters: EventParameters(hapticIntensity: 1, hapticSharpness: 0.1)),
            PatternEvent(kind: .hapticContinuous, time: 0.5, duration: 0.2, parameters: EventParameters(hapticIntensity: 0.8, hapticSharpness: 0.6)),
        ])
        Self.expectSameRendering(pattern, try Self.throughAClip(pattern))
    }
}
