import Testing
@testable import Haptics
