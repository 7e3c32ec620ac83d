import HapticsDevices

extension InputID {
    /// `bus:vendor:product` in lowercase hex, e.g. `0003:054c:0ce6`.
    var busVendorProduct: String { "\(Self.hex4(bus)):\(description)" }

    static func hex4(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
