import HapticsPatterns
import HapticsSystem

/// A labelled moment on a plot: usually a pattern event ("transient I=0.47 S=0.80").
///
/// On the timeline of a `Program`, a pattern event at pattern time `t` belongs at
/// `t + program.leadTimeNanoseconds`: the program starts that much early so the felt onset lands on time.
public struct PlotMarker: Sendable, Hashable {
    /// The span from the timeline's origin.
    public var time: Duration
    /// The text shown next to the marker.
    public var label: String

    /// Creates a marker.
    public init(time: Duration, label: String) {
        self.time = time
        self.label = label
    }

    /// A transient event: `transient I=0.47 S=0.80`.
    public static func transient(at time: Duration, intensity: Double, sharpness: Double) -> PlotMarker {
        PlotMarker(
            time: time,
            label: "transient I=\(NumberText.fixed(intensity, digits: 2)) S=\(NumberText.fixed(sharpness, digits: 2))"
        )
    }

    /// A continuous event: `continuous 120 ms I=0.80 S=0.30`.
    public static func continuous(at time: Duration, duration: Duration, intensity: Double, sharpness: Double) -> PlotMarker {
        PlotMarker(
            time: time,
            label: "continuous \(NumberText.decimal(Double(duration.nanoseconds) / 1_000_000, digits: 2)) ms"
                + " I=\(NumberText.fixed(intensity, digits: 2)) S=\(NumberText.fixed(sharpness, digits: 2))"
        )
    }
}
