import CEvdev
import HapticsDevices
import HapticsRendering
import Testing

@Suite struct EvdevProfileSelectionTests {
    static func device(_ vendor: UInt16, _ product: UInt16, _ codes: [CInt], slots: Int = 16) -> EvdevDeviceInfo {
        EvdevDeviceInfo(path: "/dev/input/event4", name: "pad", id: InputID(bus: 0x03, vendor: vendor, product: product, version: 0x0111),
                        physicalLocation: "", uniqueIdentifier: "", forceFeedbackCodes: Set(codes.map { UInt16($0) }), slots: slots)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var device: EvdevDeviceInfo
        var profile: String
        var testDescription: String { "\(device.id) \(device.forceFeedbackCodes.sorted()) → \(profile)" }
    }

    static let cases: [Case] = [
        Case(device: device(0x054C, 0x0CE6, [FF_RUMBLE, FF_PERIODIC, FF_GAIN]), profile: "dualsense"),
        Case(device: device(0x054C, 0x0DF2, [FF_RUMBLE, FF_PERIODIC, FF_GAIN]), profile: "dualsense"),
        Case(device: device(0x054C, 0x05C4, [FF_RUMBLE, FF_PERIODIC, FF_GAIN]), profile: "dualshock4"),
        Case(device: device(0x054C, 0x09CC, [FF_RUMBLE, FF_PERIODIC, FF_GAIN]), profile: "dualshock4"),
        Case(device: device(0x045E, 0x02EA, [FF_RUMBLE, FF_PERIODIC, FF_GAIN]), profile: "xbox"),
        Case(device: device(0x045E, 0x0B13, [FF_RUMBLE]), profile: "xbox"),
        Case(device: device(0x057E, 0x2009, [FF_RUMBLE]), profile: "switch-pro"),
        // Another Nintendo product (a Joy-Con) and another Sony product fall back on their bits.
        Case(device: device(0x057E, 0x2006, [FF_RUMBLE]), profile: "generic-rumble"),
        Case(device: device(0x054C, 0x0268, [FF_RUMBLE]), profile: "generic-rumble"),
        Case(device: device(0x1209, 0x0001, [FF_RUMBLE, FF_PERIODIC]), profile: "generic-rumble"),
        Case(device: device(0x0000, 0x0000, [FF_PERIODIC, FF_GAIN]), profile: "phone-vibra"),
        Case(device: device(0x046D, 0xC24F, [FF_CONSTANT, FF_GAIN, FF_AUTOCENTER]), profile: "constant-force-wheel"),
        // A PID wheel also has periodic effects (and the input core adds rumble): still a wheel.
        Case(device: device(0x046D, 0xC262, [FF_CONSTANT, FF_PERIODIC, FF_RUMBLE, FF_GAIN]), profile: "constant-force-wheel"),
    ]

    @Test(arguments: cases)
    func profileByVendorProductThenByForceFeedbackBits(_ entry: Case) {
        #expect(DeviceCatalog.profile(for: entry.device).name == entry.profile)
    }

    @Test func theProfileIsTheBuiltinOneWithTheDevicesRealSlotCount() {
        var expected = DeviceProfile.dualSense
        expected.limits.slots = 16
        #expect(DeviceCatalog.profile(for: Self.device(0x054C, 0x0CE6, [FF_RUMBLE])) == expected)

        var oneSlot = DeviceProfile.genericRumble
        oneSlot.limits.slots = 1
        #expect(DeviceCatalog.profile(for: Self.device(0x1209, 0x0001, [FF_RUMBLE], slots: 1)) == oneSlot)
        #expect(DeviceCatalog.profile(for: Self.device(0x0000, 0x0000, [FF_PERIODIC], slots: 3)).limits.slots == 3)
    }

    @Test func identitiesPrintAsLsusbDoes() {
        #expect(InputID(bus: 3, vendor: 0x054C, product: 0x0CE6, version: 0x8111).description == "054c:0ce6")
        #expect(InputID(bus: 6, vendor: 0x1209, product: 0x1, version: 0).description == "1209:0001")
    }
}
