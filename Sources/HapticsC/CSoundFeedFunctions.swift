import CHapticsABI
import Glibc
import Haptics

// Live haptics from sound (haptics.h: "Live haptics from sound"): a `LiveSoundFeed` behind a
// `haptics_sound_feed *`. Making one allocates (control side); pushing is realtime-safe.

/// The feed behind a `haptics_sound_feed *`.
final class CSoundFeed: CHandle, @unchecked Sendable {
    static let tag: UInt64 = 0x4648_4150_5449_4353  // "SCITPAHF"
    var tagWord: UInt64 = CSoundFeed.tag
    let feed: LiveSoundFeed

    init(feed: LiveSoundFeed) {
        self.feed = feed
    }
}

private func makeFeed(
    _ handle: OpaquePointer?, _ function: String, _ id: Int32?, _ sampleRate: Int32, _ channels: Int32,
    _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    withEngineHandle(handle) { handle in
        guard let out else {
            LastError.set("\(function): the feed pointer is NULL")
            return CResult.invalidArgument
        }
        var devices = DeviceSelection.all
        if let id {
            guard let device = handle.device(id, for: function) else { return CResult.code(ENODEV) }
            devices = DeviceSelection(device)
        }
        do {
            let feed = try handle.engine.makeLiveSoundFeed(sampleRate: Int(sampleRate), channelCount: Int(channels), on: devices)
            out.pointee = CSoundFeed(feed: feed).retainedPointer()
            return CResult.ok
        } catch {
            LastError.set("\(function): \(error)")
            return CResult.code(of: error)
        }
    }
}

@_cdecl("haptics_sound_feed_new")
public func haptics_sound_feed_new(
    _ handle: OpaquePointer?, _ sampleRate: Int32, _ channels: Int32, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    makeFeed(handle, "haptics_sound_feed_new", nil, sampleRate, channels, out)
}

@_cdecl("haptics_device_sound_feed_new")
public func haptics_device_sound_feed_new(
    _ handle: OpaquePointer?, _ id: Int32, _ sampleRate: Int32, _ channels: Int32, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    makeFeed(handle, "haptics_device_sound_feed_new", id, sampleRate, channels, out)
}

@_cdecl("haptics_sound_feed_push")
public func haptics_sound_feed_push(
    _ handle: OpaquePointer?, _ samples: UnsafePointer<Float>?, _ frames: Int, _ presentationTime: Int64,
    _ outcome: UnsafeMutablePointer<haptics_outcome>?
) -> Int32 {
    guard let handle else { return CResult.invalidArgument }
    guard let feed = CSoundFeed.from(handle)?.feed else { return CResult.badHandle }
    guard frames >= 0, frames <= Int.max / feed.channelCount, samples != nil || frames == 0 else {
        LastError.set("haptics_sound_feed_push: the samples are NULL or the frame count \(frames) is out of range")
        return CResult.invalidArgument
    }
    guard presentationTime >= 0 else {
        LastError.set("haptics_sound_feed_push: the presentation time \(presentationTime) is negative")
        return CResult.invalidArgument
    }
    let buffer = UnsafeBufferPointer(start: samples, count: frames * feed.channelCount)
    return COutcome.report(feed.feed(buffer, presentationTime: MonotonicInstant(nanoseconds: presentationTime)), into: outcome)
}

@_cdecl("haptics_sound_feed_stop")
public func haptics_sound_feed_stop(_ handle: OpaquePointer?) -> Int32 {
    guard let handle else { return CResult.invalidArgument }
    guard let feed = CSoundFeed.from(handle)?.feed else { return CResult.badHandle }
    feed.stop()
    return CResult.ok
}

@_cdecl("haptics_sound_feed_free")
public func haptics_sound_feed_free(_ handle: OpaquePointer?) {
    guard let handle, let feed = CSoundFeed.from(handle) else { return }
    feed.feed.stop()
    CSoundFeed.release(handle)
}
