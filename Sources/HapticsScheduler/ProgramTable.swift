import HapticsSystem

/// The scheduler's loaded programs, by program id: each one's commands in storage of its own,
/// which the control side fills when it loads the program and frees once no player reads it.
/// Allocated when the scheduler is made; frees what is still loaded when it goes.
///
/// Stored in place in the scheduler, the table behind a stored pointer (see ``PlayerTable``).
struct ProgramTable: ~Copyable {
    /// How many programs there can be (`SchedulerConfiguration.maximumPrograms`).
    let count: Int
    /// The programs, `.empty` where none is loaded.
    let entries: UnsafeMutablePointer<ProgramStorage>

    private let storage: FixedArray<ProgramStorage>

    /// `count` empty entries.
    init(count: Int) {
        self.count = count
        storage = FixedArray(repeating: ProgramStorage.empty, count: count)
        entries = storage.base
    }

    deinit {
        for index in 0..<count { entries[index].commands?.deallocate() }
    }
}
