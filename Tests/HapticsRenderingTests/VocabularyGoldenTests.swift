import Testing
import HapticsPatterns
@testable import HapticsRendering

/// Every vocabulary item rendered on three profiles, command by command.
///
/// Values were printed with `goldenLiteral(_:)` and checked by hand: e.g. the heavy impact
/// (sharpness 0.3) drives the strong motor fully and the weak one at 0.6 of its drive; the rigid
/// impact (sharpness 1) only the weak motor; transients last the profile's minimum pulse.
@Suite struct VocabularyGoldenTests {
    @Test func genericRumble_selection() {
        let program = Renderer(profile: .genericRumble).render(VocabularyFixtures.selection)
        #expect(program.golden == [
            G(0, .rumble(strong: 17666, weak: 34334)),
            G(60_000_000, .stop),
        ])
    }

    @Test func genericRumble_impactLight() {
        let program = Renderer(profile: .genericRumble).render(VocabularyFixtures.impactLight)
        #expect(program.golden == [
            G(0, .rumble(strong: 13914, weak: 15755)),
            G(60_000_000, .stop),
        ])
    }

    @Test func genericRumble_impactMedium() {
        let program = Renderer(profile: .genericRumble).render(VocabularyFixtures.impactMedium)
        #expect(program.golden == [
            G(0, .rumble(strong: 34334, weak: 34334)),
            G(80_000_000, .stop),
        ])
    }

    @Test func genericRumble_impactHeavy() {
        let program = Renderer(profile: .genericRumble).render(VocabularyFixtures.impactHeavy)
        #expect(program.golden == [
            G(0, .rumble(strong: 65535, weak: 41942)),
            G(160_000_000, .stop),
        ])
    }

    @Test func genericRumble_impactRigid() {
        let program = Renderer(profile: .genericRumble).render(VocabularyFixtures.impactRigid)
        #expect(program.golden == [
            G(0, .rumble(strong: 0, weak: 65535)),
            G(60_000_000, .stop),
        ])
    }

    @Test func genericRumble_impactSoft() {
        let program = Renderer(profile: .genericRumble).render(VocabularyFixtures.impactSoft)
        #expect(program.golden == [
            G(0, .rumble(strong: 15755, weak: 8394)),
            G(160_000_000, .stop),
        ])
    }

    @Test func genericRumble_success() {
        let program = Renderer(profile: .genericRumble).render(VocabularyFixtures.success)
        #expect(program.golden == [
            G(0, .rumble(strong: 15814, weak: 15814)),
            G(60_000_000, .stop),
            G(120_000_000, .rumble(strong: 65535, weak: 65535)),
            G(360_000_000, .stop),
        ])
    }

    @Test func genericRumble_warning() {
        let program = Renderer(profile: .genericRumble).render(VocabularyFixtures.warning)
        #expect(program.golden == [
            G(0, .rumble(strong: 65535, weak: 65535)),
            G(120_000_000, .stop),
            G(360_000_000, .rumble(strong: 34275, weak: 34275)),
            G(640_000_000, .stop),
        ])
    }

    @Test func genericRumble_error() {
        let program = Renderer(profile: .genericRumble).render(VocabularyFixtures.error)
        #expect(program.golden == [
            G(0, .rumble(strong: 34275, weak: 34275)),
            G(80_000_000, .stop),
            G(160_000_000, .rumble(strong: 34275, weak: 34275)),
            G(240_000_000, .stop),
            G(320_000_000, .rumble(strong: 65535, weak: 65535)),
            G(480_000_000, .stop),
        ])
    }

    @Test func phoneVibra_selection() {
        let program = Renderer(profile: .phoneVibra).render(VocabularyFixtures.selection)
        #expect(program.golden == [
            G(0, .periodic(waveform: .sine, periodMilliseconds: 26, magnitude: 18900)),
            G(80_000_000, .stop),
        ])
    }

    @Test func phoneVibra_impactLight() {
        let program = Renderer(profile: .phoneVibra).render(VocabularyFixtures.impactLight)
        #expect(program.golden == [
            G(0, .periodic(waveform: .sine, periodMilliseconds: 32, magnitude: 10643)),
            G(80_000_000, .stop),
        ])
    }

    @Test func phoneVibra_impactMedium() {
        let program = Renderer(profile: .phoneVibra).render(VocabularyFixtures.impactMedium)
        #expect(program.golden == [
            G(0, .periodic(waveform: .sine, periodMilliseconds: 35, magnitude: 18900)),
            G(80_000_000, .stop),
        ])
    }

    @Test func phoneVibra_impactHeavy() {
        let program = Renderer(profile: .phoneVibra).render(VocabularyFixtures.impactHeavy)
        #expect(program.golden == [
            G(0, .periodic(waveform: .sine, periodMilliseconds: 41, magnitude: 32767)),
            G(160_000_000, .stop),
        ])
    }

    @Test func phoneVibra_impactRigid() {
        let program = Renderer(profile: .phoneVibra).render(VocabularyFixtures.impactRigid)
        #expect(program.golden == [
            G(0, .periodic(waveform: .sine, periodMilliseconds: 20, magnitude: 32767)),
            G(80_000_000, .stop),
        ])
    }

    @Test func phoneVibra_impactSoft() {
        let program = Renderer(profile: .phoneVibra).render(VocabularyFixtures.impactSoft)
        #expect(program.golden == [
            G(0, .periodic(waveform: .sine, periodMilliseconds: 47, magnitude: 10643)),
            G(160_000_000, .stop),
        ])
    }

    @Test func phoneVibra_success() {
        let program = Renderer(profile: .phoneVibra).render(VocabularyFixtures.success)
        #expect(program.golden == [
            G(0, .periodic(waveform: .sine, periodMilliseconds: 35, magnitude: 10669)),
            G(80_000_000, .stop),
            G(120_000_000, .periodic(waveform: .sine, periodMilliseconds: 35, magnitude: 32767)),
            G(360_000_000, .stop),
        ])
    }

    @Test func phoneVibra_warning() {
        let program = Renderer(profile: .phoneVibra).render(VocabularyFixtures.warning)
        #expect(program.golden == [
            G(0, .periodic(waveform: .sine, periodMilliseconds: 35, magnitude: 32767)),
            G(120_000_000, .stop),
            G(360_000_000, .periodic(waveform: .sine, periodMilliseconds: 35, magnitude: 18874)),
            G(640_000_000, .stop),
        ])
    }

    @Test func phoneVibra_error() {
        let program = Renderer(profile: .phoneVibra).render(VocabularyFixtures.error)
        #expect(program.golden == [
            G(0, .periodic(waveform: .sine, periodMilliseconds: 35, magnitude: 18874)),
            G(80_000_000, .stop),
            G(160_000_000, .periodic(waveform: .sine, periodMilliseconds: 35, magnitude: 18874)),
            G(240_000_000, .stop),
            G(320_000_000, .periodic(waveform: .sine, periodMilliseconds: 35, magnitude: 32767)),
            G(480_000_000, .stop),
        ])
    }

    @Test func dualSense_selection() {
        let program = Renderer(profile: .dualSense).render(VocabularyFixtures.selection)
        #expect(program.golden == [
            G(0, .rumble(strong: 15006, weak: 32600)),
            G(40_000_000, .stop),
        ])
    }

    @Test func dualSense_impactLight() {
        let program = Renderer(profile: .dualSense).render(VocabularyFixtures.impactLight)
        #expect(program.golden == [
            G(0, .rumble(strong: 11047, weak: 12989)),
            G(40_000_000, .stop),
        ])
    }

    @Test func dualSense_impactMedium() {
        let program = Renderer(profile: .dualSense).render(VocabularyFixtures.impactMedium)
        #expect(program.golden == [
            G(0, .rumble(strong: 32600, weak: 32600)),
            G(80_000_000, .stop),
        ])
    }

    @Test func dualSense_impactHeavy() {
        let program = Renderer(profile: .dualSense).render(VocabularyFixtures.impactHeavy)
        #expect(program.golden == [
            G(0, .rumble(strong: 65535, weak: 40632)),
            G(160_000_000, .stop),
        ])
    }

    @Test func dualSense_impactRigid() {
        let program = Renderer(profile: .dualSense).render(VocabularyFixtures.impactRigid)
        #expect(program.golden == [
            G(0, .rumble(strong: 0, weak: 65535)),
            G(40_000_000, .stop),
        ])
    }

    @Test func dualSense_impactSoft() {
        let program = Renderer(profile: .dualSense).render(VocabularyFixtures.impactSoft)
        #expect(program.golden == [
            G(0, .rumble(strong: 12989, weak: 5219)),
            G(160_000_000, .stop),
        ])
    }

    @Test func dualSense_success() {
        let program = Renderer(profile: .dualSense).render(VocabularyFixtures.success)
        #expect(program.golden == [
            G(0, .rumble(strong: 13051, weak: 13051)),
            G(40_000_000, .stop),
            G(120_000_000, .rumble(strong: 65535, weak: 65535)),
            G(360_000_000, .stop),
        ])
    }

    @Test func dualSense_warning() {
        let program = Renderer(profile: .dualSense).render(VocabularyFixtures.warning)
        #expect(program.golden == [
            G(0, .rumble(strong: 65535, weak: 65535)),
            G(120_000_000, .stop),
            G(360_000_000, .rumble(strong: 32538, weak: 32538)),
            G(640_000_000, .stop),
        ])
    }

    @Test func dualSense_error() {
        let program = Renderer(profile: .dualSense).render(VocabularyFixtures.error)
        #expect(program.golden == [
            G(0, .rumble(strong: 32538, weak: 32538)),
            G(80_000_000, .stop),
            G(160_000_000, .rumble(strong: 32538, weak: 32538)),
            G(240_000_000, .stop),
            G(320_000_000, .rumble(strong: 65535, weak: 65535)),
            G(480_000_000, .stop),
        ])
    }
}
