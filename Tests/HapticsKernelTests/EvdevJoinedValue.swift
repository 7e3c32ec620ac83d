/// A value a test thread writes and the test reads after joining it.
final class JoinedValue<Value>: @unchecked Sendable {
    var value: Value?
}
