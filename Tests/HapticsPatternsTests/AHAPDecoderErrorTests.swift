import Testing
@testable import HapticsPatterns

@Suite("AHAP decoding errors name the file, line, column, path, expectation and finding")
struct AHAPDecoderErrorTests {
    @Test func wrongTypeForEventDuration() {
        let text = """
            {
              "Version": 1.0,
              "Pattern": [
                { "Event": { "Time": 0.0, "EventType": "HapticTransient" } },
                { "Event": { "Time": 0.1, "EventType": "HapticContinuous", "EventDuration": "abc" } }
              ]
            }
            """
        #expect(decodingError(text) == #"x.ahap:5:81: Pattern[1].Event.EventDuration: expected a number ≥ 0, found "abc""#)
    }

    @Test func missingEventType() {
        #expect(
            decodingError(fileWithEvent(#"{ "Time": 0 }"#))
                == #"x.ahap:3:16: Pattern[0].Event: missing required key "EventType""#)
    }

    @Test func missingTime() {
        #expect(
            decodingError(fileWithEvent(#"{ "EventType": "HapticTransient" }"#))
                == #"x.ahap:3:16: Pattern[0].Event: missing required key "Time""#)
    }

    @Test func negativeTime() {
        #expect(
            decodingError(fileWithEvent(#"{ "EventType": "HapticTransient", "Time": -0.5 }"#))
                == "x.ahap:3:58: Pattern[0].Event.Time: expected a number ≥ 0, found -0.5")
    }

    @Test func unknownEventType() {
        #expect(
            decodingError(fileWithEvent(#"{ "EventType": "HapticBuzz", "Time": 0 }"#))
                == #"x.ahap:3:31: Pattern[0].Event.EventType: expected "HapticTransient", "HapticContinuous", "AudioCustom" or "AudioContinuous", found "HapticBuzz""#
        )
    }

    @Test func continuousEventWithoutDuration() {
        #expect(
            decodingError(fileWithEvent(#"{ "EventType": "HapticContinuous", "Time": 0 }"#))
                == #"x.ahap:3:16: Pattern[0].Event: missing required key "EventDuration" for a HapticContinuous event"#)
    }

    @Test func audioCustomWithoutWaveform() {
        #expect(
            decodingError(fileWithEvent(#"{ "EventType": "AudioCustom", "Time": 0 }"#))
                == #"x.ahap:3:16: Pattern[0].Event: missing required key "EventWaveformPath" for an AudioCustom event"#)
    }

    @Test func eventParametersNotAnArray() {
        #expect(
            decodingError(fileWithEvent(#"{ "EventType": "HapticTransient", "Time": 0, "EventParameters": {} }"#))
                == "x.ahap:3:80: Pattern[0].Event.EventParameters: expected an array, found an object")
    }

    @Test func parameterValueNotANumber() {
        let body = #"{ "EventType": "HapticTransient", "Time": 0, "EventParameters": [{ "ParameterID": "HapticIntensity", "ParameterValue": "high" }] }"#
        #expect(
            decodingError(fileWithEvent(body))
                == #"x.ahap:3:135: Pattern[0].Event.EventParameters[0].ParameterValue: expected a number, found "high""#)
    }

    @Test func loopFlagNotABoolean() {
        let body = #"{ "EventType": "AudioCustom", "Time": 0, "EventWaveformPath": "a.wav", "EventWaveformLoopEnabled": "yes" }"#
        #expect(
            decodingError(fileWithEvent(body))
                == #"x.ahap:3:115: Pattern[0].Event.EventWaveformLoopEnabled: expected true or false, found "yes""#)
    }

    @Test func entryWithTwoKinds() {
        let entry = #"{ "Event": { "EventType": "HapticTransient", "Time": 0 }, "Parameter": { "ParameterID": "HapticIntensityControl", "Time": 0, "ParameterValue": 1 } }"#
        #expect(
            decodingError(fileWithEntry(entry))
                == #"x.ahap:3:5: Pattern[0]: expected exactly one of "Event", "Parameter" or "ParameterCurve", found "Event" and "Parameter""#
        )
    }

    @Test func entryWithNoKind() {
        #expect(
            decodingError(fileWithEntry("{}"))
                == #"x.ahap:3:5: Pattern[0]: expected exactly one of "Event", "Parameter" or "ParameterCurve", found none"#)
    }

    @Test func misspeltEntryKindIsNamed() {
        let entry = #"{ "ParameterCurves": { "ParameterID": "HapticIntensityControl", "Time": 0 } }"#
        #expect(
            decodingError(fileWithEntry(entry))
                == #"x.ahap:3:5: Pattern[0]: expected exactly one of "Event", "Parameter" or "ParameterCurve", found none (the entry has "ParameterCurves")"#
        )
    }

    @Test func topLevelArray() {
        #expect(decodingError("[]") == "x.ahap:1:1: expected an object at the top level, found an array")
    }

    @Test func missingPattern() {
        #expect(decodingError(#"{"Version": 1}"#) == #"x.ahap:1:1: missing required key "Pattern""#)
    }

    @Test func versionAsString() {
        #expect(
            decodingError(#"{"Version": "1.0", "Pattern": []}"#)
                == #"x.ahap:1:13: Version: expected a number, found "1.0""#)
    }

    @Test func curvePointsOutOfOrder() {
        let entry = #"{ "ParameterCurve": { "ParameterID": "HapticIntensityControl", "Time": 0, "ParameterCurveControlPoints": [{ "Time": 0.5, "ParameterValue": 1 }, { "Time": 0.2, "ParameterValue": 0 }] } }"#
        #expect(
            decodingError(fileWithEntry(entry))
                == "x.ahap:3:159: Pattern[0].ParameterCurve.ParameterCurveControlPoints[1].Time: expected a time ≥ 0.5 (control points in time order), found 0.2"
        )
    }

    @Test func emptyCurve() {
        let entry = #"{ "ParameterCurve": { "ParameterID": "HapticIntensityControl", "Time": 0, "ParameterCurveControlPoints": [] } }"#
        #expect(
            decodingError(fileWithEntry(entry))
                == "x.ahap:3:110: Pattern[0].ParameterCurve.ParameterCurveControlPoints: expected at least one control point, found an empty array"
        )
    }
}

@Suite("Limits against abusive files are located errors")
struct PatternLimitTests {
    @Test func entryCount() {
        var limits = PatternLimits.default
        limits.maximumEventCount = 2
        let event = #"{ "Event": { "EventType": "HapticTransient", "Time": 0 } }"#
        let text = "{\n  \"Pattern\": [\n    \(event),\n    \(event),\n    \(event)\n  ]\n}\n"
        #expect(decodingError(text, limits: limits) == "x.ahap:5:5: Pattern[2]: more entries than the limit of 2")
    }

    @Test func controlPointsPerCurve() {
        var limits = PatternLimits.default
        limits.maximumControlPointsPerCurve = 3
        let points = (0..<4).map { #"{ "Time": \#($0), "ParameterValue": 1 }"# }.joined(separator: ", ")
        let entry = #"{ "ParameterCurve": { "ParameterID": "HapticIntensityControl", "Time": 0, "ParameterCurveControlPoints": [\#(points)] } }"#
        #expect(
            decodingError(fileWithEntry(entry), limits: limits)
                == "x.ahap:3:219: Pattern[0].ParameterCurve.ParameterCurveControlPoints[3]: more control points than the limit of 3")
    }

    @Test func totalDuration() {
        #expect(
            decodingError(fileWithEvent(#"{ "EventType": "HapticContinuous", "Time": 590, "EventDuration": 20 }"#))
                == "x.ahap:3:59: Pattern[0].Event: ends at 610 s, after the limit of 600 s")
    }

    @Test func hapticTime() {
        // Seven overlapping 599-second layers: six fit the 3,600 s of haptic time, the seventh not.
        let event = #"{ "Event": { "EventType": "HapticContinuous", "Time": 0, "EventDuration": 599 } }"#
        let text = "{\n  \"Pattern\": [\n" + Array(repeating: "    " + event, count: 7).joined(separator: ",\n") + "\n  ]\n}\n"
        #expect(
            decodingError(text, limits: .default)
                == "x.ahap:9:79: Pattern[6].Event.EventDuration: the haptic continuous events add up to 4193 s so far, more than the limit of 3600 s of haptic time")
        let six = "{\n  \"Pattern\": [\n" + Array(repeating: "    " + event, count: 6).joined(separator: ",\n") + "\n  ]\n}\n"
        #expect(decodingError(six, limits: .default) == nil)
    }

    @Test func fileSizeInMemory() {
        var limits = PatternLimits.default
        limits.maximumFileSize = 10
        #expect(
            decodingError(#"{"Pattern": []}"#, limits: limits)
                == "x.ahap: the file is 15 bytes, more than the limit of 10 bytes")
    }

    @Test func defaultLimits() {
        let limits = PatternLimits.default
        #expect(limits.maximumFileSize == 4_194_304)
        #expect(limits.maximumNestingDepth == 32)
        #expect(limits.maximumEventCount == 10_000)
        #expect(limits.maximumControlPointsPerCurve == 4_096)
        #expect(limits.recommendedControlPointsPerCurve == 16)
        #expect(limits.maximumDuration == 600)
        #expect(limits.maximumHapticTime == 3_600)
    }
}
