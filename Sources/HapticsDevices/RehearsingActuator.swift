import HapticsScheduler

/// An actuator that can rehearse: run its whole play path, system calls included, with writes the
/// device never acts on. The engine rehearses one play when it starts, before any play of the
/// game's can reach the actuator, so that the code of a play has run once in the process before
/// the game's first play (a process's first run of code is what makes its first play the slowest).
package protocol RehearsingActuator: Actuator {
    /// Switches rehearsal on or off. Control side, only while no play of the game's can reach the
    /// actuator: while it is on, every `perform` is a rehearsal.
    func setRehearsing(_ rehearsing: Bool)
}
