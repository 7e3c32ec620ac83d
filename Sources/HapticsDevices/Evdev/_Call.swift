/// The device calls the actuator makes, as small integers the realtime thread can publish atomically.
enum _Call: Int {
    case write = 1, upload = 2, erase = 3

    var name: String {
        switch self {
        case .write: "write"
        case .upload: "EVIOCSFF"
        case .erase: "EVIOCRMFF"
        }
    }
}
