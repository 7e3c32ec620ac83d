import HapticsRendering

extension DeviceCatalog {
    /// A device the catalog knows by vendor and product id.
    public struct KnownDevice: Hashable, Sendable {
        /// The vendor id.
        public var vendor: UInt16
        /// The product id, or `nil` for every product of the vendor.
        public var product: UInt16?
        /// The built-in profile it plays with.
        public var profile: DeviceProfile

        /// Creates an entry.
        public init(vendor: UInt16, product: UInt16?, profile: DeviceProfile) {
            self.vendor = vendor
            self.product = product
            self.profile = profile
        }
    }
}
