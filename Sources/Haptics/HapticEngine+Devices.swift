import HapticsDevices
import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import HapticsSystem

extension HapticEngine {
    /// Every device the engine knows, by `id`: those that play (`.available`), those that exist but
    /// cannot be opened (`.unavailable`, with the reason and its fix), and those unplugged
    /// (`.lost`), which come back as themselves when plugged in again. Devices removed with
    /// `removeOutput(path:)` are not listed. Control side (takes a short lock; plays never do).
    public var devices: [HapticDevice] {
        book.withLock { book in book.records.filter(\.isListed).map(\.device) }
    }

    /// The device with this id as it is now, or `nil` when the engine never had it.
    public func device(_ id: HapticDevice.ID) -> HapticDevice? {
        book.withLock { book in book.records.first { $0.device.id == id }?.device }
    }

    /// Adds a device while the engine runs (a controller plugged in): the vocabulary is rendered
    /// for it and loaded, whatever is prepared now is prepared on it too, every pattern player that
    /// plays (or is paused) joins it in phase, and a `.deviceAdded` event is delivered. A device the
    /// engine had before (the same pad, matched as `HapticDevice` says) comes back with its id and
    /// settings. Returns the device. Control side (may block on device uploads).
    ///
    /// Throws `.invalidProfile` when a value of the output's profile is outside its range
    /// (`DeviceProfile.validate()`), `.tooManyOutputs` when every channel serves a device, or
    /// `.schedulerFull`; nothing is added then.
    ///
    /// On a running engine an evdev device rehearses first (`Configuration.rehearsesDevices`), and
    /// the game's plays reach it only after.
    @discardableResult
    public func addOutput(_ output: Output) throws(EngineError) -> HapticDevice {
        let rehearsing = isRunning && configuration.rehearsesDevices && output.device is any RehearsingActuator
        let (channel, id) = try install(output, rehearsing: rehearsing)
        if rehearsing {
            rehearse(devices: [id])
            // Lost while it rehearsed: reported lost, never listed as added.
            guard makeLive(channel, id: id, output: output) else { return device(id)! }
        }
        prepareCurrentPreparations(onChannel: channel)
        playersJoin(channel: channel)
        eventHub.deliver(.deviceAdded(name: output.name, path: output.path))
        return device(id)!
    }

    /// Removes a device (e.g. one the application no longer wants): what plays on it stops, its
    /// channel is retired and no event is delivered. Returns whether it was there. Control side.
    @discardableResult
    public func removeOutput(path: String) -> Bool {
        guard let device = channelDevices.withLock({ $0.first { $0.output.path == path } }) else { return false }
        retire(device.channel, leaving: nil)
        return true
    }

    /// Looks for lost devices (haptic and audio) and expired preparations. A started engine does
    /// this on its own thread when something is due — every `Configuration.housekeepingInterval`
    /// while pattern players, tracing, kept players or sound need watching, at the expiry of what
    /// is prepared, and not at all when idle; a manually driven one calls it.
    ///
    /// A device whose `lossError` is set is removed (its channel retired, its players released)
    /// and reported as `.deviceLost`; preparations unused for `prepareLifetime` are released; a lost
    /// audio device is reported as `.audioDeviceLost`; the sound of the next pass of every looping
    /// pattern player is queued once that pass begins within two housekeeping intervals plus the
    /// audio output's `minimumLeadTime`; pattern players whose start has ended get their
    /// `completionHandler` called; the players of feedbackd events played fire-and-forget
    /// (`play(feedbackdEvent:from:…)`) are let go once they have ended.
    public func performHousekeeping() {
        let lost = channelDevices.withLock { devices in
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
        for player in patternPlayers.players { player.renewLoops() }
        deliverPlayerCompletions()
        keptPlayers.release(endedBy: now)
        if isTracing { collectTraceRecords() }
    }

    /// Renders the vocabulary for `output` and loads it on a channel (`claimChannel`), then
    /// publishes the channel (`rehearsing`: for its rehearsal only, `ChannelRoster.makeLive(_:)`
    /// follows). The device is the one the book matches, or `record` when given (a profile
    /// change), or a new one.
    @discardableResult
    func install(_ output: Output, record requested: Int? = nil, replacing replaced: ChannelID? = nil,
                 rehearsing: Bool = false) throws(EngineError) -> (ChannelID, HapticDevice.ID) {
        do throws(DeviceProfileError) {
            try output.profile.validate()
        } catch {
            throw .invalidProfile(error)
        }
        return try channelDevices.withLock { (devices: inout [EngineDevice]) throws(EngineError) -> (ChannelID, HapticDevice.ID) in
            try book.withLock { (book: inout DeviceBook) throws(EngineError) -> (ChannelID, HapticDevice.ID) in
                let matched = requested ?? book.match(output)
                let settings = matched.map { book.records[$0].device.settings } ?? DeviceSettings()
                let profile = Self.profile(of: output, settings: settings)
                let channel = try claimChannel(for: profile, device: output.device,
                                               preferring: matched.flatMap { book.records[$0].channel }, in: &book)
                let index = matched ?? book.records.count
                if matched == nil {
                    book.records.append(DeviceBook.Record(device: DeviceBook.device(id: index, output: output)))
                }
                let id = book.records[index].device.id
                let gainOutput = EngineDevice.hardwareGain(of: output.device)
                var device = EngineDevice(output: output, deviceID: id, profile: profile, channel: channel,
                                          programs: [], programIDs: [], players: [])
                let renderer = Renderer(profile: profile)
                do {
                    for entry in vocabulary {
                        let program = renderer.render(entry.feedback.canonicalPattern)
                        let programID = try scheduler.load(program)
                        device.programs.append(program)
                        device.programIDs.append(programID)
                        let player = try scheduler.makePlayer(program: programID, channel: channel)
                        device.players.append(player)
                        entry.fill(channel.rawValue, with: VocabularySlot(
                            player: player, leadTime: program.leadTimeNanoseconds,
                            playable: program.commands.contains { !$0.command.isSilent },
                            hardwareGain: gainOutput != nil))
                    }
                } catch {
                    // The channel stays unpublished and free; give back what was loaded.
                    release(device)
                    book.channels[channel.rawValue].freeAfter = scheduler.processingMark()
                    if matched == nil { book.records.removeLast() }
                    throw .schedulerFull(error as? SchedulerError ?? .tooManyPrograms(maximum: configuration.scheduler.maximumPrograms))
                }
                // A profile change: the device leaves its old channel only now that the new one is ready.
                if let replaced { retireLocked(replaced, leaving: .available, devices: &devices, book: &book) }
                try? gainOutput?.setGain(gain * settings.gain)
                devices.append(device)
                let record = Self.listed(book.records[index], output: output, channel: channel, profile: profile)
                // A device that rehearses first is listed as available once it is live.
                if !rehearsing {
                    book.records[index] = record
                } else if matched == nil {
                    book.records[index].isListed = false
                }
                roster.publish(channel.rawValue, device: id.rawValue, gain: settings.gain,
                               enabled: settings.isEnabled, real: !output.isFallback,
                               voiceCoils: record.device.hasVoiceCoils, rehearsing: rehearsing)
                return (channel, id)
            }
        }
    }

    /// Makes the channel of a device that has rehearsed live and lists the device as available on
    /// it; `false` when the device was lost meanwhile.
    private func makeLive(_ channel: ChannelID, id: HapticDevice.ID, output: Output) -> Bool {
        channelDevices.withLock { devices in
            book.withLock { book in
                guard let device = devices.first(where: { $0.channel == channel && $0.deviceID == id }),
                      let index = book.records.firstIndex(where: { $0.device.id == id }),
                      roster.makeLive(channel.rawValue) else { return false }
                book.records[index] = Self.listed(book.records[index], output: output, channel: channel, profile: device.profile)
                return true
            }
        }
    }

    /// `record` as the device now playing on `channel` as `output`, rendered for `profile`:
    /// listed, available, with what its event node says of it.
    static func listed(_ record: DeviceBook.Record, output: Output, channel: ChannelID, profile: DeviceProfile) -> DeviceBook.Record {
        var record = record
        record.channel = channel
        record.isListed = true
        record.device.state = .available
        record.device.profile = profile
        record.device.isSimulatedFallback = output.isFallback
        record.device.path = output.path
        if let node = output.eventNode {
            record.device.name = node.name
            record.device.uniqueIdentifier = node.uniqueIdentifier
            record.device.inputID = node.id
            record.device.physicalLocation = node.physicalLocation
            record.device.joystickGUID = node.joystickGUID
            record.device.hidapiJoystickGUID = DeviceCatalog.hidapiJoystickGUID(of: node)
            record.device.forceFeedbackCodes = node.forceFeedbackCodes
            record.device.effectSlots = node.slots
        } else {
            record.device.name = output.name
        }
        return record
    }

    /// The profile a device renders for: its settings' profile with the device's own kernel
    /// limits, else the output's.
    static func profile(of output: Output, settings: DeviceSettings) -> DeviceProfile {
        guard var profile = settings.profile else { return output.profile }
        profile.limits = output.profile.limits
        return profile
    }

    /// A channel for a device of `profile`: a free one of that profile (the one it last played on
    /// first), else a new one, else a free one of another profile, given this one; else — when the
    /// scheduler is still letting go of a free one and a realtime thread runs — that one once it
    /// has (a pass of the realtime thread, microseconds; at most 100 ms). The channel's outlet is
    /// given `device`.
    private func claimChannel(for profile: DeviceProfile, device: any Actuator, preferring preferred: ChannelID?,
                              in book: inout DeviceBook) throws(EngineError) -> ChannelID {
        // A device found gone while it plays wakes housekeeping, which reports it.
        (device as? any LossAnnouncingActuator)?.announceLoss(to: housekeepingRequests)
        let target = profile.clamped
        let channels = book.channels
        let free = channels.indices.filter { channels[$0].freeAfter != nil }
        // Same profile first, the device's own channel first among those.
        func rank(_ index: Int) -> Int { (channels[index].profile == target ? 0 : 2) + (index == preferred?.rawValue ? 0 : 1) }
        let ordered = free.sorted { (rank($0), $0) < (rank($1), $1) }
        func passed(_ index: Int) -> Bool { scheduler.hasPassed(channels[index].freeAfter!) }
        if let index = ordered.first(where: { passed($0) && channels[$0].profile == target }) {
            return reuse(index, for: device, profile: target, in: &book)
        }
        let maximum = configuration.scheduler.maximumChannels
        if scheduler.channelTotal < maximum {
            let outlet = ChannelOutlet(device)
            let channel: ChannelID
            do throws(SchedulerError) {
                channel = try scheduler.addChannel(output: outlet, profile: profile, policy: configuration.overlapPolicy)
            } catch {
                throw .tooManyOutputs(maximum: maximum)
            }
            book.channels.append(DeviceBook.Channel(outlet: outlet, profile: target, freeAfter: nil))
            return channel
        }
        if let index = ordered.first(where: passed) { return reuse(index, for: device, profile: target, in: &book) }
        if let waiting = ordered.first,
           awaitPass(channels[waiting].freeAfter!, until: scheduler.currentTime() + .milliseconds(100)) {
            return reuse(waiting, for: device, profile: target, in: &book)
        }
        throw .tooManyOutputs(maximum: maximum)
    }

    /// A new channel whose output writes nothing, for a pad's HD haptics players to keep their
    /// timeline on (``EngineHDHaptics``); it serves no device and is never given to one.
    func claimTimelineChannel(profile: DeviceProfile) throws(EngineError) -> ChannelID {
        let maximum = configuration.scheduler.maximumChannels
        return try book.withLock { (book: inout DeviceBook) throws(EngineError) -> ChannelID in
            let outlet = ChannelOutlet(TimelineOnlyOutput())
            let channel: ChannelID
            do throws(SchedulerError) {
                channel = try scheduler.addChannel(output: outlet, profile: profile, policy: .replace)
            } catch {
                throw .tooManyOutputs(maximum: maximum)
            }
            book.channels.append(DeviceBook.Channel(outlet: outlet, profile: profile.clamped, freeAfter: nil))
            return channel
        }
    }

    /// Gives the free channel `index` to `device`, with the scheduler's profile changed first when
    /// the channel's is another (the channel has passed its mark: nothing can refuse).
    private func reuse(_ index: Int, for device: any Actuator, profile: DeviceProfile, in book: inout DeviceBook) -> ChannelID {
        let channel = ChannelID(rawValue: index)
        if book.channels[index].profile != profile {
            try? scheduler.setChannelProfile(channel, profile, after: book.channels[index].freeAfter!)
            book.channels[index].profile = profile
        }
        book.channels[index].outlet.bind(device)
        book.channels[index].freeAfter = nil
        return channel
    }

    /// Retires a device's channel and delivers `.deviceLost`, once.
    func reportLoss(of channel: ChannelID, error: DeviceError) {
        guard let device = retire(channel, leaving: .lost(error)) else { return }
        triggers.close(device.deviceID)
        // A lost evdev device can do nothing more: give its descriptor back so the kernel can let
        // the device go (close makes no further calls on a lost device).
        (device.output.device as? EvdevActuator)?.close()
        eventHub.deliver(.deviceLost(name: device.output.name, path: device.output.path, error: error))
    }

    /// Takes a device out of play: plays stop reaching it, every player on its channel is
    /// released (the scheduler sends the channel a final stop), its programs are unloaded, and the
    /// channel is free for another device once the scheduler has let go. The device's record is
    /// left in `state`, or unlisted when `nil` (removed by the app). Returns the device if it was
    /// live.
    @discardableResult
    func retire(_ channel: ChannelID, leaving state: HapticDevice.State?) -> EngineDevice? {
        channelDevices.withLock { devices -> EngineDevice? in
            book.withLock { book in retireLocked(channel, leaving: state, devices: &devices, book: &book) }
        }
    }

    /// `retire` under both locks.
    @discardableResult
    private func retireLocked(_ channel: ChannelID, leaving state: HapticDevice.State?,
                              devices: inout [EngineDevice], book: inout DeviceBook) -> EngineDevice? {
        guard let index = devices.firstIndex(where: { $0.channel == channel }) else { return nil }
        let device = devices.remove(at: index)
        roster.retire(channel.rawValue)
        release(device)
        // Pattern players' players too: nothing they submit may reach the channel's next device.
        _ = scheduler.releasePlayers(on: channel)
        book.channels[channel.rawValue].freeAfter = scheduler.processingMark()
        // A pass that begins now frees the channel (the release woke the thread before the mark).
        scheduler.requestProcessingPass()
        guard let record = book.records.firstIndex(where: { $0.device.id == device.deviceID }) else { return device }
        if let state {
            book.records[record].device.state = state
        } else {
            book.records[record].device.state = .lost(.deviceLost(path: device.output.path ?? device.output.name,
                                                                  SystemCallError(call: "removeOutput", errno: .operationNotSupportedByDevice)))
            book.records[record].isListed = false
        }
        return device
    }

    private func release(_ device: EngineDevice) {
        // Its rumble ends with it, as its players do, and its voice coils' stream.
        endMotorLevels(on: device.channel)
        hdHaptics.close(device.deviceID)
        for player in device.players { scheduler.releasePlayer(player) }
        for program in device.programIDs { _ = scheduler.unload(program) }
    }

    /// Lists a node that exists but cannot be opened (`info.accessError`), as a new device or the
    /// one it was; returns the `.deviceUnavailable` event to deliver, or `nil` when the device was
    /// already listed with that reason.
    func recordUnavailable(_ info: EvdevDeviceInfo) -> Event? {
        guard let error = info.accessError else { return nil }
        return book.withLock { book -> Event? in
            if let index = book.match(unavailable: info) {
                guard book.records[index].device.state != .unavailable(error) else { return nil }
                book.records[index].device.state = .unavailable(error)
                book.records[index].device.path = info.path
                book.records[index].isListed = true
                return .deviceUnavailable(name: book.records[index].device.name, path: info.path, error: error)
            }
            let device = DeviceBook.device(id: book.records.count, unavailable: info, error: error)
            book.records.append(DeviceBook.Record(device: device))
            return .deviceUnavailable(name: device.name, path: info.path, error: error)
        }
    }

    /// Whether a live device has this event node.
    func hasOutput(path: String) -> Bool {
        channelDevices.withLock { $0.contains { $0.output.path == path } }
    }

    /// The channel of the live device on `path`, if any.
    func channel(path: String) -> ChannelID? {
        channelDevices.withLock { $0.first { $0.output.path == path }?.channel }
    }

    /// The channel device `id` plays on now, if it is available: what an entry point taking
    /// channels (rumble, motor levels) needs for a `HapticDevice`.
    func channel(of id: HapticDevice.ID) -> ChannelID? {
        channelDevices.withLock { $0.first { $0.deviceID == id }?.channel }
    }

    /// The channels the available devices of `selection` play on now.
    func channels(for selection: DeviceSelection) -> [ChannelID] {
        channelDevices.withLock { devices in
            devices.filter { selection.contains($0.deviceID.rawValue) }.map(\.channel)
        }
    }

    /// Sets every hardware-gain device's gain to the engine's times its own.
    func applyHardwareGains() {
        let engineGain = gain
        let outputs = channelDevices.withLock { devices in
            devices.compactMap { device in device.hardwareGain.map { ($0, roster.gain(device.channel.rawValue)) } }
        }
        // A device that refuses the gain shows up as lost at the next housekeeping.
        for (output, deviceGain) in outputs { try? output.setGain(engineGain * deviceGain) }
    }
}

extension HapticEngine {
    /// The device one of whose nodes is `path`: its event node (`/dev/input/event5`), or another
    /// node of the same pad — the hidraw node (`/dev/hidraw3`) that `SDL_JoystickPath` names when
    /// SDL's HIDAPI backend drives the pad, or its joystick node — matched through sysfs
    /// (`DeviceCatalog.parentDevice(ofNode:sysfs:)`). Links are followed. An available device is
    /// preferred to one that is lost or unavailable. `nil` when no device of the engine is that pad.
    /// Control side (reads sysfs).
    public func device(atPath path: String, sysfs: String = "/sys") -> HapticDevice? {
        let devices = self.devices.sorted { $0.state.isAvailable && !$1.state.isAvailable }
        let resolved = DeviceCatalog.resolvedNode(path)
        if let exact = devices.first(where: { $0.path.map(DeviceCatalog.resolvedNode) == resolved }) { return exact }
        guard let parent = DeviceCatalog.parentDevice(ofNode: path, sysfs: sysfs) else { return nil }
        return devices.first { $0.path.flatMap { DeviceCatalog.parentDevice(ofNode: $0, sysfs: sysfs) } == parent }
    }
}
