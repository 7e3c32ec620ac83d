import HapticsPatterns

/// The rectangle of a plot in SVG user units, and the axes drawn around it: a 0…1 level grid and a
/// time axis in milliseconds. Every SVG plot draws them the same way.
struct PlotArea {
    var left: Double
    var right: Double
    var top: Double
    var bottom: Double

    /// The y coordinate of a level 0…1.
    func y(_ level: Double) -> Double { bottom - level * (bottom - top) }

    /// Grid lines and labels at every quarter of 0…1, and `label` along the left edge.
    func levelGrid(label: String) -> String {
        let n = SVGPlot.n
        var svg = "<g stroke=\"#e3e3e3\">\n"
        for quarter in 0...4 {
            let level = y(Double(quarter) / 4)
            svg += "<line x1=\"\(n(left))\" y1=\"\(n(level))\" x2=\"\(n(right))\" y2=\"\(n(level))\"/>\n"
        }
        svg += "</g>\n<g text-anchor=\"end\" fill=\"#333333\">\n"
        for quarter in 0...4 {
            let level = Double(quarter) / 4
            svg += "<text x=\"\(n(left - 6))\" y=\"\(n(y(level) + 4))\">\(NumberText.decimal(level, digits: 2))</text>\n"
        }
        svg += "</g>\n"
        return svg + "<text transform=\"translate(20 \(n((top + bottom) / 2))) rotate(-90)\" text-anchor=\"middle\">\(label)</text>\n"
    }

    /// The axes' lines, a tick and a label for each of `axis`'s ticks (placed by `x`, from
    /// nanoseconds), and the axis's title below.
    func timeAxis(_ axis: PlotTimeAxis, x: (Int64) -> Double) -> String {
        let n = SVGPlot.n
        var svg = "<g stroke=\"#333333\">\n"
        svg += "<line x1=\"\(n(left))\" y1=\"\(n(bottom))\" x2=\"\(n(right))\" y2=\"\(n(bottom))\"/>\n"
        svg += "<line x1=\"\(n(left))\" y1=\"\(n(top))\" x2=\"\(n(left))\" y2=\"\(n(bottom))\"/>\n"
        for tick in axis.ticks {
            let tickX = x(tick)
            svg += "<line x1=\"\(n(tickX))\" y1=\"\(n(bottom))\" x2=\"\(n(tickX))\" y2=\"\(n(bottom + 5))\"/>\n"
        }
        svg += "</g>\n<g text-anchor=\"middle\" fill=\"#333333\">\n"
        for tick in axis.ticks {
            svg += "<text x=\"\(n(x(tick)))\" y=\"\(n(bottom + 19))\">\(axis.label(tick))</text>\n"
        }
        svg += "</g>\n"
        return svg + "<text x=\"\(n((left + right) / 2))\" y=\"\(n(bottom + 38))\" text-anchor=\"middle\">time (ms)</text>\n"
    }
}
