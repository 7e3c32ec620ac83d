import HapticsDevices
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import HapticsSystem

extension HapticEngine {
    /// Adds a device while the engine runs (a controller plugged in): the vocabulary is rendered
    /// for it and loaded, whatever is prepared now is prepared on it too, every pattern player that
    /// plays (or is paused) joins it in phase, and a `.deviceAdded` event is delivered. Control side (may block on device uploads).
    ///
    /// Throws `.invalidProfile` when a value of the output's profile is outside its range
    /// (`DeviceProfile.validate()`), `.tooManyOutputs` or `.schedulerFull`; nothing is added then.
    public func addOutput(_ output: Output) throws(EngineError) {
        let channel = try install(output)
        prepareCurrentPreparations(onChannel: channel)
        playersJoin(channel: channel)
        eventHub.deliver(.deviceAdded(name: output.name, path: output.path))
    }

    /// Removes a device (e.g. one the application no longer wants): what plays on it stops, its
    /// channel is retired and no event is delivered. Returns whether it was there. Control side.
    @discardableResult
    public func removeOutput(path: String) -> Bool {
        guard let device = devices.withLock({ $0.first { $0.output.path == path } }) else { return false }
        retire(device.channel)
        return true
    }

    /// Looks for lost devices (haptic and audio) and expired preparations. A started engine does this on its own
    /// every `Configuration.housekeepingInterval`; a manually driven one calls it.
    ///
    /// A device whose `lossError` is set is removed (its channel retired, its players released)
    /// and reported as `.deviceLost`; preparations unused for `prepareLifetime` are released; a lost
    /// audio device is reported as `.audioDeviceLost`; the sound of the next pass of every looping
    /// pattern player is queued once that pass begins within two housekeeping intervals plus the
    /// audio output's `minimumLeadTime`; pattern players whose start has ended get their
    /// `completionHandler` called.
    public func performHousekeeping() {
        let lost = devices.withLock { devices in
            devices.compactMap { device -> (EngineDevice, SystemCallError)? in
                guard let error = device.lossReporting?.lossError else { return nil }
                return (device, error)
            }
        }
        for (device, error) in lost {
            reportLoss(of: device.channel, error: .deviceLost(path: device.output.path ?? device.output.name, error))
        }
        expireUnusedPreparations()
        pollAudioEvents()
        for player in patternPlayers.players { player.renewSoundLoop() }
        deliverPlayerCompletions()
    }

    /// Renders the vocabulary for `output`, loads it on a new channel and publishes the channel.
    @discardableResult
    func install(_ output: Output) throws(EngineError) -> ChannelID {
        do throws(DeviceProfileError) {
            try output.profile.validate()
        } catch {
            throw .invalidProfile(error)
        }
        return try devices.withLock { (devices: inout [EngineDevice]) throws(EngineError) -> ChannelID in
            let maximum = configuration.scheduler.maximumChannels
            guard scheduler.channelTotal < maximum else { throw .tooManyOutputs(maximum: maximum) }
            let channel: ChannelID
            do throws(SchedulerError) {
                channel = try scheduler.addChannel(output: output.device, profile: output.profile, policy: configuration.overlapPolicy)
            } catch {
                throw .tooManyOutputs(maximum: maximum)
            }
            let renderer = Renderer(profile: output.profile)
            var device = EngineDevice(output: output, channel: channel, programs: [], programIDs: [], players: [])
            let gainOutput = EngineDevice.hardwareGain(of: output.device)
            do {
                for entry in vocabulary {
                    let program = renderer.render(entry.feedback.canonicalPattern)
                    let programID = try scheduler.load(program)
                    device.programs.append(program)
                    device.programIDs.append(programID)
                    let player = try scheduler.makePlayer(program: programID, channel: channel)
                    device.players.append(player)
                    entry.fill(channel.rawValue, with: VocabularySlot(
                        player: player, leadTime: program.leadTime.nanoseconds,
                        playable: program.commands.contains { !$0.command.isSilent },
                        hardwareGain: gainOutput != nil))
                }
            } catch {
                // The channel stays unpublished (and unused); give back what was loaded.
                release(device)
                throw .schedulerFull(error as? SchedulerError ?? .tooManyPrograms(maximum: configuration.scheduler.maximumPrograms))
            }
            try? gainOutput?.setGain(gain)
            devices.append(device)
            roster.publish(channel.rawValue)
            return channel
        }
    }

    /// Retires a device's channel and delivers `.deviceLost`, once.
    func reportLoss(of channel: ChannelID, error: DeviceError) {
        guard let device = retire(channel) else { return }
        // A lost evdev device can do nothing more: give its descriptor back so the kernel can let
        // the device go (close makes no further calls on a lost device).
        (device.output.device as? EvdevActuator)?.close()
        eventHub.deliver(.deviceLost(name: device.output.name, path: device.output.path, error: error))
    }

    /// Takes a device out of play: plays stop reaching it, its players and the pattern players'
    /// outputs on it stop (the scheduler sends its channel a final stop) and its programs are
    /// unloaded. Returns the device if it was live.
    @discardableResult
    func retire(_ channel: ChannelID) -> EngineDevice? {
        let retired = devices.withLock { devices -> EngineDevice? in
            guard let index = devices.firstIndex(where: { $0.channel == channel }) else { return nil }
            let device = devices.remove(at: index)
            roster.retire(channel.rawValue)
            release(device)
            return device
        }
        if retired != nil { playersLeave(channel: channel) }
        return retired
    }

    private func release(_ device: EngineDevice) {
        // Its rumble ends with it, as its players do.
        endMotorLevels(on: device.channel)
        for player in device.players { scheduler.releasePlayer(player) }
        for program in device.programIDs { _ = scheduler.unload(program) }
    }

    /// Whether a live device has this event node.
    func hasOutput(path: String) -> Bool {
        devices.withLock { $0.contains { $0.output.path == path } }
    }

    /// The channel of the live device on `path`, if any.
    func channel(path: String) -> ChannelID? {
        devices.withLock { $0.first { $0.output.path == path }?.channel }
    }
}
