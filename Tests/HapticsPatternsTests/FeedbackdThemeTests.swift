import HapticsSystem
import HapticsTestSupport
import Testing
@testable import HapticsPatterns

/// A small device theme written for these tests: one event per feedback type.
private let deviceTheme = """
    {
      "name": "device",
      "parent-name": "base",
      "profiles": [
        {
          "name": "full",
          "feedbacks": [
            { "event-name": "button-pressed", "type": "Sound", "effect": "button-pressed" },
            { "event-name": "phone-incoming-call", "type": "Sound", "effect": "ring", "media-role": "Ringtone" }
          ]
        },
        {
          "name": "quiet",
          "feedbacks": [
            { "event-name": "button-pressed", "type": "VibraPattern", "magnitudes": [0.2, 0.0, 0.6], "durations": [10, 20, 30] },
            { "event-name": "message-new-email", "type": "VibraRumble", "duration": 750, "count": 3, "pause": 100 },
            { "event-name": "phone-incoming-call", "type": "VibraPeriodic", "magnitude": 0.75, "duration": 1500,
              "fade-in-time": 1250, "fade-in-level": 0.25 }
          ]
        },
        {
          "name": "silent",
          "feedbacks": [
            { "event-name": "phone-missed-call", "type": "Led", "color": "#00FFFF", "frequency": 3000 },
            { "event-name": "button-pressed", "type": "Dummy" }
          ]
        }
      ]
    }
    """

/// The parent: supplies what the device theme leaves out.
private let baseTheme = """
    {
      "name": "base",
      "profiles": [
        { "name": "quiet", "feedbacks": [
          { "event-name": "message-new-email", "type": "VibraRumble", "duration": 50 },
          { "event-name": "window-close", "type": "VibraRumble", "duration": 25, "magnitude": 0.5 }
        ] },
        { "name": "silent", "feedbacks": [
          { "event-name": "window-close", "type": "Led", "color": "blue", "frequency": 500 }
        ] }
      ]
    }
    """

private func theme(_ text: String = deviceTheme, parents: [String: String] = ["base": baseTheme]) throws -> FeedbackdTheme {
    try FeedbackdTheme(decoding: Array(text.utf8), file: "device.json") { (name: String) throws(PatternError) in
        parents[name].map { (Array($0.utf8), "\(name).json") }
    }
}

private func themeError(_ text: String, parents: [String: String] = [:]) -> String? {
    do {
        _ = try theme(text, parents: parents)
        return nil
    } catch {
        return "\(error)"
    }
}

/// A theme with one profile `quiet` whose only feedback is `feedback` (on line 3, column 49; 48 for `full`).
private func themeWith(_ feedback: String, profile: String = "quiet") -> String {
    "{\n  \"name\": \"t\",\n  \"profiles\": [{ \"name\": \"\(profile)\", \"feedbacks\": [\(feedback)] }]\n}\n"
}

private func warnings(_ text: String) throws -> [String] {
    try theme(text, parents: [:]).warnings.map(\.description)
}

@Suite("feedbackd themes decode into feedbacks per event and section, with feedbackd's level rule and parent chains")
struct FeedbackdThemeTests {
    @Test func eachLevelPlaysItsSectionAndTheQuieterOnes() throws {
        let theme = try theme()
        #expect(theme.feedbacks(for: "button-pressed", level: .full).map(\.typeName) == ["Sound", "VibraPattern", "Dummy"])
        #expect(theme.feedbacks(for: "button-pressed", level: .quiet).map(\.typeName) == ["VibraPattern", "Dummy"])
        #expect(theme.feedbacks(for: "button-pressed", level: .silent).map(\.typeName) == ["Dummy"])
        #expect(FeedbackdLevel.full.playedSections == [.full, .quiet, .silent])
        #expect(FeedbackdLevel.silent.playedSections == [.silent])
    }

    @Test func anEventMissingFromASectionComesFromTheParentsSameSection() throws {
        let theme = try theme()
        #expect(theme.chain.map(\.name) == ["device", "base"])
        // The device's own rumble hides the parent's; window-close only the parent has.
        #expect(theme.feedbacks(for: "message-new-email", level: .quiet).map(\.theme) == ["device"])
        let close = theme.feedbacks(for: "window-close", level: .full)
        #expect(close.map(\.summary) == [
            "window-close: VibraRumble (quiet, theme base) at base.json:6:7",
            "window-close: Led (silent, theme base) at base.json:9:7",
        ])
        #expect(theme.feedbacks(for: "no-such-event", level: .full).isEmpty)
        #expect(theme.events == [
            "button-pressed", "message-new-email", "phone-incoming-call", "phone-missed-call", "window-close",
        ])
    }

    @Test func everyFeedbackTypeKeepsItsProperties() throws {
        let theme = try theme()
        let full = { (event: String) in theme.feedbacks(for: event, level: .full).map(\.kind) }
        #expect(full("phone-incoming-call") == [
            .sound(FeedbackdSound(effect: "ring", mediaRole: "Ringtone")),
            .periodic(FeedbackdPeriodic(durationMilliseconds: 1500, magnitude: 0.75, fadeInMilliseconds: 1250, fadeInLevel: 0.25)),
        ])
        #expect(full("message-new-email") == [
            .rumble(FeedbackdRumble(durationMilliseconds: 750, count: 3, pauseMilliseconds: 100, magnitude: 1)),
        ])
        #expect(full("phone-missed-call") == [.led(FeedbackdLED(color: "#00FFFF", frequencyMillihertz: 3000))])
        #expect(full("button-pressed").last == .dummy(durationMilliseconds: nil))
        #expect(theme.feedbacks(for: "button-pressed", level: .full).map(\.isHaptic) == [false, true, false])
    }

    @Test func aRumbleSplitsItsDurationIntoCountPeriodsAsFeedbackdDoes() throws {
        // 750 ms in 3 periods with 100 ms pauses: rumbles of 150 ms at 0, 250 and 500 ms.
        let pattern = try theme().pattern(for: "message-new-email", level: .quiet)
        #expect(pattern.events == [0, 0.25, 0.5].map {
            PatternEvent(kind: .hapticContinuous, time: $0, duration: 0.15, parameters: EventParameters(hapticIntensity: 1))
        })
        #expect(pattern.metadata == [MetadataEntry(key: "Description", value: "feedbackd event message-new-email of theme device at level quiet")])
    }

    @Test func aRumbleThatLeavesNoTimeToRumbleIsOneSecondAsInFeedbackd() throws {
        let text = themeWith(#"{ "event-name": "e", "type": "VibraRumble", "duration": 100, "count": 2, "pause": 50 }"#)
        #expect(try warnings(text) == [
            "device.json:3:49: warning: profiles[0].feedbacks[0]: a duration of 100 ms leaves no rumble for 2 × a pause of 50 ms; played as one rumble of 1000 ms, as feedbackd does",
        ])
        #expect(try theme(text, parents: [:]).pattern(for: "e", level: .quiet).events == [
            PatternEvent(kind: .hapticContinuous, time: 0, duration: 1, parameters: EventParameters(hapticIntensity: 1)),
        ])
    }

    @Test func aPeriodicFadeInIsAStraightRampFromTheFadeLevelMadeOfItsOwnEvents() throws {
        // 1.25 s from 0.25 to 0.75: the first second flat at 0.25 plus a rise of 0.4, the last
        // quarter flat at 0.65 plus a rise of 0.1, then 0.75 held to 1.5 s.
        let pattern = try theme().pattern(for: "phone-incoming-call", level: .quiet)
        func vibration(_ time: Double, _ duration: Double, _ level: Double, attack: Double? = nil) -> PatternEvent {
            PatternEvent(kind: .hapticContinuous, time: time, duration: duration,
                         parameters: EventParameters(hapticIntensity: level, attackTime: attack))
        }
        #expect(pattern.events == [
            vibration(0, 1, 0.25), vibration(0, 1, 0.4, attack: 1),
            vibration(1, 0.25, 0.25 + 0.5 * 1000 / 1250), vibration(1, 0.25, 0.5 * 250 / 1250, attack: 0.25),
            vibration(1.25, 0.25, 0.75),
        ])
        #expect(pattern.curves.isEmpty)
        // Sampled through the envelopes, the levels add up to the ramp.
        func level(at time: Double) -> Double {
            pattern.events.reduce(0) { sum, event in
                guard time >= event.time, time < event.time + event.resolvedDuration else { return sum }
                let envelope = EventEnvelope(duration: event.resolvedDuration, attack: event.parameters.resolvedAttackTime,
                                             decay: 0, release: 0, sustained: true)
                return sum + event.parameters.resolvedIntensity * envelope.gain(at: time - event.time)
            }
        }
        for time in [0.0, 0.5, 1.0, 1.125, 1.3] {
            #expect(abs(level(at: time) - min(0.25 + 0.5 * time / 1.25, 0.75)) < 1e-12, "at \(time) s")
        }
    }

    @Test func aVibraPatternPlaysItsStepsInTurnAndAZeroStepIsAPause() throws {
        let pattern = try theme().pattern(for: "button-pressed", level: .full)
        #expect(pattern.events == [
            PatternEvent(kind: .hapticContinuous, time: 0, duration: 0.01, parameters: EventParameters(hapticIntensity: 0.2)),
            PatternEvent(kind: .hapticContinuous, time: 0.03, duration: 0.03, parameters: EventParameters(hapticIntensity: 0.6)),
        ])
        let plan = try theme().plan(for: "button-pressed", level: .full)
        #expect(plan.sounds.map(\.typeName) == ["Sound"])
        #expect(plan.notHaptic.map(\.typeName) == ["Dummy"])
        #expect(plan.haptic.map(\.typeName) == ["VibraPattern"])
    }

    @Test func anEventWithNothingFeltIsALocatedRefusalThatSaysWhatThereIs() throws {
        let theme = try theme()
        #expect(throws: PatternError.self) { try theme.pattern(for: "phone-missed-call", level: .full) }
        do {
            _ = try theme.pattern(for: "phone-missed-call", level: .full)
        } catch {
            #expect(error.description == #"device.json: the event "phone-missed-call" has no haptic feedback (only Led in silent) at level full in theme "device""#)
        }
        do {
            _ = try theme.pattern(for: "button-pressed", level: .silent)
        } catch {
            #expect(error.description == #"device.json: the event "button-pressed" has no haptic feedback (only Dummy in silent) at level silent in theme "device""#)
        }
        do {
            _ = try theme.pattern(for: "nothing", level: .quiet)
        } catch {
            #expect(error.description == #"device.json: the event "nothing" has no feedback at level quiet in theme "device""#)
        }
    }

    @Test func hexadecimalIntegersAndCommentsAreReadAsJsonGlibReadsThem() throws {
        let text = """
            {
              // a device theme
              "name": "t", /* inline */
              "profiles": [{ "name": "quiet", "feedbacks": [
                { "event-name": "e", "type": "VibraPeriodic", "magnitude": 0x7FFF, "duration": 0x64 }
              ] }]
            }
            """
        let theme = try theme(text, parents: [:])
        #expect(theme.warnings.map(\.description) == [
            "device.json:2:3: warning: comment accepted",
            "device.json:3:16: warning: comment accepted",
            "device.json:5:64: warning: hexadecimal integer 0x7FFF accepted as 32767",
            "device.json:5:84: warning: hexadecimal integer 0x64 accepted as 100",
            "device.json:5:64: warning: profiles[0].feedbacks[0].magnitude: integer magnitude 0x7FFF read on feedbackd's 0…65535 scale as 0.499992",
        ])
        #expect(theme.feedbacks(for: "e", level: .quiet).map(\.kind) == [
            .periodic(FeedbackdPeriodic(durationMilliseconds: 100, magnitude: 32767.0 / 65535, fadeInMilliseconds: 0, fadeInLevel: 0.5)),
        ])
    }

    @Test func ahapFilesStillRefuseHexadecimalNumbersAndComments() {
        #expect(decodingError("{ \"Version\": 0x1, \"Pattern\": [] }")
                    == "x.ahap:1:15: expected ',' or '}' after an object member, found 'x1'")
        #expect(decodingError("{ // c\n \"Pattern\": [] }") == "x.ahap:1:3: comments are not allowed in AHAP files")
    }

    @Test func magnitudesOutsideZeroToOneAreClampedAndIntegersAboveOneRescaled() throws {
        let text = themeWith(#"{ "event-name": "e", "type": "VibraPattern", "magnitudes": [65535, 1.5, -0.5, 2.0], "durations": [1, 1, 1, 1] }"#)
        #expect(try warnings(text) == [
            "device.json:3:109: warning: profiles[0].feedbacks[0].magnitudes[0]: integer magnitude 65535 read on feedbackd's 0…65535 scale as 1",
            "device.json:3:116: warning: profiles[0].feedbacks[0].magnitudes[1]: magnitude 1.5 is outside 0…1; clamped to 1",
            "device.json:3:121: warning: profiles[0].feedbacks[0].magnitudes[2]: magnitude -0.5 is outside 0…1; clamped to 0",
            "device.json:3:127: warning: profiles[0].feedbacks[0].magnitudes[3]: magnitude 2.0 is outside 0…1; clamped to 1",
        ])
    }

    @Test func unknownKeysProfilesAndTypesAreIgnoredWithAWarning() throws {
        let text = """
            {
              "name": "t", "author": "me",
              "profiles": [
                { "name": "loud", "feedbacks": [] },
                { "name": "quiet", "feedbacks": [
                  { "event-name": "a", "type": "Vibra3D" },
                  { "event-name": "b", "type": "VibraRumble", "strength": 1 },
                  { "event-name": "b", "type": "VibraRumble", "duration": 20 }
                ] }
              ]
            }
            """
        #expect(try warnings(text) == [
            "device.json:2:16: warning: author: unknown key ignored",
            #"device.json:4:15: warning: profiles[0].name: unknown profile "loud" ignored; feedbackd knows "full", "quiet" and "silent""#,
            #"device.json:6:36: warning: profiles[1].feedbacks[0].type: unknown feedback type "Vibra3D"; the feedback is ignored"#,
            "device.json:7:51: warning: profiles[1].feedbacks[1].strength: unknown key ignored",
            #"device.json:8:7: warning: profiles[1].feedbacks[2]: a second feedback for "b" in "quiet"; it replaces the one at line 7"#,
        ])
        #expect(try theme(text, parents: [:]).feedbacks(for: "b", level: .quiet).map(\.kind) == [
            .rumble(FeedbackdRumble(durationMilliseconds: 20)),
        ])
    }

    @Test func aSoundWithoutAnEffectIsNamedAfterItsEvent() throws {
        let text = themeWith(#"{ "event-name": "camera-shutter", "type": "Sound" }"#, profile: "full")
        #expect(try warnings(text) == [
            #"device.json:3:48: warning: profiles[0].feedbacks[0]: no "effect"; the event's name "camera-shutter" is the sound's name"#,
        ])
        #expect(try theme(text, parents: [:]).feedbacks(for: "camera-shutter", level: .full).map(\.kind)
                    == [.sound(FeedbackdSound(effect: "camera-shutter"))])
    }

    @Test func badValuesAreLocatedErrors() {
        #expect(themeError(themeWith(#"{ "event-name": "e", "type": "VibraRumble", "duration": -5 }"#))
                    == "device.json:3:105: profiles[0].feedbacks[0].duration: expected a time in whole ms ≥ 0, found -5")
        #expect(themeError(themeWith(#"{ "event-name": "e", "type": "VibraRumble", "duration": 1.5 }"#))
                    == "device.json:3:105: profiles[0].feedbacks[0].duration: expected a time in whole ms ≥ 0, found 1.5")
        #expect(themeError(themeWith(#"{ "event-name": "e", "type": "VibraRumble", "count": 0 }"#))
                    == "device.json:3:102: profiles[0].feedbacks[0].count: expected a count ≥ 1, found 0")
        #expect(themeError(themeWith(#"{ "event-name": "e", "type": "VibraRumble", "duration": 600001 }"#))
                    == "device.json:3:105: profiles[0].feedbacks[0].duration: expected a time in whole ms ≤ 600000, found 600001")
        #expect(themeError(themeWith(#"{ "event-name": "e", "type": "VibraPattern", "magnitudes": [1, 1], "durations": [5] }"#))
                    == "device.json:3:129: profiles[0].feedbacks[0].durations: expected as many durations as magnitudes (2), found 1")
        #expect(themeError(themeWith(#"{ "type": "Led" }"#))
                    == #"device.json:3:49: profiles[0].feedbacks[0]: missing required key "event-name""#)
        #expect(themeError(themeWith(#"{ "event-name": "e", "type": "Led", "color": "red" }"#))
                    == #"device.json:3:49: profiles[0].feedbacks[0]: missing required key "frequency""#)
        #expect(themeError(#"{ "profiles": [] }"#) == #"device.json:1:1: missing required key "name""#)
        #expect(themeError(#"{ "name": 7, "profiles": [] }"#) == "device.json:1:11: name: expected a string, found 7")
        #expect(themeError(#"[]"#) == "device.json:1:1: expected an object at the top level, found an array")
    }

    @Test func aParentChainThatLoopsOrEndsNowhereIsRefusedAtTheParentName() {
        let a = #"{ "name": "a", "parent-name": "b", "profiles": [] }"#
        let b = #"{ "name": "b", "parent-name": "a", "profiles": [] }"#
        #expect(themeError(a, parents: ["b": b, "a": a]) == #"b.json:1:31: parent-name: the parent chain loops: "a" → "b" → "a""#)
        #expect(themeError(a) == #"device.json:1:31: parent-name: the parent theme "b" was not found"#)
    }

    @Test func aThemeFileFindsItsParentBesideItOrInTheSearchFolders() throws {
        let folder = try TemporaryFolder()
        try folder.write(deviceTheme, to: "device.json")
        let shared = try TemporaryFolder()
        try shared.write(baseTheme, to: "base.json")
        #expect(throws: PatternError.self) { try FeedbackdTheme(contentsOf: folder.path + "/device.json") }
        let theme = try FeedbackdTheme(contentsOf: folder.path + "/device.json", searchFolders: [shared.path])
        #expect(theme.chain.map(\.file) == [folder.path + "/device.json", shared.path + "/base.json"])
        do {
            _ = try FeedbackdTheme(contentsOf: folder.path + "/missing.json")
        } catch {
            #expect(error.description == folder.path + "/missing.json: cannot open the file: No such file or directory")
        }
    }

    @Test func vocabularyItemsAndFeedbackdEventsOfTheSameMeaningMapBothWays() {
        #expect(Feedback(feedbackdEvent: "button-pressed") == .impact(.light))
        #expect(Feedback(feedbackdEvent: "key-pressed") == .selection)
        #expect(Feedback(feedbackdEvent: "phone-failure") == .notification(.error))
        #expect(Feedback(feedbackdEvent: "window-close") == nil)
        #expect(Feedback.impact(.light, intensity: 0.3).feedbackdEvent == "button-pressed")
        #expect(Feedback.notification(.success).feedbackdEvent == "message-sent-instant")
        #expect(Feedback.impact(.heavy).feedbackdEvent == nil)
        for item in Feedback.vocabulary {
            if let event = item.feedbackdEvent { #expect(Feedback(feedbackdEvent: event) == item) }
        }
    }
}

@Suite("The theme fuzz seeds are themes a reader meets: they decode, or fail where they mean to")
struct FeedbackdThemeSeedTests {
    private func seed(_ name: String) throws -> [UInt8] {
        try FileDescriptor.readContents(ofFile: Repository.root + "/Tests/FuzzSeeds/theme/" + name, maximumSize: 1 << 20)
    }

    @Test func everyTypeDecodesWithOnlyTheSoundWithoutAnEffectWarnedAbout() throws {
        let theme = try FeedbackdTheme(decoding: try seed("every-type.json"), file: "every-type.json")
        #expect(theme.warnings.map(\.description) == [
            #"every-type.json:9:9: warning: profiles[0].feedbacks[2]: no "effect"; the event's name "camera-shutter" is the sound's name"#,
        ])
        #expect(theme.events.count == 7)
        #expect(Set(theme.chain[0].feedbacks.map(\.typeName)) == ["Sound", "VibraPattern", "VibraRumble", "VibraPeriodic", "Led", "Dummy"])
    }

    @Test func aThemeThatIsItsOwnParentIsALoop() throws {
        let bytes = try seed("hand-edited-sins.json")
        #expect(throws: PatternError.self) {
            try FeedbackdTheme(decoding: bytes, file: "sins.json") { (name: String) throws(PatternError) in
                name == "self" ? (bytes, "self.json") : nil
            }
        }
        do {
            _ = try FeedbackdTheme(decoding: bytes, file: "sins.json") { (name: String) throws(PatternError) in
                name == "self" ? (bytes, "self.json") : nil
            }
        } catch {
            #expect(error.description == #"self.json:4:18: parent-name: the parent chain loops: "sins" → "sins" → "self""#)
        }
    }
}
