import HapticsPatterns

/// Chooses round tick positions for a time axis in milliseconds (1, 2 or 5 × a power of ten).
struct PlotTimeAxis {
    /// Distance between ticks, nanoseconds.
    let step: Int64
    /// Tick positions from 0 up to the duration, nanoseconds.
    let ticks: [Int64]

    /// The finest round step that divides `duration` into at most `maximumTicks` intervals.
    init(duration: Int64, maximumTicks: Int) {
        let span = max(duration, 1)
        var chosen: Int64 = 0
        // From 10 µs upwards: 0.01, 0.02, 0.05, 0.1 … ms.
        var decade: Int64 = 10_000
        search: while decade <= Int64.max / 50 {
            for multiple: Int64 in [1, 2, 5] {
                let candidate = decade * multiple
                if span / candidate <= Int64(maximumTicks) {
                    chosen = candidate
                    break search
                }
            }
            decade *= 10
        }
        // Spans beyond every round step (centuries) get a single interval.
        step = chosen > 0 ? chosen : span
        ticks = Array(stride(from: Int64(0), through: span, by: Int(step)))
    }

    /// The label of a tick in milliseconds, with just enough decimals for this step.
    func label(_ tick: Int64) -> String {
        let decimals = step >= 1_000_000 ? 0 : (step >= 100_000 ? 1 : 2)
        return NumberText.fixed(Double(tick) / 1_000_000, digits: decimals)
    }
}
