import Synchronization

/// A tag a voice carries from ``AudioOutput/schedule(_:audibleAt:gain:group:)`` on, so that
/// everything one owner scheduled (a pattern player, say) can be cancelled together with
/// ``AudioOutput/cancel(group:at:)``.
public struct AudioVoiceGroup: RawRepresentable, Sendable, Hashable {
    /// The tag's value.
    public var rawValue: UInt64

    /// Creates a group from its value.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// The group of voices scheduled without one: ``AudioOutput/cancel(group:at:)`` reaches them
    /// like any other group, ``AudioOutput/cancelAll(at:)`` too.
    public static let ungrouped = AudioVoiceGroup(rawValue: 0)

    /// A group no other call in this process returned (and never ``ungrouped``). Lock-free.
    public static func unique() -> AudioVoiceGroup {
        AudioVoiceGroup(rawValue: _nextAudioVoiceGroup.add(1, ordering: .relaxed).newValue)
    }
}

/// The last group handed out by `AudioVoiceGroup.unique()`.
private let _nextAudioVoiceGroup = Atomic<UInt64>(0)
