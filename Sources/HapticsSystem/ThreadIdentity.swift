import CHapticsSystem
import Glibc

/// Which kernel thread code runs on, as trace viewers and `top -H` name threads.
package enum ThreadIdentity {
    /// The calling thread's kernel id (gettid): a system call the first time on each thread, one
    /// load after that, so the realtime path may ask. No allocation, no lock.
    ///
    /// The corresponding C function is `gettid`.
    @inlinable
    package static var current: Int32 { CHapticsSystem_threadID() }

    /// The process's name (its main thread's, `/proc/self/comm`).
    package static var processName: String? { name(of: getpid()) }

    /// The name of thread `id` of this process (`/proc/self/task/<id>/comm`: at most 15 bytes), or
    /// `nil` when the thread has ended. The process's own id names the process.
    package static func name(of id: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: 32)
        guard CHapticsSystem_threadName(id, &buffer, Int32(buffer.count)) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
