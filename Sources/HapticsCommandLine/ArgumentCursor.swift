/// Walks a command's arguments: options written `--name value` or `--name=value`, flags, and
/// positional arguments, in any order. `--` ends the options.
struct ArgumentCursor {
    private var remaining: ArraySlice<String>
    private var positionalOnly = false

    /// Creates a cursor over the arguments that follow the command name.
    init(_ arguments: [String]) {
        remaining = arguments[...]
    }

    /// One parsed item.
    enum Item: Equatable {
        /// `--name` or `--name=value` (`inlineValue` is the part after `=`).
        case option(name: String, inlineValue: String?)
        /// A short option `-x`.
        case shortOption(Character)
        /// A positional argument.
        case positional(String)
    }

    /// The next item, or `nil` at the end.
    mutating func next() -> Item? {
        guard let argument = remaining.popFirst() else { return nil }
        if positionalOnly { return .positional(argument) }
        if argument == "--" {
            positionalOnly = true
            return next()
        }
        if argument.hasPrefix("--") {
            let body = argument.dropFirst(2)
            if let equals = body.firstIndex(of: "=") {
                return .option(name: String(body[..<equals]), inlineValue: String(body[body.index(after: equals)...]))
            }
            return .option(name: String(body), inlineValue: nil)
        }
        if argument.count == 2, argument.hasPrefix("-"), let letter = argument.last, letter != "-" {
            return .shortOption(letter)
        }
        return .positional(argument)
    }

    /// The value of an option: the inline `=value`, else the next argument.
    mutating func value(for name: String, inline: String?) throws(CommandLineError) -> String {
        if let inline { return inline }
        guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
            throw .usage("option --\(name) needs a value")
        }
        return value
    }
}

/// The arguments of a command that takes only `--json` and positional arguments (list, devices,
/// info, verify, validate): parsed in one place so they all reject the same mistakes the same way.
struct JSONAndPositionals {
    /// Whether `--json` was given.
    var json = false
    /// The positional arguments in order.
    var positionals: [String] = []

    /// Parses `arguments`, allowing at most `maximumPositionals` positionals; `missing`, when given,
    /// is the usage message for having none.
    init(_ arguments: [String], maximumPositionals: Int, missing: String? = nil) throws(CommandLineError) {
        var cursor = ArgumentCursor(arguments)
        while let item = cursor.next() {
            switch item {
            case .option("json", nil): json = true
            case let .option(name, _): throw .usage("unknown option --\(name)")
            case let .shortOption(letter): throw .usage("unknown option -\(letter)")
            case let .positional(value):
                guard positionals.count < maximumPositionals else { throw .usage("unexpected argument '\(value)'") }
                positionals.append(value)
            }
        }
        if let missing, positionals.isEmpty { throw .usage(missing) }
    }
}
