import HapticsPatterns
import HapticsRendering
import HapticsScheduler
import Synchronization

/// One vocabulary item, rendered and loaded for every output, with a player per output.
///
/// Built once when the engine is created; after that only the `preparedUntil` stamp changes.
final class VocabularyEntry: Sendable {
    /// The item (impacts at intensity 1; the requested intensity is sent as a parameter).
    let feedback: Feedback
    /// Per output, in channel order: the player and how early it must start before the felt onset.
    let players: [(player: PlayerID, leadTime: Int64, playable: Bool)]
    /// Monotonic nanoseconds until which a `prepare()` holds; 0 = not prepared.
    let preparedUntil = Atomic<Int64>(0)

    init(feedback: Feedback, loading pattern: Pattern, on channels: [(output: HapticEngine.Output, channel: ChannelID)], into scheduler: any SchedulerControl) {
        self.feedback = feedback
        self.players = channels.map { entry in
            let program = Renderer(profile: entry.output.profile).render(pattern)
            // A vocabulary program always fits: the scheduler's default capacities hold the whole
            // vocabulary on every channel, so failure here is a configuration bug.
            let programID = try! scheduler.load(program)
            let player = try! scheduler.makePlayer(program: programID, channel: entry.channel)
            let playable = program.commands.contains { !$0.command.isSilent }
            return (player, program.leadTime, playable)
        }
    }

    /// The longest lead time over the outputs: "as soon as possible" is felt this long from now.
    var maximumLeadTime: Int64 { players.lazy.filter(\.playable).map(\.leadTime).max() ?? 0 }
}
