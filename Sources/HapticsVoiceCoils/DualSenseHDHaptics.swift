import HapticsPatterns
import HapticsSystem
import HapticsTriggers
import Synchronization

/// HD haptics on one DualSense: patterns played as waveforms on its two voice-coil actuators,
/// over USB through its sound card (``USBHapticsStream``) or over Bluetooth through report 0x32
/// (``BluetoothHapticsStream``) — the same pattern renders to either.
///
/// ```swift
/// let haptics = try DualSenseHDHaptics(eventNode: "/dev/input/event5")
/// try haptics.play(pattern, at: .now)
/// ```
///
/// Opening switches the pad's actuators from rumble emulation to audio haptics: the kernel's
/// `hid-playstation` sets the compatible-vibration and haptics-select bits of its output report on
/// every rumble (`FF_RUMBLE`) play, which makes the pad emulate rumble motors and ignore its audio
/// channels until a report clears them. Opening writes one output report with every valid flag
/// clear (it changes nothing else); a rumble played afterwards switches the pad back, and the next
/// ``play(_:at:)`` clears the bits again: over Bluetooth the stream's writer thread writes that
/// report just before the pattern's first one, over USB the calling thread writes it. Given a
/// count of the rumble writes made to the pad (`rumbleWrites`, such as an evdev actuator's
/// `statistics.writes`), a play clears them only when a rumble was written since the last clear,
/// so a play costs no write of its own then.
public final class DualSenseHDHaptics: Sendable {
    /// How the pad is connected.
    public let transport: DualSenseTransport
    /// The pad's hidraw node.
    public let node: TriggerNode
    /// Over USB, the pad's sound card.
    public let soundCard: VoiceCoilSoundCard?

    private let usb: USBHapticsStream?
    private let bluetooth: BluetoothHapticsStream?
    /// Over USB, the hidraw node, open for the clearing reports until closed; and how many rumble
    /// writes the pad had when its bits were last cleared.
    private let hidraw: OrderedMutex<(descriptor: FileDescriptor?, clearedAt: Int?)>
    /// Counts the rumble writes made to the pad, when known.
    private let rumbleWrites: (@Sendable () -> Int)?

    /// Finds the pad behind `eventNode` (its hidraw node, and over USB its sound card, or the card
    /// `audioCard` names: a number, an ALSA id or a `hw:` device) and opens it; over USB the card's
    /// stream starts at once, so the first play meets a running stream.
    public convenience init(eventNode: String, audioCard: String? = nil, sysfsRoot: String = "/sys",
                            rumbleWrites: (@Sendable () -> Int)? = nil) throws(HDHapticsError) {
        let node: TriggerNode
        do {
            node = try TriggerNode.locate(eventNode: eventNode, sysfsRoot: sysfsRoot + "/class/input")
        } catch {
            throw .node(error)
        }
        var card: VoiceCoilSoundCard?
        if node.transport == .usb {
            do throws(VoiceCoilDeviceError) {
                if let audioCard {
                    card = try VoiceCoilSoundCard(override: audioCard, sysfsRoot: sysfsRoot)
                } else {
                    card = try VoiceCoilSoundCard.locate(eventNode: eventNode, sysfsRoot: sysfsRoot)
                }
            } catch {
                throw .soundCard(error)
            }
        }
        try self.init(node: node, soundCard: card, rumbleWrites: rumbleWrites)
    }

    /// Opens the pad at `node`; over USB, `soundCard` is its card (required). `rumbleWrites`, when
    /// given, counts the rumble writes made to the pad (see the type's description).
    public init(node: TriggerNode, soundCard: VoiceCoilSoundCard?, rumbleWrites: (@Sendable () -> Int)? = nil) throws(HDHapticsError) {
        transport = node.transport
        self.node = node
        self.soundCard = soundCard
        self.rumbleWrites = rumbleWrites
        var descriptor: FileDescriptor?
        switch node.transport {
        case .usb:
            guard let soundCard else { throw .soundCard(.noSoundCard(eventNode: node.path)) }
            do {
                descriptor = try node.open()
            } catch {
                throw .node(error)
            }
            let stream = USBHapticsStream(card: soundCard)
            do {
                try stream.start()
            } catch {
                try? descriptor?.close()
                throw .stream(error)
            }
            usb = stream
            bluetooth = nil
            hidraw = OrderedMutex((descriptor, nil))
        case .bluetooth:
            do {
                bluetooth = try BluetoothHapticsStream(node: node)
            } catch {
                throw .node(error)
            }
            usb = nil
            hidraw = OrderedMutex((nil, nil))
        }
        do {
            try selectAudioHaptics()
        } catch {
            close()
            throw error
        }
    }

    /// A pad over USB whose stream is `stream` (open, driven by its caller: benchmarks and tests
    /// on a sink standing for the card), its reports written to `node`.
    package init(node: TriggerNode, usb stream: USBHapticsStream) throws(HDHapticsError) {
        transport = .usb
        self.node = node
        soundCard = nil
        rumbleWrites = nil
        usb = stream
        bluetooth = nil
        do {
            hidraw = OrderedMutex((try node.open(), nil))
        } catch {
            throw .node(error)
        }
        do {
            try selectAudioHaptics()
        } catch {
            close()
            throw error
        }
    }

    deinit {
        close()
    }

    /// Plays `pattern`'s haptic events on the actuators from `instant` (now when it has passed), in
    /// place of what plays.
    public func play(_ pattern: Pattern, at instant: MonotonicInstant = .now) throws(HDHapticsError) {
        try play(pattern, HDPlayback(start: instant))
    }

    /// Plays `pattern` on the actuators as `playback` says (from a pattern time, at a gain,
    /// looping, until an end), in place of what plays; the play returned can be ended later.
    @discardableResult
    public func play(_ pattern: Pattern, _ playback: HDPlayback) throws(HDHapticsError) -> HDPlay {
        if let usb {
            if needsSelection() { try selectAudioHaptics() }
            return usb.play(pattern, playback)
        }
        do {
            let leading = needsSelection() ? Self.bluetoothAudioHapticsSelect : nil
            return try bluetooth!.play(pattern, playback, leadingReport: leading)
        } catch {
            throw .node(error)
        }
    }

    /// Frames per second of the drive samples ``feed(_:at:)`` takes: 48,000 over USB, 3,000 over
    /// Bluetooth.
    public var driveSampleRate: Int {
        transport == .usb ? VoiceCoilFrames.usbSampleRate : VoiceCoilFrames.bluetoothSampleRate
    }

    /// Queues drive samples (−1…1, at ``driveSampleRate``) for both actuators, the first one
    /// playing at `instant` on `CLOCK_MONOTONIC`, added to the pattern playing: a live source
    /// such as game audio shaped by a `VoiceCoilShaper` (``VoiceCoilSoundDrive`` does both). Blocks
    /// continue one another by their instants. Lock-free and allocation-free: call it from one
    /// thread. Returns `false` when the stream's queue is full (the block is dropped). It does not
    /// take the actuators out of rumble emulation: opening and ``play(_:at:)`` do.
    public func feed(_ samples: UnsafeBufferPointer<Float>, at instant: MonotonicInstant) -> Bool {
        if let usb { return usb.feed(samples, at: instant) }
        return bluetooth?.feed(samples, at: instant) ?? false
    }

    /// Discards the drive samples fed so far (over USB from the next period written, over
    /// Bluetooth none is written after it returns); a pattern playing goes on.
    public func discardFedSamples() {
        usb?.discardFedSamples()
        bluetooth?.discardFedSamples()
    }

    /// Blocks of drive samples refused because the stream's queue was full, and frames that came
    /// (or were written) too late to play, since the pad was opened.
    public var liveSamplesDropped: (blocks: Int, lateFrames: Int) {
        usb?.liveSamplesDropped ?? bluetooth?.liveSamplesDropped ?? (0, 0)
    }

    /// The Bluetooth output report with every valid flag clear.
    private static let bluetoothAudioHapticsSelect = DualSenseTriggerReport(transport: .bluetooth, left: nil, right: nil).bytes

    /// Stops what plays, the drive samples fed before it included.
    public func stop() {
        usb?.stop()
        bluetooth?.stop()
    }

    /// Stops and closes the stream. Idempotent.
    public func close() {
        usb?.close()
        bluetooth?.close()
        hidraw.withLock { hidraw in
            try? hidraw.descriptor?.close()
            hidraw.descriptor = nil
        }
    }

    /// Whether a play must clear the rumble bits first: always without a count of rumble writes,
    /// else when one was written since the last clear (which this call then counts as made).
    private func needsSelection() -> Bool {
        guard let rumbleWrites else { return true }
        let writes = rumbleWrites()
        return hidraw.withLock { hidraw in
            defer { hidraw.clearedAt = writes }
            return hidraw.clearedAt != writes
        }
    }

    /// Writes one output report with every valid flag clear: it takes the actuators out of rumble
    /// emulation and changes nothing else.
    private func selectAudioHaptics() throws(HDHapticsError) {
        let writes = rumbleWrites?()
        do throws(TriggerDeviceError) {
            if let bluetooth {
                hidraw.withLock { $0.clearedAt = writes }
                try bluetooth.write(report: Self.bluetoothAudioHapticsSelect)
            } else {
                let path = node.path
                try hidraw.withLock { (hidraw: inout (descriptor: FileDescriptor?, clearedAt: Int?)) throws(TriggerDeviceError) in
                    guard let descriptor = hidraw.descriptor else { throw .closed(node: path) }
                    hidraw.clearedAt = writes
                    try node.write(report: Self.usbAudioHapticsSelect, to: descriptor)
                }
            }
        } catch {
            throw .node(error)
        }
    }

    /// The USB output report with every valid flag clear.
    private static let usbAudioHapticsSelect = DualSenseTriggerReport(transport: .usb, left: nil, right: nil).bytes
}
