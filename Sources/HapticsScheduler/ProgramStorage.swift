import HapticsRendering

/// A loaded program as the realtime side reads it: a copy of the commands in storage that is never
/// mutated while a player may read it.
struct ProgramStorage: @unchecked Sendable {
    var commands: UnsafeMutablePointer<TimedCommand>?
    var count: Int
    var durationNanoseconds: Int64
    /// Commands before the program's trailing `.stop`: a looping player wraps here instead of stopping.
    var loopEnd: Int

    static let empty = ProgramStorage(commands: nil, count: 0, durationNanoseconds: 0, loopEnd: 0)

    /// The index of the first command after program time `offsetNanoseconds` within the loop: the
    /// commands before it are history there, and the last of them is the level in effect there.
    @inline(__always)
    func cursor(afterNanoseconds offset: Int64) -> Int {
        var cursor = 0
        while cursor < loopEnd && commands![cursor].offsetNanoseconds <= offset { cursor += 1 }
        return cursor
    }
}
