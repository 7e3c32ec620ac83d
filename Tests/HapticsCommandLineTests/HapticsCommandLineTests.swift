import Testing
@testable import HapticsCommandLine
