/// Hand-written AHAP files with the sins real files have: integer `Version`, trailing commas,
/// more than 16 curve points, keys in unusual order, entries of every kind interleaved.
enum RoundTripFixtures {
    static let sinful = """
        {
          "Pattern": [
            {
              "ParameterCurve": {
                "ParameterCurveControlPoints": [
                  { "ParameterValue": 0.0, "Time": 0.0 },
                  { "ParameterValue": 0.1, "Time": 0.05 },
                  { "ParameterValue": 0.2, "Time": 0.1 },
                  { "ParameterValue": 0.3, "Time": 0.15 },
                  { "ParameterValue": 0.4, "Time": 0.2 },
                  { "ParameterValue": 0.5, "Time": 0.25 },
                  { "ParameterValue": 0.6, "Time": 0.3 },
                  { "ParameterValue": 0.7, "Time": 0.35 },
                  { "ParameterValue": 0.8, "Time": 0.4 },
                  { "ParameterValue": 0.9, "Time": 0.45 },
                  { "ParameterValue": 1.0, "Time": 0.5 },
                  { "ParameterValue": 0.9, "Time": 0.55 },
                  { "ParameterValue": 0.8, "Time": 0.6 },
                  { "ParameterValue": 0.7, "Time": 0.65 },
                  { "ParameterValue": 0.6, "Time": 0.7 },
                  { "ParameterValue": 0.5, "Time": 0.75 },
                  { "ParameterValue": 0.4, "Time": 0.8 },
                  { "ParameterValue": 0.3, "Time": 0.8 },
                ],
                "Time": 0.1,
                "ParameterID": "HapticIntensityControl"
              }
            },
            {
              "Event": {
                "EventParameters": [
                  { "ParameterValue": 0.25, "ParameterID": "HapticSharpness" },
                  { "ParameterID": "HapticIntensity", "ParameterValue": 0.75 },
                  { "ParameterID": "AttackTime", "ParameterValue": 0.1 },
                  { "ParameterID": "DecayTime", "ParameterValue": 0.2 },
                  { "ParameterID": "ReleaseTime", "ParameterValue": 0.3 },
                  { "ParameterID": "Sustained", "ParameterValue": 0.0 },
                ],
                "EventDuration": 0.5,
                "EventType": "HapticContinuous",
                "Time": 0
              }
            },
            { "Parameter": { "ParameterValue": -0.5, "Time": 0.3, "ParameterID": "HapticSharpnessControl" } },
            {
              "Event": {
                "Time": 1,
                "EventType": "AudioCustom",
                "EventWaveformPath": "Sounds/thud \\"big\\".wav",
                "EventWaveformLoopEnabled": false,
                "EventWaveformUseVolumeEnvelope": true,
                "EventParameters": [
                  { "ParameterID": "AudioVolume", "ParameterValue": 0.6 },
                  { "ParameterID": "AudioPitch", "ParameterValue": -0.2 },
                  { "ParameterID": "AudioPan", "ParameterValue": 0.3 },
                  { "ParameterID": "AudioBrightness", "ParameterValue": 0.9 }
                ]
              }
            },
            { "Event": { "Time": 0.125, "EventType": "HapticTransient", "EventDuration": 0.1 } },
            { "Event": { "Time": 2, "EventType": "AudioContinuous", "EventDuration": 0.3 } },
          ],
          "Metadata": { "Project": "Crate — “Ünïcode” \\t tab", "Version": 3 },
          "Version": 2,
        }
        """

    static let empty = #"{ "Version": 1, "Metadata": { "Note": "nothing to feel" }, "Pattern": [] }"#
}
