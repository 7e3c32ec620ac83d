import Glibc

/// Waits until `condition` holds or `timeout` seconds pass, checking every millisecond, and
/// returns whether it held. The engine's threads and the kernel do their work asynchronously, and
/// the suite runs tests side by side (under the sanitizers, several times slower): a test waits
/// for the result it expects instead of sleeping a guessed time.
@discardableResult
public func waitUntil(timeout: Double = 10, _ condition: () -> Bool) -> Bool {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    let deadline = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec) + Int64(timeout * 1e9)
    while !condition() {
        clock_gettime(CLOCK_MONOTONIC, &now)
        if Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec) > deadline { return condition() }
        usleep(1_000)
    }
    return true
}
