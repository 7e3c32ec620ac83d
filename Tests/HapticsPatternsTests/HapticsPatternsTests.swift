import Testing
@testable import HapticsPatterns
