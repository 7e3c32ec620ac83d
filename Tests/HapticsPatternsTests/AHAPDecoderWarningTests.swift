import Testing
@testable import HapticsPatterns

@Suite("Apple's lenient rules are applied and reported as located warnings")
struct AHAPDecoderWarningTests {
    @Test func intensityAboveRangeIsClamped() throws {
        let body = #"{ "EventType": "HapticTransient", "Time": 0, "EventParameters": [{ "ParameterID": "HapticIntensity", "ParameterValue": 1.5 }] }"#
        let result = try decodeWithWarnings(fileWithEvent(body))
        #expect(
            result.warnings == [
                "x.ahap:3:135: warning: Pattern[0].Event.EventParameters[0].ParameterValue: HapticIntensity 1.5 is outside 0…1; clamped to 1"
            ])
        #expect(result.pattern.events[0].parameters.hapticIntensity == 1)
    }

    @Test func panBelowRangeIsClamped() throws {
        let body = #"{ "EventType": "AudioContinuous", "Time": 0, "EventDuration": 1, "EventParameters": [{ "ParameterID": "AudioPan", "ParameterValue": -3 }] }"#
        let result = try decodeWithWarnings(fileWithEvent(body))
        #expect(
            result.warnings == [
                "x.ahap:3:148: warning: Pattern[0].Event.EventParameters[0].ParameterValue: AudioPan -3 is outside -1…1; clamped to -1"
            ])
        #expect(result.pattern.events[0].parameters.audioPan == -1)
    }

    @Test func unknownEventKeyIsIgnored() throws {
        let result = try decodeWithWarnings(fileWithEvent(#"{ "EventType": "HapticTransient", "Foo": 1, "Time": 0.25 }"#))
        #expect(result.warnings == ["x.ahap:3:50: warning: Pattern[0].Event.Foo: unknown key ignored"])
        #expect(result.pattern.events == [PatternEvent(kind: .hapticTransient, time: 0.25)])
    }

    @Test func unknownTopLevelKeyIsIgnored() throws {
        let result = try decodeWithWarnings(#"{"Author": "me", "Pattern": []}"#)
        #expect(result.warnings == ["x.ahap:1:2: warning: Author: unknown key ignored"])
    }

    @Test func unknownEventParameterIsIgnored() throws {
        let body = #"{ "EventType": "HapticTransient", "Time": 0, "EventParameters": [{ "ParameterID": "HapticSquish", "ParameterValue": 1 }] }"#
        let result = try decodeWithWarnings(fileWithEvent(body))
        #expect(
            result.warnings == [
                #"x.ahap:3:98: warning: Pattern[0].Event.EventParameters[0].ParameterID: unknown parameter "HapticSquish" ignored"#
            ])
        #expect(result.pattern.events[0].parameters == EventParameters())
    }

    @Test func repeatedEventParameterKeepsTheLast() throws {
        let body = #"{ "EventType": "HapticTransient", "Time": 0, "EventParameters": [{ "ParameterID": "HapticSharpness", "ParameterValue": 0.2 }, { "ParameterID": "HapticSharpness", "ParameterValue": 0.8 }] }"#
        let result = try decodeWithWarnings(fileWithEvent(body))
        #expect(
            result.warnings == [
                "x.ahap:3:159: warning: Pattern[0].Event.EventParameters[1].ParameterID: HapticSharpness given again; the last value is used"
            ])
        #expect(result.pattern.events[0].parameters.hapticSharpness == 0.8)
    }

    @Test func dynamicParameterIsClamped() throws {
        let entry = #"{ "Parameter": { "ParameterID": "HapticIntensityControl", "Time": 0.5, "ParameterValue": 2 } }"#
        let result = try decodeWithWarnings(fileWithEntry(entry))
        #expect(
            result.warnings == [
                "x.ahap:3:94: warning: Pattern[0].Parameter.ParameterValue: HapticIntensityControl 2 is outside 0…1; clamped to 1"
            ])
        #expect(result.pattern.parameters == [DynamicParameter(id: .hapticIntensityControl, time: 0.5, value: 1)])
    }

    @Test func unknownDynamicParameterSkipsTheEntry() throws {
        let entry = #"{ "Parameter": { "ParameterID": "HapticWobbleControl", "Time": 0, "ParameterValue": 1 } }"#
        let result = try decodeWithWarnings(fileWithEntry(entry))
        #expect(
            result.warnings == [
                #"x.ahap:3:37: warning: Pattern[0].Parameter.ParameterID: unknown parameter "HapticWobbleControl"; entry ignored"#
            ])
        #expect(result.pattern.parameters == [])
    }

    @Test func moreThanSixteenControlPointsAreAcceptedWithAWarning() throws {
        let points = (0..<20).map { #"{ "Time": \#(Double($0) / 10), "ParameterValue": 0.5 }"# }.joined(separator: ", ")
        let entry = #"{ "ParameterCurve": { "ParameterID": "HapticSharpnessControl", "Time": 1, "ParameterCurveControlPoints": [\#(points)] } }"#
        let result = try decodeWithWarnings(fileWithEntry(entry))
        #expect(
            result.warnings == [
                "x.ahap:3:110: warning: Pattern[0].ParameterCurve.ParameterCurveControlPoints: 20 control points; Core Haptics documents at most 16 per curve"
            ])
        #expect(result.pattern.curves[0].controlPoints.count == 20)
        #expect(result.pattern.curves[0].controlPoints[19] == ParameterCurve.ControlPoint(time: 1.9, value: 0.5))
    }

    @Test func nestedMetadataIsIgnored() throws {
        let result = try decodeWithWarnings(#"{"Metadata": {"Project": "P", "Tags": ["a"], "Rev": 3, "Draft": false}, "Pattern": []}"#)
        #expect(result.warnings == ["x.ahap:1:39: warning: Metadata.Tags: nested value ignored; metadata values are text"])
        #expect(
            result.pattern.metadata == [
                MetadataEntry(key: "Project", value: "P"), MetadataEntry(key: "Rev", value: "3"),
                MetadataEntry(key: "Draft", value: "false"),
            ])
    }

    @Test func sustainedAcceptsNumbersAndBooleans() throws {
        let body = #"{ "EventType": "HapticContinuous", "Time": 0, "EventDuration": 1, "EventParameters": [{ "ParameterID": "Sustained", "ParameterValue": 0 }] }"#
        let numeric = try decodeWithWarnings(fileWithEvent(body))
        #expect(numeric.pattern.events[0].parameters.sustained == false)
        let boolean = try decodeWithWarnings(fileWithEvent(body.replacingOccurrences(of: "\"ParameterValue\": 0", with: "\"ParameterValue\": true")))
        #expect(boolean.pattern.events[0].parameters.sustained == true)
        #expect(boolean.warnings == [])
    }

    @Test func warningsComeInSourceOrderWithSyntaxWarningsFirst() throws {
        let text = "{\n  \"Zap\": 1,\n  \"Pattern\": [\n    { \"Event\": { \"EventType\": \"HapticTransient\", \"Time\": 0, \"X\": 2, } }\n  ]\n}\n"
        let result = try decodeWithWarnings(text)
        #expect(
            result.warnings == [
                "x.ahap:4:67: warning: trailing comma before '}' accepted",
                "x.ahap:2:3: warning: Zap: unknown key ignored",
                "x.ahap:4:61: warning: Pattern[0].Event.X: unknown key ignored",
            ])
    }
}
