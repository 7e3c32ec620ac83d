import Testing
@testable import HapticsCommandLine

@Suite("Argument cursor")
struct ArgumentCursorTests {
    @Test("options as --x y and --x=y, flags, positionals and -- in any order")
    func parsesAllForms() throws {
        var cursor = ArgumentCursor(["a", "--plot", "p.svg", "--wav=w.wav", "--json", "-o", "--", "--not-an-option"])
        #expect(cursor.next() == .positional("a"))
        #expect(cursor.next() == .option(name: "plot", inlineValue: nil))
        #expect(try cursor.value(for: "plot", inline: nil) == "p.svg")
        #expect(cursor.next() == .option(name: "wav", inlineValue: "w.wav"))
        #expect(try cursor.value(for: "wav", inline: "w.wav") == "w.wav")
        #expect(cursor.next() == .option(name: "json", inlineValue: nil))
        #expect(cursor.next() == .shortOption("o"))
        #expect(cursor.next() == .positional("--not-an-option"))
        #expect(cursor.next() == nil)
    }

    @Test("an option missing its value is a usage error")
    func missingValue() {
        var cursor = ArgumentCursor(["--plot", "--json"])
        _ = cursor.next()
        #expect(throws: CommandLineError.usage("option --plot needs a value")) {
            try cursor.value(for: "plot", inline: nil)
        }
    }
}
