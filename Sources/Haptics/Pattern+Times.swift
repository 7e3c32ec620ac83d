import HapticsPatterns
import HapticsRendering

extension Pattern {
    /// Checks that every time of a pattern built in code is a finite number of seconds from 0 that
    /// ends within `HapticEngine.maximumPatternDuration`, the bound rendering keeps to: events (time
    /// and end), parameters, curves (start and each control point's end). A decoded file always
    /// passes (it is held to 600 s); this is the check a pattern built in code gets instead. The
    /// continuous events' durations must also sum to at most `Renderer.maximumHapticTime`.
    func validateTimes() throws(EngineError) {
        let limit = HapticEngine.maximumPatternDuration.patternSeconds
        func check(_ seconds: Double, _ path: @autoclosure () -> String) throws(EngineError) {
            guard seconds.isFinite, seconds >= 0, seconds <= limit else {
                throw .patternTimeOutOfRange(path: path(), seconds: seconds)
            }
        }
        var hapticTime = 0.0
        let hapticLimit = Renderer.maximumHapticTime.patternSeconds
        for (index, event) in events.enumerated() {
            try check(event.time, "events[\(index)].time")
            if let duration = event.duration {
                try check(duration, "events[\(index)].duration")
                try check(event.time + duration, "events[\(index)].duration")
            }
            if event.kind == .hapticContinuous {
                hapticTime += event.resolvedDuration
                guard hapticTime <= hapticLimit else {
                    throw .hapticTimeOverLimit(path: "events[\(index)].duration", seconds: hapticTime)
                }
            }
        }
        for (index, parameter) in parameters.enumerated() {
            try check(parameter.time, "parameters[\(index)].time")
        }
        for (index, curve) in curves.enumerated() {
            try check(curve.time, "curves[\(index)].time")
            for (point, control) in curve.controlPoints.enumerated() {
                try check(control.time, "curves[\(index)].controlPoints[\(point)].time")
                try check(curve.time + control.time, "curves[\(index)].controlPoints[\(point)].time")
            }
        }
    }
}
