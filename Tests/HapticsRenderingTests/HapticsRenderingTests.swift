import Testing
@testable import HapticsRendering
