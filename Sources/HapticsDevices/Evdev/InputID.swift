/// Who a device is: the bus it is on, its vendor and product ids and its version (`struct input_id`).
public struct InputID: Hashable, Sendable, CustomStringConvertible {
    /// The bus type (`BUS_USB` 0x03, `BUS_BLUETOOTH` 0x05, `BUS_VIRTUAL` 0x06…).
    public var bus: UInt16
    /// The vendor id (USB-style: 0x054c is Sony).
    public var vendor: UInt16
    /// The product id.
    public var product: UInt16
    /// The product version.
    public var version: UInt16

    /// Creates an identity.
    public init(bus: UInt16, vendor: UInt16, product: UInt16, version: UInt16) {
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
    }

    /// `vendor:product` in lowercase hex as `lsusb` writes it, e.g. `054c:0ce6`.
    public var description: String { "\(Self.hex(vendor)):\(Self.hex(product))" }

    private static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
