import Testing
@testable import HapticsDevices
