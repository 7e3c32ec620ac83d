import HapticsDevices
import HapticsRendering
import Testing

@Suite struct EvdevProfileSelectionTests {
    static func device(_ vendor: UInt16, _ product: UInt16, _ codes: Set<ForceFeedbackCode>, slots: Int = 16) -> EvdevDeviceInfo {
        EvdevDeviceInfo(path: "/dev/input/event4", name: "pad", id: InputID(bus: 0x03, vendor: vendor, product: product, version: 0x0111),
                        physicalLocation: "", uniqueIdentifier: "", forceFeedbackCodes: codes, slots: slots)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var device: EvdevDeviceInfo
        var profile: String
        var testDescription: String { "\(device.id) \(device.forceFeedbackCodes.sorted()) → \(profile)" }
    }

    static let cases: [Case] = [
        Case(device: device(0x054C, 0x0CE6, [.rumble, .periodic, .gain]), profile: "dualsense"),
        Case(device: device(0x054C, 0x0DF2, [.rumble, .periodic, .gain]), profile: "dualsense"),
        Case(device: device(0x054C, 0x05C4, [.rumble, .periodic, .gain]), profile: "dualshock4"),
        Case(device: device(0x054C, 0x09CC, [.rumble, .periodic, .gain]), profile: "dualshock4"),
        Case(device: device(0x045E, 0x02EA, [.rumble, .periodic, .gain]), profile: "xbox"),
        Case(device: device(0x045E, 0x0B13, [.rumble]), profile: "xbox"),
        Case(device: device(0x057E, 0x2009, [.rumble]), profile: "switch-pro"),
        // Another Nintendo product (a Joy-Con) and another Sony product fall back on their bits.
        Case(device: device(0x057E, 0x2006, [.rumble]), profile: "generic-rumble"),
        Case(device: device(0x054C, 0x0268, [.rumble]), profile: "generic-rumble"),
        Case(device: device(0x1209, 0x0001, [.rumble, .periodic]), profile: "generic-rumble"),
        Case(device: device(0x0000, 0x0000, [.periodic, .gain]), profile: "phone-vibra"),
        Case(device: device(0x046D, 0xC24F, [.constant, .gain, .autocenter]), profile: "constant-force-wheel"),
        // A PID wheel also has periodic effects (and the input core adds rumble): still a wheel.
        Case(device: device(0x046D, 0xC262, [.constant, .periodic, .rumble, .gain]), profile: "constant-force-wheel"),
    ]

    @Test(arguments: cases)
    func profileByVendorProductThenByForceFeedbackBits(_ entry: Case) {
        #expect(DeviceCatalog.profile(for: entry.device).name == entry.profile)
    }

    @Test func theProfileIsTheBuiltinOneWithTheDevicesRealSlotCount() {
        var expected = DeviceProfile.dualSense
        expected.limits.slots = 16
        #expect(DeviceCatalog.profile(for: Self.device(0x054C, 0x0CE6, [.rumble])) == expected)

        var oneSlot = DeviceProfile.genericRumble
        oneSlot.limits.slots = 1
        #expect(DeviceCatalog.profile(for: Self.device(0x1209, 0x0001, [.rumble], slots: 1)) == oneSlot)
        #expect(DeviceCatalog.profile(for: Self.device(0x0000, 0x0000, [.periodic], slots: 3)).limits.slots == 3)
    }

    @Test func identitiesPrintAsLsusbDoes() {
        #expect(InputID(bus: 3, vendor: 0x054C, product: 0x0CE6, version: 0x8111).description == "054c:0ce6")
        #expect(InputID(bus: 6, vendor: 0x1209, product: 0x1, version: 0).description == "1209:0001")
    }
}
