import HapticsDevices
import HapticsPatterns
import HapticsSystem

/// Draws a ``MotorTimeline`` as a self-contained SVG image: one stepped line per motor on a 0…1
/// axis, the period of periodic effects on a secondary axis in milliseconds, pattern events as
/// labelled dashed lines, a time axis in milliseconds, a legend and a title.
///
/// A constant force is drawn by its size (0…1), whatever its direction.
/// The output is deterministic (fixed layout, fixed number formatting), so it can be compared exactly.
public enum SVGPlot {
    /// Image size and plot area, in SVG user units.
    static let width = 720.0
    /// Height with one legend row; each further legend row adds ``legendRowHeight``.
    static let height = 400.0
    static let legendRowHeight = 20.0
    static let plotLeft = 64.0
    static let plotRight = 648.0
    static let plotTop = 84.0
    static let plotBottom = 316.0
    /// Rows for event labels above the plot, so neighbouring labels do not overlap.
    static let markerRows = 3

    /// Draws `timeline` with a `title` and `events` marked.
    public static func draw(_ timeline: MotorTimeline, title: String, events: [PlotMarker]) -> String {
        // The layout counts in whole nanoseconds.
        let duration = max(timeline.duration.nanoseconds, 1)
        let x = { (time: Duration) -> Double in
            plotLeft + Double((time - timeline.start).nanoseconds) / Double(duration) * (plotRight - plotLeft)
        }
        let y = { (level: Double) -> Double in plotBottom - level * (plotBottom - plotTop) }
        let legend = legend(timeline, hasPeriod: timeline.periodRange != nil, hasEvents: !events.isEmpty)
        let height = height + Double(legend.rows - 1) * legendRowHeight
        var svg = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(n(width))" height="\(n(height))" \
            viewBox="0 0 \(n(width)) \(n(height))" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="#ffffff"/>
            <text x="\(n(width / 2))" y="26" text-anchor="middle" font-size="16" font-weight="bold">\(escaped(title))</text>

            """

        let area = PlotArea(left: plotLeft, right: plotRight, top: plotTop, bottom: plotBottom)
        svg += area.levelGrid(label: "level")
        let axis = PlotTimeAxis(duration: duration, maximumTicks: 8)
        svg += area.timeAxis(axis) { x(timeline.start + .nanoseconds($0)) }

        // Period on a secondary axis, only while a periodic effect plays.
        let periods = timeline.periodRange
        if let periods {
            svg += periodAxis(timeline, longest: periods.upperBound, x: x)
        }

        // Events: dashed vertical lines, labels staggered above the plot.
        for (index, event) in events.enumerated() {
            let eventX = x(min(max(event.time, timeline.start), timeline.end))
            let labelY = plotTop - 8 - Double(index % markerRows) * 14
            let anchor = eventX > plotRight - 170 ? "end" : "start"
            let labelX = anchor == "end" ? eventX - 3 : eventX + 3
            svg += "<line x1=\"\(n(eventX))\" y1=\"\(n(labelY + 3))\" x2=\"\(n(eventX))\" y2=\"\(n(plotBottom))\" "
                + "stroke=\"#777777\" stroke-dasharray=\"4 3\"/>\n"
            svg += "<text x=\"\(n(labelX))\" y=\"\(n(labelY))\" text-anchor=\"\(anchor)\" font-size=\"11\" "
                + "fill=\"#444444\">\(escaped(event.label))</text>\n"
        }

        // One stepped line per motor.
        for motor in timeline.motors {
            let points = steppedPoints(timeline, x: x) { y($0.value(of: motor)) }
            svg += "<polyline fill=\"none\" stroke=\"\(color(motor))\" stroke-width=\"2\" "
                + "stroke-linejoin=\"round\" points=\"\(points)\"/>\n"
        }

        svg += legend.svg
        svg += "</svg>\n"
        return svg
    }

    /// The secondary axis (right) in milliseconds and the period line, one polyline per run of steps
    /// in which a periodic effect plays.
    static func periodAxis(_ timeline: MotorTimeline, longest: Int, x: (Duration) -> Double) -> String {
        let top = roundedUp(max(longest, 1))
        let y = { (milliseconds: Int) -> Double in
            plotBottom - Double(milliseconds) / Double(top) * (plotBottom - plotTop)
        }
        var svg = "<line x1=\"\(n(plotRight))\" y1=\"\(n(plotTop))\" x2=\"\(n(plotRight))\" y2=\"\(n(plotBottom))\" stroke=\"#333333\"/>\n"
        svg += "<g fill=\"\(periodColor)\">\n"
        for quarter in 0...4 {
            let milliseconds = top * quarter / 4
            svg += "<text x=\"\(n(plotRight + 6))\" y=\"\(n(y(milliseconds) + 4))\">\(milliseconds)</text>\n"
        }
        svg += "</g>\n"
        svg += "<text transform=\"translate(\(n(width - 18)) \(n((plotTop + plotBottom) / 2))) rotate(90)\" "
            + "text-anchor=\"middle\" fill=\"\(periodColor)\">period (ms)</text>\n"

        var run: [String] = []
        var lines = ""
        func flush() {
            if !run.isEmpty {
                lines += "<polyline fill=\"none\" stroke=\"\(periodColor)\" stroke-width=\"1.5\" "
                    + "stroke-dasharray=\"6 3\" points=\"\(run.joined(separator: " "))\"/>\n"
            }
            run = []
        }
        for (index, step) in timeline.steps.enumerated() {
            let stepEnd = index + 1 < timeline.steps.count ? timeline.steps[index + 1].time : timeline.end
            guard step.levels.magnitude > 0 else {
                flush()
                continue
            }
            let level = y(step.levels.periodMilliseconds)
            run.append("\(n(x(step.time))),\(n(level))")
            run.append("\(n(x(stepEnd))),\(n(level))")
        }
        flush()
        return svg + lines
    }

    /// Points of a stepped line: each level holds horizontally until the next step, then jumps.
    static func steppedPoints(_ timeline: MotorTimeline, x: (Duration) -> Double,
                              y: (MotorTimeline.Levels) -> Double) -> String {
        var points: [String] = []
        for (index, step) in timeline.steps.enumerated() {
            let stepEnd = index + 1 < timeline.steps.count ? timeline.steps[index + 1].time : timeline.end
            let level = n(y(step.levels))
            let start = "\(n(x(step.time))),\(level)"
            let end = "\(n(x(stepEnd))),\(level)"
            if points.last != start { points.append(start) }
            if points.last != end { points.append(end) }
        }
        return points.joined(separator: " ")
    }

    /// The legend, wrapped into rows that fit the image width, and how many rows it took.
    static func legend(_ timeline: MotorTimeline, hasPeriod: Bool, hasEvents: Bool) -> (svg: String, rows: Int) {
        var items: [(label: String, stroke: String, dashed: Bool)] = timeline.motors.map {
            ("\($0.rawValue) (peak \(NumberText.fixed(timeline.peak(of: $0), digits: 2)))", color($0), false)
        }
        if hasPeriod { items.append(("period, right axis", periodColor, true)) }
        if hasEvents { items.append(("pattern event", "#777777", true)) }

        var svg = "<g font-size=\"12\" fill=\"#333333\">\n"
        var itemX = plotLeft
        var itemY = height - 18
        var rows = 1
        for item in items {
            // Roughly 7 units per character of a 12-unit sans-serif font, plus the swatch and a gap.
            let itemWidth = 28 + Double(item.label.count) * 7 + 18
            if itemX > plotLeft && itemX + itemWidth - 18 > width - 16 {
                itemX = plotLeft
                itemY += legendRowHeight
                rows += 1
            }
            let dash = item.dashed ? " stroke-dasharray=\"4 3\"" : ""
            svg += "<line x1=\"\(n(itemX))\" y1=\"\(n(itemY - 4))\" x2=\"\(n(itemX + 22))\" y2=\"\(n(itemY - 4))\" "
                + "stroke=\"\(item.stroke)\" stroke-width=\"2\"\(dash)/>\n"
            svg += "<text x=\"\(n(itemX + 28))\" y=\"\(n(itemY))\">\(escaped(item.label))</text>\n"
            itemX += itemWidth
        }
        return (svg + "</g>\n", rows)
    }

    /// The colour of a motor's line.
    static func color(_ motor: MotorTimeline.Motor) -> String {
        switch motor {
        case .strong: return "#d62728"
        case .weak: return "#1f77b4"
        case .magnitude: return "#9467bd"
        case .level: return "#2ca02c"
        }
    }

    static let periodColor = "#8c6d31"

    /// The top of the period axis: four whole, round quarter steps (1, 2, 2.5 or 5 × 10ⁿ ms) at or above `value`.
    static func roundedUp(_ value: Int) -> Int {
        var decade = 1
        while true {
            // 2.5 is left out below 10 so every tick label stays a whole number of milliseconds.
            let quarters = decade == 1 ? [1, 2, 5] : [decade, decade * 2, decade * 5 / 2, decade * 5]
            for quarter in quarters where quarter * 4 >= value { return quarter * 4 }
            decade *= 10
        }
    }

    /// A coordinate with one decimal (trailing zeros dropped).
    static func n(_ value: Double) -> String { NumberText.decimal(value, digits: 1) }

    /// `text` with XML's special characters escaped.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }
}
