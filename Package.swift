// swift-tools-version:6.0
// Haptics — a haptic and feedback pattern engine for Linux.
//
// Modules follow the data flow (see docs/internals/architecture.md); every arrow points one way:
//
//   CHapticsDBus (libdbus-1, loaded at run time for rtkit) ← HapticsSystem ← HapticsPatterns ← HapticsRendering ← HapticsScheduler ← HapticsDevices ← Haptics
//   HapticsPatterns ← HapticsAudio (beside the devices: neither imports the other) ← Haptics
//   HapticsSystem ← HapticsVirtualDevices (uinput/uhid, for the testbench and `emulate`)
//   HapticsSystem ← HapticsTriggers (DualSense adaptive triggers through hidraw) ← Haptics
//   HapticsAudio, HapticsPatterns ← HapticsSoundAnalysis (a sound → the haptics that go with it) ← Haptics
//   HapticsAudio, HapticsRendering, HapticsTriggers, HapticsSoundAnalysis ← HapticsVoiceCoils (DualSense HD haptics: waveforms, USB audio, report 0x32, live drive from sound) ← Haptics
//   HapticsDevices, HapticsAudio, HapticsSoundAnalysis ← HapticsViews (terminal, SVG and WAV views of a motor timeline)
//   Haptics, HapticsSoundAnalysis, HapticsViews, HapticsVirtualDevices ← HapticsCommandLine ← haptics
//   HapticsAudio, HapticsSoundAnalysis, HapticsRendering, HapticsTriggers, HapticsVoiceCoils ← HapticsFuzzing ← haptics-fuzz (fuzz targets; `Tools/fuzz`)
//   Haptics, CHapticsABI (the C header) ← HapticsC ← libhaptics.so (the C interface; `Tools/install`)
//
// The system, scheduler, device, audio and virtual-device modules import the C shims; above them only
// the measurement code, the CLI's bench commands and the C interface do. No library module imports
// Foundation (only the CLI does).
import PackageDescription

let package = Package(
    name: "Haptics",
    products: [
        .library(name: "Haptics", targets: ["Haptics"]),
        .executable(name: "haptics", targets: ["haptics"]),
        // The C interface, <haptics/haptics.h>: `Tools/install` builds it with the Swift runtime
        // linked in and installs it as libhaptics.so.0.
        .library(name: "HapticsC", type: .dynamic, targets: ["HapticsC"]),
    ],
    targets: [
        // C shims: system calls and macros Swift cannot import (function-like macros, variadic calls).
        .target(name: "CHapticsSystem"),
        // ALSA's error handler, a variadic C function: its messages go into the error reported.
        .target(name: "CHapticsALSA", dependencies: ["CALSA"]),
        .systemLibrary(
            name: "CALSA",
            pkgConfig: "alsa",
            providers: [.apt(["libasound2-dev"])]
        ),
        // libdbus-1, loaded at run time to ask rtkit for realtime priority: nothing links against it,
        // so a program builds without its development files and runs where it is absent.
        .target(name: "CHapticsDBus", linkerSettings: [.linkedLibrary("dl")]),
        .systemLibrary(
            name: "CEvdev",
            pkgConfig: "libevdev",
            providers: [.apt(["libevdev-dev"])]
        ),

        // The bottom: errno, file descriptors, the monotonic clock, the lock-free queue, the realtime thread.
        .target(name: "HapticsSystem", dependencies: ["CHapticsSystem", "CHapticsDBus"]),
        // Pure: vocabulary, pattern IR, AHAP codec. No I/O beyond reading a file.
        .target(name: "HapticsPatterns", dependencies: ["HapticsSystem", "HapticsTriggers"]),
        // Pure: pattern × device profile → program of timed actuator commands.
        .target(name: "HapticsRendering", dependencies: ["HapticsPatterns", "HapticsSystem"]),
        // Realtime core: lock-free submission, one RT thread, generic over an injected clock.
        .target(name: "HapticsScheduler", dependencies: ["HapticsRendering", "HapticsSystem", "CHapticsSystem"]),
        // Sound: WAV codec, AHAP audio events, ALSA/WAV/null sinks on the engine's clock.
        .target(name: "HapticsAudio", dependencies: ["HapticsPatterns", "HapticsSystem", "CHapticsSystem", "CALSA", "CHapticsALSA"]),
        // Sound → haptics: onsets, loudness and brightness of a sound as a pattern (its own FFT).
        .target(name: "HapticsSoundAnalysis", dependencies: ["HapticsAudio", "HapticsPatterns", "HapticsSystem"]),
        // The devices the engine drives: simulated, evdev (libevdev), hotplug.
        .target(name: "HapticsDevices", dependencies: ["HapticsScheduler", "HapticsRendering", "HapticsSystem", "CHapticsSystem", "CEvdev"]),
        // Virtual devices created through uinput and uhid: the testbench's sinks and `haptics emulate`.
        .target(name: "HapticsVirtualDevices", dependencies: ["HapticsSystem", "CEvdev"]),
        // DualSense adaptive triggers: typed effects, their output reports, the pad's hidraw node.
        .target(name: "HapticsTriggers", dependencies: ["HapticsSystem"]),
        // DualSense HD haptics: patterns rendered as the voice coils' waveform, its USB frames and
        // Bluetooth reports 0x32.
        .target(name: "HapticsVoiceCoils", dependencies: ["HapticsAudio", "HapticsRendering", "HapticsPatterns", "HapticsTriggers", "HapticsSoundAnalysis", "HapticsSystem"]),
        // The public engine; `import Haptics` is the one import a game needs.
        // The version comes from the C header (CHapticsABI), the one place that says it.
        .target(name: "Haptics", dependencies: ["HapticsDevices", "HapticsTriggers", "HapticsVoiceCoils", "HapticsAudio", "HapticsSoundAnalysis", "HapticsScheduler", "HapticsRendering", "HapticsPatterns", "HapticsSystem", "CHapticsABI"]),
        // Views of what a device was told: terminal and SVG plots, the motors as sound; a sound and
        // the haptics derived from it.
        .target(name: "HapticsViews", dependencies: ["HapticsDevices", "HapticsAudio", "HapticsSoundAnalysis", "HapticsPatterns", "HapticsSystem"]),
        // The `haptics` command-line tool, as a library so its parser and output are testable.
        // The C interface: the header (a C target, so Swift reads the structs' layouts from it) and
        // its definitions. Only `haptics_*` symbols leave the shared library, named libhaptics.so.0.
        .target(name: "CHapticsABI"),
        .target(
            name: "HapticsC", dependencies: ["Haptics", "CHapticsABI"], exclude: ["exports.map"],
            linkerSettings: [.unsafeFlags([
                "-Xlinker", "--version-script=\(Context.packageDirectory)/Sources/HapticsC/exports.map",
                "-Xlinker", "-soname=libhaptics.so.0",
            ])]
        ),
        // Measurements of the engine against the outside world (the loopback sync test, its capture,
        // the stall probe): the CLI's sync-test, the benchmarks and the kernel tests use them; a game
        // never links them.
        .target(name: "HapticsMeasurement", dependencies: ["Haptics", "HapticsVirtualDevices", "CALSA", "CHapticsALSA", "CHapticsSystem"]),
        .target(name: "HapticsCommandLine", dependencies: ["Haptics", "HapticsMeasurement", "HapticsSoundAnalysis", "HapticsViews", "HapticsVirtualDevices"]),
        .executableTarget(name: "haptics", dependencies: ["HapticsCommandLine"]),

        // Benchmarks (not tests): `Tools/bench <name>`.
        // Links Debian's libSDL2 (and libudev, which SDL loads) for the peers benchmark
        // (`Tools/install-deps libsdl2-dev libudev-dev`). Only haptics-bench depends on it: building
        // a product (`--product haptics`, `HapticsC`) or depending on `Haptics` never needs SDL2;
        // a plain `swift build` of every target does.
        .target(name: "CBenchSupport", path: "Tools/Bench/CBenchSupport",
                linkerSettings: [.linkedLibrary("SDL2"), .linkedLibrary("udev")]),
        .executableTarget(
            name: "haptics-bench",
            dependencies: ["HapticsCommandLine", "HapticsMeasurement", "Haptics", "HapticsC", "CHapticsABI", "HapticsVirtualDevices",
                           "HapticsVoiceCoils", "CBenchSupport", "CEvdev"],
            path: "Tools/Bench/haptics-bench"
        ),
        // `Tools/bench size`: what `import Haptics` adds to a statically linked program.
        // Examples: a game loop on two pads (the game as a library, so the kernel tests run it too).
        .target(name: "HapticsExampleGame", dependencies: ["Haptics"], path: "Examples/GameLoop/Game"),
        .executableTarget(name: "haptics-example-game", dependencies: ["HapticsExampleGame", "Haptics"], path: "Examples/GameLoop/Main"),
        .executableTarget(name: "haptics-minimal-client", dependencies: ["Haptics"], path: "Tools/Bench/minimal-client"),
        .executableTarget(name: "haptics-hello-baseline", path: "Tools/Bench/hello-baseline"),

        // Fuzzing (not a test): each target reads one untrusted input. `Tools/fuzz <target>` builds
        // haptics-fuzz with libFuzzer and `-D HAPTICS_FUZZING`; a normal build links a plain replayer.
        .target(name: "HapticsFuzzing", dependencies: ["HapticsAudio", "HapticsSoundAnalysis", "HapticsTriggers", "HapticsVoiceCoils", "HapticsRendering", "HapticsPatterns", "HapticsSystem"]),
        .executableTarget(name: "haptics-fuzz", dependencies: ["HapticsFuzzing", "HapticsSystem"], path: "Tools/Fuzz/haptics-fuzz"),

        // What every test target shares: a manual clock, recording actuators, temporary folders,
        // the repository's path, WAV bytes written by hand.
        .target(name: "HapticsTestSupport", dependencies: ["HapticsDevices", "HapticsScheduler", "HapticsRendering", "HapticsSystem", "CHapticsDBus", "CEvdev"], path: "Tests/HapticsTestSupport"),

        // Every Swift block of README.md, extracted by Tools/generate-readme-examples: built by
        // `swift build --build-tests`. Its main.swift is the README's Swift quick start, which the kernel
        // tests run on a virtual DualSense; the later blocks are never run. `Haptics` alone, since it
        // is the one import a game needs.
        .executableTarget(name: "ReadmeExamples", dependencies: ["Haptics"], path: "Tests/ReadmeExamples"),

        // Each test target depends on exactly the modules its files import, and on HapticsTestSupport.
        .testTarget(name: "HapticsSystemTests", dependencies: ["HapticsSystem", "HapticsTestSupport"]),
        .testTarget(name: "HapticsPatternsTests", dependencies: ["HapticsPatterns", "HapticsTestSupport"]),
        .testTarget(name: "HapticsRenderingTests", dependencies: ["HapticsRendering", "HapticsPatterns", "HapticsSystem", "HapticsTestSupport"]),
        .testTarget(name: "HapticsSchedulerTests", dependencies: ["HapticsScheduler", "HapticsRendering", "HapticsSystem", "CHapticsSystem", "HapticsTestSupport"]),
        .testTarget(name: "HapticsMeasurementTests", dependencies: ["HapticsMeasurement", "HapticsSystem", "HapticsTestSupport"]),
        .testTarget(name: "HapticsAudioTests", dependencies: ["HapticsAudio", "HapticsPatterns", "HapticsScheduler", "HapticsSystem", "HapticsTestSupport"]),
        .testTarget(name: "HapticsSoundAnalysisTests", dependencies: ["HapticsSoundAnalysis", "HapticsAudio", "HapticsPatterns", "HapticsTestSupport"]),
        .testTarget(name: "HapticsDevicesTests", dependencies: ["HapticsDevices", "HapticsRendering", "HapticsScheduler", "HapticsSystem", "CEvdev", "HapticsTestSupport"]),
        .testTarget(name: "HapticsTriggersTests", dependencies: ["HapticsTriggers", "HapticsSystem", "HapticsTestSupport"]),
        .testTarget(name: "HapticsVoiceCoilsTests", dependencies: ["HapticsVoiceCoils", "HapticsAudio", "HapticsPatterns", "HapticsTriggers", "HapticsSoundAnalysis", "HapticsSystem", "HapticsTestSupport"]),
        .testTarget(name: "HapticsViewsTests", dependencies: ["HapticsViews", "HapticsAudio", "HapticsSoundAnalysis", "HapticsDevices", "HapticsRendering", "HapticsTestSupport"]),
        .testTarget(name: "HapticsTests", dependencies: ["Haptics", "HapticsAudio", "HapticsDevices", "HapticsPatterns", "HapticsRendering", "HapticsScheduler", "HapticsSystem", "HapticsTestSupport"]),
        .testTarget(name: "HapticsCommandLineTests", dependencies: [
            "HapticsCommandLine", "HapticsAudio", "HapticsDevices", "HapticsPatterns", "HapticsRendering", "HapticsScheduler",
            "HapticsSoundAnalysis", "HapticsSystem", "HapticsVirtualDevices", "CEvdev", "HapticsTestSupport",
        ]),
        .testTarget(name: "HapticsFuzzingTests", dependencies: ["HapticsFuzzing", "HapticsTriggers", "HapticsAudio", "HapticsSystem", "HapticsTestSupport"]),
        .testTarget(name: "HapticsKernelTests", dependencies: [
            "Haptics", "HapticsCommandLine", "HapticsMeasurement", "HapticsAudio", "HapticsDevices", "HapticsPatterns", "HapticsRendering",
            "HapticsScheduler", "HapticsSystem", "HapticsTriggers", "HapticsVirtualDevices", "CHapticsSystem", "CEvdev", "CALSA", "HapticsTestSupport",
            "HapticsExampleGame", "HapticsVoiceCoils",
        ]),
    ]
)
