import HapticsDevices
import HapticsRendering
import HapticsScheduler

extension HapticEngine {
    /// The settings of device `id`, or `nil` when the engine never had it.
    public func settings(for id: HapticDevice.ID) -> DeviceSettings? {
        device(id)?.settings
    }

    /// Sets the gain of the selected devices (every device the engine knows for `.all`), 0…1, on
    /// top of the engine's `gain`: a play's level is scaled by both. A device with a hardware gain
    /// (`FF_GAIN`) gets the product set on the device. Kept while a device is unplugged. Control
    /// side.
    ///
    /// - Throws: `EngineError.gainOutOfRange` when `gain` is NaN or outside 0…1; nothing changes.
    public func setGain(_ gain: Double, for devices: DeviceSelection) throws(EngineError) {
        guard gain >= 0 && gain <= 1 else { throw .gainOutOfRange(gain) }
        let channels = updateSettings(of: devices) { $0.gain = gain }
        for channel in channels { roster.setGain(channel.rawValue, gain) }
        applyTriggerSettings()
        applyVoiceCoilGains()
        applyHardwareGains()
        // Feedback levels these devices scale in software changed: prepared plays stay one write.
        let changed = Set(channels)
        prepareCurrentPreparations { $0.hardwareGain == nil && changed.contains($0.channel) }
    }

    /// Sets the gain of one device; see `setGain(_:for:)` with a selection.
    public func setGain(_ gain: Double, for device: HapticDevice) throws(EngineError) {
        try setGain(gain, for: DeviceSelection(device))
    }

    /// Switches the selected devices on or off (the engine's `isEnabled` stays the global switch).
    /// Switching a device off stops what plays on it now, vocabulary and pattern players alike;
    /// plays on it then say `.notPlayed(.disabled)` (for a selection of devices all off) or skip
    /// it. Kept while a device is unplugged. Control side.
    public func setEnabled(_ enabled: Bool, for devices: DeviceSelection) {
        let channels = updateSettings(of: devices) { $0.isEnabled = enabled }
        let now = scheduler.currentTime()
        for channel in channels {
            roster.setEnabled(channel.rawValue, enabled)
            if !enabled {
                _ = scheduler.stopPlayers(on: channel, at: now)
                silenceVoiceCoils(of: roster.deviceID(channel.rawValue), at: now)
            }
        }
        applyTriggerSettings()
    }

    /// Switches one device on or off; see `setEnabled(_:for:)` with a selection.
    public func setEnabled(_ enabled: Bool, for device: HapticDevice) {
        setEnabled(enabled, for: DeviceSelection(device))
    }

    /// Gives the selected devices `profile` (`nil`: the one the device catalog picks), with each
    /// device's own kernel limits. A device that plays is rendered again for it: its vocabulary is
    /// loaded anew on a channel of that profile and what is prepared is prepared again; pattern
    /// players made before no longer play on it (make them again). Kept while a device is
    /// unplugged, and used when it comes back. Control side (may block on device uploads).
    ///
    /// The device is loaded on another channel before it leaves its own; with no spare channel and
    /// a realtime thread running, it leaves its channel and takes it back with the new profile once
    /// the thread has let go (a pass; what plays on it then stops).
    ///
    /// - Throws: `EngineError.invalidProfile` when a value of `profile` is outside its range
    ///   (nothing changes); `.tooManyOutputs` or `.schedulerFull` when a device cannot be loaded
    ///   anew (it keeps playing with its old profile; the setting is kept for its next plug-in).
    public func setProfile(_ profile: DeviceProfile?, for devices: DeviceSelection) throws(EngineError) {
        if let profile {
            do throws(DeviceProfileError) {
                try profile.validate()
            } catch {
                throw .invalidProfile(error)
            }
        }
        let before = book.withLock { book in
            Dictionary(uniqueKeysWithValues: book.records.map { ($0.device.id, $0.device.settings.profile) })
        }
        func previous(_ device: EngineDevice) -> DeviceProfile? { before[device.deviceID] ?? nil }
        _ = updateSettings(of: devices) { $0.profile = profile }
        let targets = channelDevices.withLock { live in live.filter { devices.contains($0.deviceID.rawValue) } }
        var failure: EngineError?
        for device in targets {
            let record = book.withLock { book in book.records.firstIndex { $0.device.id == device.deviceID } }
            do throws(EngineError) {
                let channel: ChannelID
                do throws(EngineError) {
                    channel = try install(device.output, record: record, replacing: device.channel).0
                } catch .tooManyOutputs where realtime.load(ordering: .acquiring) {
                    // No spare channel: the device leaves its own, and takes it back with the new
                    // profile once the realtime thread has let go (a pass: microseconds).
                    retire(device.channel, leaving: .available)
                    do throws(EngineError) {
                        channel = try install(device.output, record: record).0
                    } catch {
                        // Back as it was, so the device keeps playing.
                        _ = updateSettings(of: DeviceSelection(device.deviceID)) { $0.profile = previous(device) }
                        _ = try? install(device.output, record: record)
                        throw error
                    }
                }
                prepareCurrentPreparations(onChannel: channel)
            } catch {
                failure = failure ?? error
            }
        }
        if let failure { throw failure }
    }

    /// Gives one device `profile`; see `setProfile(_:for:)` with a selection.
    public func setProfile(_ profile: DeviceProfile?, for device: HapticDevice) throws(EngineError) {
        try setProfile(profile, for: DeviceSelection(device))
    }

    /// Gives the selected devices the built-in profile called `name` (`DeviceProfile.builtins`:
    /// `dualsense`, `xbox`, …); see `setProfile(_:for:)`.
    ///
    /// - Throws: `EngineError.unknownProfile` naming the built-in ones when there is none called
    ///   `name`; nothing changes.
    public func setProfile(named name: String, for devices: DeviceSelection) throws(EngineError) {
        guard let profile = DeviceProfile.named(name) else {
            throw .unknownProfile(name: name, available: DeviceProfile.builtins.map(\.name))
        }
        try setProfile(profile, for: devices)
    }

    /// Gives one device the built-in profile called `name`; see `setProfile(named:for:)` with a selection.
    public func setProfile(named name: String, for device: HapticDevice) throws(EngineError) {
        try setProfile(named: name, for: DeviceSelection(device))
    }

    /// Reads a device profile file (`docs/reference/profiles.md`, "Profile files") and gives the selected
    /// devices its profile, so a user can tune a pad without rebuilding; see `setProfile(_:for:)`.
    ///
    /// - Throws: `EngineError.profileFile` with the file, line and column of the first mistake;
    ///   nothing changes.
    public func loadProfile(contentsOf path: String, for devices: DeviceSelection) throws(EngineError) {
        let profile: DeviceProfile
        do throws(DeviceProfileFileError) {
            profile = try DeviceProfile(contentsOf: path)
        } catch {
            throw .profileFile(error)
        }
        try setProfile(profile, for: devices)
    }

    /// Reads a device profile file for one device; see `loadProfile(contentsOf:for:)` with a selection.
    public func loadProfile(contentsOf path: String, for device: HapticDevice) throws(EngineError) {
        try loadProfile(contentsOf: path, for: DeviceSelection(device))
    }

    /// Applies `change` to the settings of the selected devices the engine knows; returns the
    /// channels of those playing now.
    func updateSettings(of devices: DeviceSelection, _ change: (inout DeviceSettings) -> Void) -> [ChannelID] {
        channelDevices.withLock { live in
            book.withLock { book in
                for index in book.records.indices where devices.contains(book.records[index].device.id.rawValue) {
                    change(&book.records[index].device.settings)
                }
            }
            return live.filter { devices.contains($0.deviceID.rawValue) }.map(\.channel)
        }
    }
}
