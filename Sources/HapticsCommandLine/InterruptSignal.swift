import Glibc
import Synchronization

/// Records SIGINT and SIGTERM instead of dying from them, so a long-running command (`emulate`)
/// can leave its devices the way it found them.
enum InterruptSignal {
    /// The last signal received, or 0.
    static let received = Atomic<Int32>(0)

    /// Installs the handlers. Whatever thread the kernel picks runs the handler, which only stores
    /// the number: nothing else is async-signal-safe.
    static func install() {
        received.store(0, ordering: .relaxed)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in InterruptSignal.received.store(signal, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
    }

    /// Puts the default actions back.
    static func uninstall() {
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }

    /// Whether SIGINT or SIGTERM arrived since `install()`.
    static var isPending: Bool { received.load(ordering: .relaxed) != 0 }
}
