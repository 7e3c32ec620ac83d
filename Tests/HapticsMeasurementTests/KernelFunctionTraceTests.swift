import Testing
@testable import HapticsMeasurement

/// Reading the function tracer's lines: entries with their thread and instant, marks and headers
/// left out, in time order.
@Suite struct KernelFunctionTraceTests {
    @Test func entriesAreReadWithThreadInstantAndFunctionInTimeOrder() {
        let lines: [Substring] = [
            "   haptics-bench-123     [000] ...1.   123.456901: sys_write -> 0x18",
            "   haptics-bench-123     [000] d..1.   123.456789: evdev_write <-vfs_write",
            "     kworker/0:1-45      [001] .....   123.457000: dualsense_output_worker <-process_one_work",
            "   haptics-bench-123     [000] .....   123.457100: tracing_mark_write: step 3",
            "  <idle>-0               [000] d.h1.     7.5: ml_effect_timer <-call_timer_fn",
            "not a trace line",
        ]
        #expect(KernelFunctionTrace.entries(lines) == [
            .init(thread: 0, instant: 7_500_000_000, function: "ml_effect_timer"),
            .init(thread: 123, instant: 123_456_789_000, function: "evdev_write"),
            .init(thread: 123, instant: 123_456_901_000, function: "sys_write"),
            .init(thread: 45, instant: 123_457_000_000, function: "dualsense_output_worker"),
        ])
    }

    @Test func aLineIsTakenApartIntoTaskThreadFlagsInstantAndText() {
        let line: Substring = "   haptics-bench-103     [000] dN.6.   3668.689431: sched_wakeup: comm=kworker/0:1 pid=17 prio=120"
        #expect(KernelFunctionTrace.parse(line) == KernelFunctionTrace.Line(
            task: "haptics-bench-103", thread: 103, flags: "dN.6.", instant: 3_668_689_431_000,
            text: "sched_wakeup: comm=kworker/0:1 pid=17 prio=120"))
        #expect(KernelFunctionTrace.parse("# tracer: function") == nil)
        #expect(KernelFunctionTrace.parse("   haptics-bench-103     [000] dN.6.   soon: evdev_write") == nil)
    }

    @Test func stampsOfUpToNineDigitsAreNanoseconds() {
        #expect(KernelFunctionTrace.nanoseconds("1.000000001") == 1_000_000_001)
        #expect(KernelFunctionTrace.nanoseconds("2.5") == 2_500_000_000)
        #expect(KernelFunctionTrace.nanoseconds("2.") == nil)
        #expect(KernelFunctionTrace.nanoseconds("2.1234567890") == nil)
        #expect(KernelFunctionTrace.nanoseconds("x.5") == nil)
    }
}
