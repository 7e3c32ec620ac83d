// swift-tools-version:6.0
// Haptics — a haptic and feedback pattern engine for Linux.
//
// Modules follow the data flow (see README "Architecture"); every arrow points one way:
//   HapticsPatterns → HapticsRendering → HapticsScheduler → HapticsDevices → Haptics → HapticsCommandLine → haptics
// Only the device/system modules import the C shims.
import PackageDescription

let package = Package(
    name: "Haptics",
    products: [
        .library(name: "Haptics", targets: ["Haptics"]),
        .executable(name: "haptics", targets: ["haptics"]),
    ],
    targets: [
        // C shims: system calls and macros Swift cannot import (function-like macros, variadic prctl).
        .target(name: "CHapticsSystem"),
        .systemLibrary(
            name: "CALSA",
            pkgConfig: "alsa",
            providers: [.apt(["libasound2-dev"])]
        ),
        .systemLibrary(
            name: "CEvdev",
            pkgConfig: "libevdev",
            providers: [.apt(["libevdev-dev"])]
        ),

        // Pure: vocabulary, pattern IR, AHAP codec. No I/O beyond reading a file.
        .target(name: "HapticsPatterns"),
        // Pure: pattern × device profile → program of timed actuator commands.
        .target(name: "HapticsRendering", dependencies: ["HapticsPatterns"]),
        // Realtime core: lock-free submission, one RT thread, generic over an injected clock.
        .target(name: "HapticsScheduler", dependencies: ["HapticsPatterns", "HapticsRendering", "CHapticsSystem"]),
        // Sound: WAV codec, AHAP audio events, ALSA/WAV/null sinks on the engine's clock.
        .target(name: "HapticsAudio", dependencies: ["HapticsPatterns", "HapticsScheduler", "CHapticsSystem", "CALSA"]),
        // Outputs: simulated device (plots, WAV), evdev devices, virtual devices for the testbench.
        .target(name: "HapticsDevices", dependencies: ["HapticsScheduler", "HapticsRendering", "HapticsAudio", "CHapticsSystem", "CEvdev"]),
        // Public engine and feedback generators.
        .target(name: "Haptics", dependencies: ["HapticsDevices", "HapticsAudio", "HapticsScheduler", "HapticsRendering", "HapticsPatterns"]),
        // The `haptics` command-line tool, as a library so its parser and output are testable.
        .target(name: "HapticsCommandLine", dependencies: ["Haptics", "HapticsAudio", "HapticsDevices", "HapticsScheduler", "HapticsRendering", "HapticsPatterns"]),
        .executableTarget(name: "haptics", dependencies: ["HapticsCommandLine"]),

        // Benchmarks (not tests): `Tools/bench <name>`.
        .target(name: "CBenchSupport", path: "Tools/Bench/CBenchSupport"),
        .executableTarget(
            name: "haptics-bench",
            dependencies: ["HapticsCommandLine", "Haptics", "HapticsAudio", "HapticsDevices", "HapticsScheduler", "HapticsRendering", "HapticsPatterns", "CBenchSupport", "CEvdev"],
            path: "Tools/Bench/haptics-bench"
        ),

        .testTarget(name: "HapticsPatternsTests", dependencies: ["HapticsPatterns"]),
        .testTarget(name: "HapticsRenderingTests", dependencies: ["HapticsRendering"]),
        .testTarget(name: "HapticsSchedulerTests", dependencies: ["HapticsScheduler", "HapticsRendering", "CHapticsSystem"]),
        .testTarget(name: "HapticsAudioTests", dependencies: ["HapticsAudio", "HapticsPatterns", "HapticsScheduler"]),
        .testTarget(name: "HapticsDevicesTests", dependencies: ["HapticsDevices", "HapticsScheduler", "HapticsRendering"]),
        .testTarget(name: "HapticsTests", dependencies: ["Haptics", "HapticsAudio", "HapticsDevices", "HapticsScheduler", "HapticsRendering", "HapticsPatterns"]),
        .testTarget(name: "HapticsCommandLineTests", dependencies: ["HapticsCommandLine", "HapticsAudio", "HapticsDevices", "HapticsRendering", "HapticsPatterns"]),
        .testTarget(name: "HapticsKernelTests", dependencies: ["HapticsDevices", "HapticsAudio", "Haptics", "HapticsCommandLine", "HapticsPatterns", "HapticsRendering", "HapticsScheduler", "CEvdev", "CALSA"]),
    ]
)
