extension Feedback {
    /// The feedbackd events (from feedbackd's event naming specification) that mean the same thing
    /// as a vocabulary item, one event per item. The other items (`impact.medium`, `impact.heavy`,
    /// `impact.soft`, `impact.rigid`) have no feedbackd event of the same meaning, and the other
    /// events no vocabulary item; `docs/reference/formats.md` gives the reasons.
    public static let feedbackdEquivalents: [(event: String, feedback: Feedback)] = [
        ("message-sent-instant", .notification(.success)),  // an action the user took completed
        ("battery-low", .notification(.warning)),           // an alert that needs attention soon
        ("phone-failure", .notification(.error)),           // something the user started failed
        ("button-pressed", .impact(.light)),                // a control was pressed: a light collision
        ("key-pressed", .selection),                        // one discrete step of input, like a detent
    ]

    /// The vocabulary item that means what the feedbackd event `event` means, if there is one.
    public init?(feedbackdEvent event: String) {
        guard let match = Self.feedbackdEquivalents.first(where: { $0.event == event }) else { return nil }
        self = match.feedback
    }

    /// The feedbackd event that means what this item means (an impact's intensity aside), if any.
    public var feedbackdEvent: String? {
        let base: Feedback
        if case .impact(let style, _) = self { base = .impact(style) } else { base = self }
        return Self.feedbackdEquivalents.first { $0.feedback == base }?.event
    }
}
