// `import Haptics` is the one import a game needs: the engine's public API speaks the types of the
// modules below it (patterns and their decoding, parameter ids, device profiles, devices, trigger
// effects, HD haptics, sound outputs, the sound analysis, the monotonic instant and errno), so they
// come with it, as swift-nio's umbrella module does for its parts.
@_exported import HapticsAudio
@_exported import HapticsDevices
@_exported import HapticsPatterns
@_exported import HapticsRendering
@_exported import HapticsScheduler
@_exported import HapticsSoundAnalysis
@_exported import HapticsSystem
@_exported import HapticsTriggers
@_exported import HapticsVoiceCoils
