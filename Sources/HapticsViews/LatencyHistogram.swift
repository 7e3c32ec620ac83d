import HapticsPatterns

/// Distributions of latencies (microseconds), drawn as a histogram: in the terminal as rows of
/// bars, as an SVG with one row of bars per stage. `haptics latency` draws one per stage.
public struct LatencyHistogram: Sendable {
    /// One distribution: a name (the stage) and its samples in microseconds.
    public struct Series: Sendable {
        /// The stage's name.
        public var name: String
        /// Samples, microseconds.
        public var values: [Double]

        /// Creates a series.
        public init(name: String, values: [Double]) {
            self.name = name
            self.values = values
        }
    }

    /// The distributions, drawn in this order.
    public var series: [Series]
    /// How many bins each distribution has, over 0…the largest sample of all series.
    public var bins: Int

    /// Creates a histogram; `bins` below 1 is 1.
    public init(series: [Series], bins: Int = 20) {
        self.series = series
        self.bins = max(1, bins)
    }

    /// The upper end of the bins' range: the largest sample, rounded up to a readable number.
    var range: Double {
        let largest = series.flatMap(\.values).max() ?? 1
        var step = 1.0
        while step * 10 < largest { step *= 10 }
        return max(1, (largest / step).rounded(.up) * step)
    }

    /// How many samples of `values` fall in each bin.
    func counts(_ values: [Double]) -> [Int] {
        var counts = [Int](repeating: 0, count: bins)
        let width = range / Double(bins)
        for value in values {
            counts[min(bins - 1, max(0, Int(value / width)))] += 1
        }
        return counts
    }

    /// Terminal rows: per series a title, then one row per bin (`  120–180 µs │████ 12`), bars
    /// scaled to `width` characters; empty bins at the ends left out.
    public func terminal(width: Int = 40) -> String {
        var text = ""
        let binWidth = range / Double(bins)
        for entry in series where !entry.values.isEmpty {
            text += "\(entry.name) (\(entry.values.count) samples)\n"
            let counts = counts(entry.values)
            let most = max(1, counts.max() ?? 1)
            let first = counts.firstIndex { $0 > 0 } ?? 0
            let last = counts.lastIndex { $0 > 0 } ?? 0
            for bin in first...last {
                let low = NumberText.fixed(Double(bin) * binWidth, digits: 0)
                let high = NumberText.fixed(Double(bin + 1) * binWidth, digits: 0)
                let label = "\(low)–\(high) µs"
                let bar = String(repeating: "█", count: (counts[bin] * width + most - 1) / most)
                text += "  " + String(repeating: " ", count: max(0, 18 - label.count)) + label + " │" + bar + " \(counts[bin])\n"
            }
        }
        return text
    }

    /// An SVG image: one panel of bars per series, a shared microsecond axis, `title` on top.
    public func svg(title: String) -> String {
        let panel = 110.0, left = 150.0, right = 690.0, top = 50.0
        let height = top + panel * Double(series.count) + 40
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"720\" height=\"\(SVGPlot.n(height))\" viewBox=\"0 0 720 \(SVGPlot.n(height))\" font-family=\"sans-serif\" font-size=\"12\">\n"
        svg += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
        svg += "<text x=\"360\" y=\"28\" text-anchor=\"middle\" font-size=\"15\">\(SVGPlot.escaped(title))</text>\n"
        let binWidth = (right - left) / Double(bins)
        for (index, entry) in series.enumerated() {
            let base = top + panel * Double(index + 1) - 20
            let counts = counts(entry.values)
            let most = Double(max(1, counts.max() ?? 1))
            svg += "<text x=\"\(SVGPlot.n(left - 10))\" y=\"\(SVGPlot.n(base - 40))\" text-anchor=\"end\">\(SVGPlot.escaped(entry.name))</text>\n"
            svg += "<text x=\"\(SVGPlot.n(left - 10))\" y=\"\(SVGPlot.n(base - 24))\" text-anchor=\"end\" fill=\"#666\">n = \(entry.values.count)</text>\n"
            for (bin, count) in counts.enumerated() where count > 0 {
                let barHeight = Double(count) / most * (panel - 30)
                svg += "<rect x=\"\(SVGPlot.n(left + Double(bin) * binWidth + 1))\" y=\"\(SVGPlot.n(base - barHeight))\" width=\"\(SVGPlot.n(binWidth - 2))\" height=\"\(SVGPlot.n(barHeight))\" fill=\"#1f77b4\"/>\n"
            }
            svg += "<line x1=\"\(SVGPlot.n(left))\" y1=\"\(SVGPlot.n(base))\" x2=\"\(SVGPlot.n(right))\" y2=\"\(SVGPlot.n(base))\" stroke=\"#333\"/>\n"
        }
        let axis = top + panel * Double(series.count) - 20
        for tick in 0...4 {
            let x = left + (right - left) * Double(tick) / 4
            svg += "<text x=\"\(SVGPlot.n(x))\" y=\"\(SVGPlot.n(axis + 16))\" text-anchor=\"middle\">\(NumberText.fixed(range * Double(tick) / 4, digits: 0)) µs</text>\n"
        }
        return svg + "</svg>\n"
    }

}
