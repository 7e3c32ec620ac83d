import Testing
@testable import HapticsScheduler
