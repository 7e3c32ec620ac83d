import Testing
@testable import HapticsPatterns

@Suite("Parameter timeline")
struct ParameterTimelineTests {
    @Test("a curve is flat before its first point, linear between points, flat after its last")
    func curveInterpolation() {
        let curve = ParameterCurve(id: .hapticIntensityControl, time: 0, controlPoints: [
            .init(time: 0, value: 0), .init(time: 1, value: 1), .init(time: 2, value: 0.5),
        ])
        #expect(curve.value(atOffset: -1) == 0)
        #expect(curve.value(atOffset: 0.25) == 0.25)
        #expect(curve.value(atOffset: 1.5) == 0.75)
        #expect(curve.value(atOffset: 3) == 0.5)
    }

    @Test("the most recently started source wins; before any source there is no value")
    func latestSourceWins() {
        let pattern = Pattern(
            parameters: [
                DynamicParameter(id: .hapticIntensityControl, time: 0.5, value: 0.2),
                DynamicParameter(id: .audioPanControl, time: 0, value: -1),
            ],
            curves: [
                ParameterCurve(id: .hapticIntensityControl, time: 1, controlPoints: [
                    .init(time: 0, value: 1), .init(time: 1, value: 0),
                ]),
            ]
        )
        let timeline = ParameterTimeline(pattern)
        #expect(timeline.value(.hapticIntensityControl, at: 0.4) == nil)
        #expect(timeline.value(.hapticIntensityControl, at: 0.5) == 0.2)
        #expect(timeline.value(.hapticIntensityControl, at: 0.9) == 0.2)
        #expect(timeline.value(.hapticIntensityControl, at: 1.25) == 0.75)
        #expect(timeline.value(.hapticIntensityControl, at: 5) == 0)
        #expect(timeline.value(.audioPanControl, at: 3) == -1)
        #expect(timeline.drives(.audioPanControl))
        #expect(!timeline.drives(.hapticSharpnessControl))
    }

    @Test("a step and a curve starting together: the later entry of the pattern wins")
    func tieGoesToTheLaterEntry() {
        let pattern = Pattern(
            parameters: [DynamicParameter(id: .hapticSharpnessControl, time: 1, value: 0.9)],
            curves: [ParameterCurve(id: .hapticSharpnessControl, time: 1, controlPoints: [.init(time: 0, value: -0.5)])]
        )
        #expect(ParameterTimeline(pattern).value(.hapticSharpnessControl, at: 1) == -0.5)
    }
}
