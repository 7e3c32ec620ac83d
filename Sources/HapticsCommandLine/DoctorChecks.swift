import CEvdev
import Glibc
import HapticsDevices
import HapticsSystem
import HapticsTriggers
import HapticsVoiceCoils

/// What `haptics doctor` checks, read from a root folder (`/`, or a fake tree in tests): the
/// force-feedback nodes and who may open them, the udev rule, sound devices, the processes
/// holding a pad and the slots other openers hold; and, for this process whatever the root, what
/// a realtime thread gets.
struct DoctorChecks {
    /// One finding and its fix.
    struct Finding: Equatable {
        enum Status: String {
            case ok, warning, problem
        }
        /// Which check (`devices`, `access`, `udev-rule`, `realtime`, `sound`, `holders`).
        var check: String
        var status: Status
        /// What was found.
        var message: String
        /// What to do about it (empty when nothing).
        var fix: String = ""
        /// The slots of the pad the finding is about, when it is about one and they were counted.
        var slots: SlotUse? = nil
    }

    /// Who is asking: the real process, or a user given by the test.
    struct Identity {
        var uid: uid_t
        var groups: [gid_t]
        /// Whether this is the calling process (then `access(2)` answers, ACLs included).
        var isProcess: Bool

        static func process() -> Identity {
            var groups = [gid_t](repeating: 0, count: Int(getgroups(0, nil)))
            let count = getgroups(Int32(groups.count), &groups)
            return Identity(uid: getuid(), groups: Array(groups.prefix(max(0, Int(count)))) + [getgid()], isProcess: true)
        }
    }

    /// The root the system is read from, without a trailing slash (`""` for `/`).
    let root: String
    let identity: Identity
    /// Where the realtime probe asks rtkit.
    let realtimeKit: RealtimeKit.Bus

    init(root: String = "/", identity: Identity = .process(), realtimeKit: RealtimeKit.Bus = .system) {
        self.root = root.hasSuffix("/") ? String(root.dropLast()) : root
        self.identity = identity
        self.realtimeKit = realtimeKit
    }

    /// Every check in order. The realtime check starts a thread of this process, whatever the root.
    func run() -> [Finding] {
        let nodes = forceFeedbackNodes()
        let priority = Self.realtimeProbe(realtimeKit)
        return devices(nodes) + access(nodes) + [udevRule(), realtime(priority), sound()] + hdHaptics(nodes) + holders(nodes)
    }

    // MARK: Devices

    /// An event node whose input device has force feedback, from sysfs.
    struct Node: Equatable {
        /// `/dev/input/eventN` as the system names it (without the root).
        var path: String
        var name: String
    }

    func forceFeedbackNodes() -> [Node] {
        FileDescriptor.numberedEntries(in: root + "/sys/class/input", prefix: "event").compactMap { sysfs in
            let event = String(sysfs.split(separator: "/").last!)
            // capabilities/ff is hex words, leading zero words left out: "0" means none.
            guard let ff = read(sysfs + "/device/capabilities/ff"), let first = ff.first, first != "0" else { return nil }
            return Node(path: "/dev/input/" + event, name: read(sysfs + "/device/name") ?? "?")
        }
    }

    func devices(_ nodes: [Node]) -> [Finding] {
        guard !nodes.isEmpty else {
            return [Finding(check: "devices", status: .problem, message: "no force-feedback device is plugged in",
                            fix: "plug the pad in (over USB to rule out Bluetooth), then run this again")]
        }
        let list = nodes.map { "\($0.path) \(PrintableText.escaped($0.name))" }.joined(separator: ", ")
        return [Finding(check: "devices", status: .ok, message: "\(nodes.count) force-feedback device\(nodes.count == 1 ? "" : "s"): \(list)")]
    }

    func access(_ nodes: [Node]) -> [Finding] {
        nodes.map { node in
            if mayOpen(root + node.path) {
                return Finding(check: "access", status: .ok, message: "\(node.path) may be opened for reading and writing")
            }
            return Finding(check: "access", status: .problem, message: "\(node.path) may not be opened for writing by this user",
                           fix: "install the udev rule (sudo install -m 0644 Tools/udev/70-haptics.rules /etc/udev/rules.d/, then sudo udevadm control --reload && sudo udevadm trigger --subsystem-match=input) and re-plug the pad, or add yourself to the 'input' group")
        }
    }

    /// Whether `identity` may read and write `path`.
    func mayOpen(_ path: String) -> Bool {
        if identity.isProcess { return Glibc.access(path, R_OK | W_OK) == 0 }
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        if identity.uid == 0 { return true }
        let mode = status.st_mode
        if status.st_uid == identity.uid { return mode & 0o600 == 0o600 }
        if identity.groups.contains(status.st_gid) { return mode & 0o060 == 0o060 }
        return mode & 0o006 == 0o006
    }

    // MARK: udev

    static let ruleFolders = ["/etc/udev/rules.d", "/run/udev/rules.d", "/usr/lib/udev/rules.d", "/lib/udev/rules.d"]

    func udevRule() -> Finding {
        for folder in Self.ruleFolders where read(root + folder + "/70-haptics.rules") != nil {
            return Finding(check: "udev-rule", status: .ok, message: "\(folder)/70-haptics.rules is installed")
        }
        return Finding(check: "udev-rule", status: .warning, message: "the udev rule 70-haptics.rules is not installed (pads the system's own rules do not tag need it)",
                       fix: "sudo install -m 0644 Tools/udev/70-haptics.rules /etc/udev/rules.d/ && sudo udevadm control --reload && sudo udevadm trigger --subsystem-match=input")
    }

    // MARK: Realtime

    /// What a realtime thread started now gets, asking rtkit on `realtimeKit` when refused: the
    /// engine's threads ask the same way, at the scheduler's default priority (50).
    static func probeRealtimePriority(realtimeKit: RealtimeKit.Bus) -> RealtimeThread.Priority {
        let configuration = RealtimeThread.Configuration(name: "haptics-doctor", priority: 50, realtimeKit: realtimeKit)
        guard let thread = try? RealtimeThread.start(configuration, body: {}) else { return .normal }
        thread.join()
        return thread.grant.priority
    }

    /// How the realtime check probes: ``probeRealtimePriority(realtimeKit:)``; tests probe from a
    /// thread that may not set `SCHED_FIFO`, as a desktop user's.
    @TaskLocal static var realtimeProbe: @Sendable (RealtimeKit.Bus) -> RealtimeThread.Priority = {
        probeRealtimePriority(realtimeKit: $0)
    }

    static let realtimeLimitsFix = "allow realtime priority: a file /etc/security/limits.d/95-haptics.conf with the line '@audio - rtprio 95' and yourself in the audio group, then log in again"

    /// The finding for what a realtime thread got (`priority`), with the fix that fits the reason.
    func realtime(_ priority: RealtimeThread.Priority) -> Finding {
        switch priority {
        case .fifo(let level):
            return Finding(check: "realtime", status: .ok, message: "the realtime threads get SCHED_FIFO \(level) by themselves")
        case .fifoThroughRealtimeKit(let level, let refusal):
            return Finding(check: "realtime", status: .ok,
                           message: "the realtime threads get SCHED_FIFO \(level) through rtkit (their own request is refused: \(refusal))")
        case .normal:
            return Finding(check: "realtime", status: .warning, message: "a realtime thread cannot be started")
        case .refused(let refusal, let realtimeKit):
            var message = "the realtime threads run at normal priority: SCHED_FIFO refused (\(refusal))"
            var fix = Self.realtimeLimitsFix
            switch realtimeKit {
            case nil:
                break
            case .libraryMissing?:
                fix = "install libdbus-1 and rtkit (Debian: sudo apt install libdbus-1-3 rtkit), or " + fix
            case .busUnavailable?:
                fix = "start the system bus and install rtkit (Debian: sudo apt install dbus rtkit), or " + fix
            case .serviceMissing?:
                fix = "install rtkit (Debian: sudo apt install rtkit), or " + fix
            case .refused?, .noPriorityAllowed?, .runTimeLimit?, .unexpectedReply?:
                fix = "rtkit grants priority to users of an active local session, within its limits; or " + fix
            }
            if let realtimeKit { message += "; \(realtimeKit)" }
            return Finding(check: "realtime", status: .warning, message: message, fix: fix)
        }
    }

    // MARK: Sound

    func sound() -> Finding {
        guard let cards = read(root + "/proc/asound/cards") else {
            return Finding(check: "sound", status: .warning, message: "no sound driver (no /proc/asound): sounds of patterns cannot be heard",
                           fix: "only needed for --audio: load the card's driver, or snd-aloop for sync-test")
        }
        // Each card's first line is " N [id ]: driver - name".
        let names = cards.split(separator: "\n").filter { $0.hasPrefix(" ") && $0.contains("]: ") }
            .map { String($0[$0.firstRange(of: "]: ")!.upperBound...]).trimmingCharacters(" ") }
        guard !names.isEmpty else {
            return Finding(check: "sound", status: .warning, message: "no sound card", fix: "only needed for --audio")
        }
        return Finding(check: "sound", status: .ok, message: "\(names.count) sound card\(names.count == 1 ? "" : "s"): \(names.map { PrintableText.escaped($0) }.joined(separator: "; "))")
    }

    // MARK: HD haptics

    /// For each DualSense: whether HD haptics reach its voice coils — its hidraw node, and over USB
    /// its sound card, found and open to this user.
    func hdHaptics(_ nodes: [Node]) -> [Finding] {
        nodes.compactMap { node in
            let device = root + "/sys/class/input/" + (node.path.split(separator: "/").last.map(String.init) ?? "") + "/device/id/"
            guard let vendor = read(device + "vendor").flatMap({ UInt16($0, radix: 16) }),
                  let product = read(device + "product").flatMap({ UInt16($0, radix: 16) }),
                  TriggerNode.hasAdaptiveTriggers(vendor: vendor, product: product) else { return nil }
            let hidraw: String
            do {
                hidraw = try TriggerNode.locate(eventNode: node.path, sysfsRoot: root + "/sys/class/input", devices: "/dev").path
            } catch {
                return Finding(check: "hd-haptics", status: .problem, message: "\(node.path): \(error)",
                               fix: "load the hidraw module (sudo modprobe hidraw)")
            }
            var needed = [hidraw]
            var through = "\(hidraw)"
            if read(device + "bustype").flatMap({ UInt16($0, radix: 16) }) == 0x03 {
                do {
                    let card = try VoiceCoilSoundCard.locate(eventNode: node.path, sysfsRoot: root + "/sys")
                    through = "\(card)"
                    if let number = card.number { needed.append("/dev/snd/pcmC\(number)D0p") }
                } catch {
                    return Finding(check: "hd-haptics", status: .warning, message: "\(node.path): \(error)",
                                   fix: "load snd-usb-audio (sudo modprobe snd-usb-audio), or name the card: haptics play --hd --audio-card <card>")
                }
            }
            let denied = needed.filter { !mayOpen(root + $0) }
            guard denied.isEmpty else {
                return Finding(check: "hd-haptics", status: .problem,
                               message: "\(node.path): HD haptics need \(denied.joined(separator: " and ")), which this user may not open",
                               fix: "install the udev rule (it grants the pad's hidraw node) and join the 'audio' group for its sound card, then log in again")
            }
            return Finding(check: "hd-haptics", status: .ok, message: "\(node.path): HD haptics through \(through)")
        }
    }

    // MARK: Holders

    /// A process holding a node: its name, id, whether it opened the node for writing (only then
    /// can it play effects), and what it is when that can be told (Steam, an SDL program).
    struct Holder {
        var command: String
        var pid: String
        var writes: Bool?
        var kind: String?

        var text: String {
            var details = ["pid \(pid)"]
            if let kind { details.append(kind) }
            if let writes { details.append(writes ? "open for writing" : "read only") }
            return "\(PrintableText.escaped(command)) (\(details.joined(separator: ", ")))"
        }
    }

    /// Processes that have one of `nodes` open (those this user may look at), how many of each
    /// node's slots other openers hold (counted where this user may open the node), and the fix
    /// for what they are.
    func holders(_ nodes: [Node]) -> [Finding] {
        var found: [String: [Holder]] = [:]
        let targets = Dictionary(uniqueKeysWithValues: nodes.map { (root + $0.path, $0.path) })
        for process in FileDescriptor.numberedEntries(in: root + "/proc", prefix: "") {
            let pid = String(process.split(separator: "/").last!)
            guard pid != String(getpid()) || !identity.isProcess else { continue }
            for fd in FileDescriptor.numberedEntries(in: process + "/fd", prefix: "") {
                guard let target = link(fd), let node = targets[target] else { continue }
                let command = read(process + "/comm")?.trimmingCharacters("\n") ?? "?"
                found[node, default: []].append(Holder(command: command, pid: pid, writes: writes(fdinfo: process + "/fdinfo/" + fd.split(separator: "/").last!),
                                                       kind: kind(of: process, command: command)))
            }
        }
        var slots: [String: SlotUse] = [:]
        for node in nodes where mayOpen(root + node.path) {
            slots[node.path] = Self.slotProbe(root + node.path)
        }
        let flagged = nodes.map(\.path).filter { found[$0] != nil || (slots[$0]?.taken ?? 0) > 0 }
        guard !flagged.isEmpty else {
            return [Finding(check: "holders", status: .ok, message: "no other process has a force-feedback node open")]
        }
        return flagged.map { node in
            let holders = found[node] ?? []
            var message = holders.isEmpty ? "\(node) is open in no other process this user may see"
                : "\(node) is open in \(holders.map(\.text).joined(separator: ", "))"
            if let use = slots[node] { message += "; \(use.taken) of \(use.total) slots taken by other openers" }
            var fixes: [String] = []
            if holders.contains(where: { $0.kind == "Steam" }) {
                fixes.append("Steam Input drives the pads it configures: turn it off for this pad in Steam's controller settings, or quit Steam")
            }
            if holders.contains(where: { $0.kind == "SDL" }) {
                fixes.append("an SDL program (a game) may upload its own effects and use the pad's slots: quit it")
            }
            if holders.isEmpty {
                fixes.append("the effects belong to a program this user cannot see (another user's) and stay until it closes the pad: 'sudo fuser -v \(node)' names it; close it")
            } else if fixes.isEmpty {
                fixes.append("a program holding the pad may play its own effects and use its slots: close it")
            }
            if holders.isEmpty || holders.contains(where: { $0.writes != false }) {
                fixes.append("'haptics stop' ends what it plays")
            }
            return Finding(check: "holders", status: .warning, message: message, fix: fixes.joined(separator: "; "), slots: slots[node])
        }
    }

    /// How many of a pad's effect slots other openers hold.
    struct SlotUse: Equatable {
        /// The slots the device has (`EVIOCGEFFECTS`).
        var total: Int
        /// The slots holding effects uploaded through other descriptors.
        var taken: Int
    }

    /// How the holders check counts a node's slots (given its path under the root):
    /// ``probeSlots(_:)``; tests give counts.
    @TaskLocal static var slotProbe: @Sendable (String) -> SlotUse? = { probeSlots($0) }

    /// Counts the slots other openers of the event node at `path` hold. The kernel does not list
    /// effects per owner, but it refuses an upload with `ENOSPC` when every slot is full: this
    /// uploads silent 1 ms effects until then and erases every one it uploaded, whatever happens
    /// (``ForceFeedbackBench/fillSlots(with:)``).
    /// Nothing is played. `nil` when `path` is not an input device this process may open for
    /// writing, or the device takes none of the probe's effects.
    static func probeSlots(_ path: String) -> SlotUse? {
        guard let device = try? EvdevDevice(path: path) else { return nil }
        let bench = ForceFeedbackBench(device: device)
        defer { bench.close() }
        let total = device.info.slots
        // A device takes only the types it advertises (EINVAL for others), checked before the slots.
        for effect in silentEffects() {
            let (filled, refusal) = bench.fillSlots(with: effect)
            guard let refusal else { return SlotUse(total: total, taken: 0) }
            if refusal.errno == .noSpace { return SlotUse(total: total, taken: max(0, total - filled)) }
            if filled > 0 { return nil }
        }
        return nil
    }

    /// A zero-magnitude rumble, constant force and sine of 1 ms: effects any force-feedback device
    /// takes one of, and that move nothing even if played.
    private static func silentEffects() -> [ff_effect] {
        var rumble = ff_effect()
        rumble.type = UInt16(FF_RUMBLE)
        var constant = ff_effect()
        constant.type = UInt16(FF_CONSTANT)
        var sine = ff_effect()
        sine.type = UInt16(FF_PERIODIC)
        sine.u.periodic.waveform = UInt16(FF_SINE)
        sine.u.periodic.period = 100
        return [rumble, constant, sine].map { effect in
            var effect = effect
            effect.id = -1
            effect.replay.length = 1
            return effect
        }
    }

    /// Whether the descriptor described by `fdinfo` was opened for writing (`flags:` in octal,
    /// O_WRONLY or O_RDWR in its low bits), or `nil` when that cannot be read.
    private func writes(fdinfo: String) -> Bool? {
        guard let text = read(fdinfo),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("flags:") }),
              let flags = Int(line.dropFirst("flags:".count).trimmingCharacters(" \t"), radix: 8) else { return nil }
        return flags & Int(O_ACCMODE) != Int(O_RDONLY)
    }

    /// `Steam` for Steam's processes, `SDL` for a program that loaded SDL (its memory maps name
    /// libSDL2 or libSDL3), else `nil`.
    private func kind(of process: String, command: String) -> String? {
        if command.lowercased().hasPrefix("steam") { return "Steam" }
        if let maps = read(process + "/maps"), maps.contains("libSDL2") || maps.contains("libSDL3") { return "SDL" }
        return nil
    }

    // MARK: Files

    /// A small text file, read to its end: /proc and /sys files say their size is 0 or a page.
    private func read(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 20 {
            let count = Glibc.read(descriptor, &chunk, chunk.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk.prefix(count)
        }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters("\n")
    }

    private func link(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension StringProtocol {
    /// The string without `characters` at either end.
    func trimmingCharacters(_ characters: String) -> String {
        let set = Set(characters)
        return String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}
