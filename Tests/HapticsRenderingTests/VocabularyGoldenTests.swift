import Testing
import HapticsPatterns
@testable import HapticsRendering

/// Every vocabulary item's canonical pattern (`Patterns/*.ahap`) rendered on three profiles,
/// command by command.
///
/// Values were printed with `goldenLiteral(_:)` and checked by hand against the profile's mapping:
/// - sharpness 0.5 (notifications, light, medium, heavy) drives both motors equally, so the heavy
///   impact runs both motors at full drive for 160 ms;
/// - the rigid impact (sharpness 0.9) is weak-motor dominant: the strong motor gets 0.2 of its drive;
/// - the soft impact (sharpness 0.1) is strong-motor dominant at a low level (intensity 0.156);
/// - the selection tick (sharpness 0.7) leans to the weak motor (strong at 0.6 of its drive);
/// - 40 ms pulses are stretched to the profile's minimum pulse (60 ms on generic-rumble, 80 ms on
///   phone-vibra; dualsense's 40 ms minimum leaves them as written), but never into the tick before
///   the next pulse: on phone-vibra success's first pulse stops at 60 ms, leaving 60…80 ms silent
///   before the second pulse's onset, so it is 20 ms shorter than the minimum pulse;
/// - success and warning are two pulses, error four pulses whose last one ends at 0.48 s as written.
@Suite struct VocabularyGoldenTests {
    @Test func goldensCoverTheWholeVocabulary() {
        let names = Feedback.vocabulary.map(\.name).sorted()
        #expect(Self.genericRumble.keys.sorted() == names)
        #expect(Self.phoneVibra.keys.sorted() == names)
        #expect(Self.dualSense.keys.sorted() == names)
    }

    @Test(arguments: Feedback.vocabulary)
    func genericRumble(_ feedback: Feedback) {
        let program = Renderer(profile: .genericRumble).render(feedback.canonicalPattern)
        #expect(program.golden == Self.genericRumble[feedback.name])
    }

    @Test(arguments: Feedback.vocabulary)
    func phoneVibra(_ feedback: Feedback) {
        let program = Renderer(profile: .phoneVibra).render(feedback.canonicalPattern)
        #expect(program.golden == Self.phoneVibra[feedback.name])
    }

    @Test(arguments: Feedback.vocabulary)
    func dualSense(_ feedback: Feedback) {
        let program = Renderer(profile: .dualSense).render(feedback.canonicalPattern)
        #expect(program.golden == Self.dualSense[feedback.name])
    }

    /// Floor 0.10, 20 ms ticks, 60 ms minimum pulse.
    static let genericRumble: [String: [G]] = [
        "notification.success": [
            G(0, .rumble(strong: 15814, weak: 15814)),
            G(60_000_000, .stop),
            G(80_000_000, .rumble(strong: 65535, weak: 65535)),
            G(240_000_000, .stop),
        ],
        "notification.warning": [
            G(0, .rumble(strong: 65535, weak: 65535)),
            G(120_000_000, .stop),
            G(240_000_000, .rumble(strong: 34275, weak: 34275)),
            G(300_000_000, .stop),
        ],
        "notification.error": [
            G(0, .rumble(strong: 34334, weak: 34334)),
            G(80_000_000, .stop),
            G(120_000_000, .rumble(strong: 34334, weak: 34334)),
            G(200_000_000, .stop),
            G(240_000_000, .rumble(strong: 65535, weak: 65535)),
            G(400_000_000, .stop),
            G(440_000_000, .rumble(strong: 15814, weak: 15814)),
            G(500_000_000, .stop),
        ],
        "impact.light": [
            G(0, .rumble(strong: 15755, weak: 15755)),
            G(60_000_000, .stop),
        ],
        "impact.medium": [
            G(0, .rumble(strong: 34334, weak: 34334)),
            G(80_000_000, .stop),
        ],
        "impact.heavy": [
            G(0, .rumble(strong: 65535, weak: 65535)),
            G(160_000_000, .stop),
        ],
        "impact.soft": [
            G(0, .rumble(strong: 15755, weak: 8394)),
            G(160_000_000, .stop),
        ],
        "impact.rigid": [
            G(0, .rumble(strong: 18350, weak: 65535)),
            G(60_000_000, .stop),
        ],
        "selection": [
            G(0, .rumble(strong: 23222, weak: 34334)),
            G(60_000_000, .stop),
        ],
    ]

    /// Floor 0.20, periods 20–50 ms, 20 ms ticks, 80 ms minimum pulse.
    static let phoneVibra: [String: [G]] = [
        "notification.success": [
            G(0, .periodic(waveform: .sine, periodMilliseconds: 35, magnitude: 10669)),
            G(60_000_000, .stop),
            G(80_000_000, .periodic(waveform: .sine, periodMilliseconds: 35, magnitude: 32767)),
            G(240_000_000, .stop),
        ],
        "notification.warning": [
            G(0, .periodic(waveform: .sine, periodMilliseconds: 35, magnitude: 32767)),
            G(120_000_000, .stop),
            G(240_000_000, .periodic(waveform: .sine, periodMilliseconds: 35, magnitude: 18874)),
            G(320_000_000, .stop),
        ],
        "notification.error": [
            G(0, .periodic(waveform: .sine, periodMilliseconds: 35, magnitude: 18900)),
            G(80_000_000, .stop),
            G(120_000_000, .periodic(waveform: .sine, periodMilliseconds: 35, magnitude: 18900)),
            G(200_000_000, .stop),
            G(240_000_000, .periodic(waveform: .sine, periodMilliseconds: 35, magnitude: 32767)),
            G(400_000_000, .stop),
            G(440_000_000, .periodic(waveform: .sine, periodMilliseconds: 35, magnitude: 10669)),
            G(520_000_000, .stop),
        ],
        "impact.light": [
            G(0, .periodic(waveform: .sine, periodMilliseconds: 35, magnitude: 10643)),
            G(80_000_000, .stop),
        ],
        "impact.medium": [
            G(0, .periodic(waveform: .sine, periodMilliseconds: 35, magnitude: 18900)),
            G(80_000_000, .stop),
        ],
        "impact.heavy": [
            G(0, .periodic(waveform: .sine, periodMilliseconds: 35, magnitude: 32767)),
            G(160_000_000, .stop),
        ],
        "impact.soft": [
            G(0, .periodic(waveform: .sine, periodMilliseconds: 47, magnitude: 10643)),
            G(160_000_000, .stop),
        ],
        "impact.rigid": [
            G(0, .periodic(waveform: .sine, periodMilliseconds: 23, magnitude: 32767)),
            G(80_000_000, .stop),
        ],
        "selection": [
            G(0, .periodic(waveform: .sine, periodMilliseconds: 29, magnitude: 18900)),
            G(80_000_000, .stop),
        ],
    ]

    /// Floor 0.05, 8 ms ticks, 40 ms minimum pulse.
    static let dualSense: [String: [G]] = [
        "notification.success": [
            G(0, .rumble(strong: 13051, weak: 13051)),
            G(40_000_000, .stop),
            G(80_000_000, .rumble(strong: 65535, weak: 65535)),
            G(240_000_000, .stop),
        ],
        "notification.warning": [
            G(0, .rumble(strong: 65535, weak: 65535)),
            G(120_000_000, .stop),
            G(240_000_000, .rumble(strong: 32538, weak: 32538)),
            G(280_000_000, .stop),
        ],
        "notification.error": [
            G(0, .rumble(strong: 32600, weak: 32600)),
            G(80_000_000, .stop),
            G(120_000_000, .rumble(strong: 32600, weak: 32600)),
            G(200_000_000, .stop),
            G(240_000_000, .rumble(strong: 65535, weak: 65535)),
            G(400_000_000, .stop),
            G(440_000_000, .rumble(strong: 13051, weak: 13051)),
            G(480_000_000, .stop),
        ],
        "impact.light": [
            G(0, .rumble(strong: 12989, weak: 12989)),
            G(40_000_000, .stop),
        ],
        "impact.medium": [
            G(0, .rumble(strong: 32600, weak: 32600)),
            G(80_000_000, .stop),
        ],
        "impact.heavy": [
            G(0, .rumble(strong: 65535, weak: 65535)),
            G(160_000_000, .stop),
        ],
        "impact.soft": [
            G(0, .rumble(strong: 12989, weak: 5219)),
            G(160_000_000, .stop),
        ],
        "impact.rigid": [
            G(0, .rumble(strong: 15728, weak: 65535)),
            G(40_000_000, .stop),
        ],
        "selection": [
            G(0, .rumble(strong: 20871, weak: 32600)),
            G(40_000_000, .stop),
        ],
    ]
}
