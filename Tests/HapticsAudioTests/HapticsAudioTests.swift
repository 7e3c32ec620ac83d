import Testing
@testable import HapticsAudio
