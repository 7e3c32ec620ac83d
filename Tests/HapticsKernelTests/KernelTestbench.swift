import Glibc
import Testing

/// Whether these tests run inside the real-kernel testbench guest (`Tools/testbench/run`).
///
/// The guest's /init sets `HAPTICS_KERNEL_TESTBENCH=1` and has loaded uinput, uhid and
/// hid-playstation; anywhere else (a build host, CI outside the guest) the suites are not run.
enum KernelTestbench {
    static var isGuest: Bool {
        getenv("HAPTICS_KERNEL_TESTBENCH").map { String(cString: $0) } == "1"
            && access("/dev/uinput", W_OK) == 0
            && access("/dev/uhid", W_OK) == 0
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs a suite only inside the real-kernel testbench guest.
    static var requiresKernelTestbench: Self {
        .enabled(if: KernelTestbench.isGuest, "needs the real-kernel testbench guest (Tools/testbench/run)")
    }
}
