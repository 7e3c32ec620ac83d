import Glibc
import HapticsSystem

/// A D-Bus daemon of the test's own (Debian's `dbus-daemon`) on a socket in a temporary folder,
/// open to every user, so services and clients of a test talk over a real bus without the system's.
/// `stop()` (or the last reference going away) ends it.
public final class PrivateBus: @unchecked Sendable {
    /// Why a bus could not be started: `dbus-daemon` is missing or did not come up.
    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The address clients connect to (`unix:path=…`).
    public let address: String
    private let folder: TemporaryFolder
    private var process: pid_t

    /// Starts `dbus-daemon` and waits (up to 10 s) until its socket exists.
    public init() throws {
        let candidates: [String] = ["/usr/bin/dbus-daemon", "/bin/dbus-daemon"]
        let daemon = candidates.first { access($0, X_OK) == 0 }
        guard let daemon else {
            throw StartError(description: "dbus-daemon is not installed (Debian package dbus-daemon; Tools/install-deps installs it)")
        }
        folder = try TemporaryFolder(prefix: "haptics-bus")
        // Reachable by every user: tests connect from threads that dropped root.
        chmod(folder.path, 0o755)
        let socket = folder.path + "/bus"
        address = "unix:path=" + socket
        let configuration = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>\(address)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow user="*"/>
                <allow own="*"/>
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
              </policy>
            </busconfig>
            """
        try folder.write(Array(configuration.utf8), to: "bus.conf")
        // A shell watches the test process and ends the daemon when it goes, even killed: a daemon
        // left behind would hold the test runner's output open. Its output goes to a file beside the
        // socket; it starts with a clean signal mask (the test process may block SIGTERM).
        let watchdog = "\"$@\" & daemon=$!; trap 'kill $daemon; exit 0' TERM; "
            + "while kill -0 \(getpid()) && kill -0 $daemon; do sleep 1; done 2>/dev/null; kill $daemon 2>/dev/null"
        let arguments = ["/bin/sh", "-c", watchdog, "sh", daemon, "--config-file=" + folder.path + "/bus.conf",
                         "--nofork", "--nopidfile", "--nosyslog"]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, folder.path + "/bus.log", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, &argv, environ)
        guard result == 0 else {
            throw StartError(description: "dbus-daemon cannot be started: \(Errno(rawValue: result))")
        }
        process = pid
        for _ in 0..<1_000 {
            // The socket file appears when the daemon binds it, before it listens: ready once a
            // connection is taken.
            if Self.accepts(socket) { return }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                process = 0
                throw StartError(description: "dbus-daemon exited at start (status \(status))")
            }
            usleep(10_000)
        }
        stop()
        throw StartError(description: "dbus-daemon did not listen on its socket within 10 s")
    }

    /// Whether a Unix socket at `path` accepts a connection.
    private static func accepts(_ path: String) -> Bool {
        let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }

    /// Ends the daemon (through its watchdog) and removes its folder.
    public func stop() {
        if process > 0 {
            kill(process, SIGTERM)
            var status: Int32 = 0
            waitpid(process, &status, 0)
            process = 0
        }
        folder.remove()
    }

    deinit { stop() }
}
