import HapticsAudio
import HapticsPatterns
import HapticsSoundAnalysis
import HapticsSystem

/// Draws a sound and the haptics derived from it (``SoundAnalysis``) as one self-contained SVG
/// image, on one time axis: the waveform above (its minimum and maximum per column, channels mixed),
/// and below, on a 0…1 axis, the intensity curve of each segment, its sharpness curve (dashed) and
/// each transient as a stem as high as its intensity, labelled with it.
///
/// The output is deterministic (fixed layout, fixed number formatting), so it can be compared exactly.
public enum SoundPlot {
    static let width = 720.0
    static let height = 480.0
    static let plotLeft = 64.0
    static let plotRight = 656.0
    static let waveTop = 56.0
    static let waveBottom = 176.0
    static let levelTop = 214.0
    static let levelBottom = 404.0
    static let intensityColor = "#2ca02c"
    static let sharpnessColor = "#9467bd"
    static let transientColor = "#d62728"
    static let waveColor = "#4c72b0"

    /// Draws `sound` and `analysis` with a `title`.
    public static func draw(_ sound: WAVSamples, analysis: SoundAnalysis, title: String) -> String {
        let n = SVGPlot.n
        let duration = max(analysis.duration, 1e-9)
        let x = { (seconds: Double) -> Double in plotLeft + min(max(seconds / duration, 0), 1) * (plotRight - plotLeft) }
        let area = PlotArea(left: plotLeft, right: plotRight, top: levelTop, bottom: levelBottom)
        let level = area.y
        var svg = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(n(width))" height="\(n(height))" \
            viewBox="0 0 \(n(width)) \(n(height))" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="#ffffff"/>
            <text x="\(n(width / 2))" y="26" text-anchor="middle" font-size="16" font-weight="bold">\(SVGPlot.escaped(title))</text>

            """
        svg += waveform(sound)

        // The level panel: grid and time axis.
        svg += area.levelGrid(label: "haptics")
        let axis = PlotTimeAxis(duration: Int64((duration * 1e9).rounded()), maximumTicks: 8)
        svg += area.timeAxis(axis) { x(Double($0) / 1e9) }

        // The curves, one polyline per segment.
        for segment in analysis.segments {
            svg += "<polyline fill=\"none\" stroke=\"\(intensityColor)\" stroke-width=\"2\" stroke-linejoin=\"round\" points=\""
                + segment.intensity.map { "\(n(x($0.time))),\(n(level($0.value)))" }.joined(separator: " ") + "\"/>\n"
            svg += "<polyline fill=\"none\" stroke=\"\(sharpnessColor)\" stroke-width=\"1.5\" stroke-dasharray=\"6 3\" points=\""
                + segment.sharpness.map { "\(n(x($0.time))),\(n(level($0.value)))" }.joined(separator: " ") + "\"/>\n"
        }
        // Transients: a stem up to the intensity, a dot, a label; a dashed line up through the waveform.
        for (index, transient) in analysis.transients.enumerated() {
            let stemX = n(x(transient.time))
            let top = n(level(transient.intensity))
            svg += "<line x1=\"\(stemX)\" y1=\"\(n(waveTop))\" x2=\"\(stemX)\" y2=\"\(n(waveBottom))\" stroke=\"\(transientColor)\" "
                + "stroke-opacity=\"0.5\" stroke-dasharray=\"3 3\"/>\n"
            svg += "<line x1=\"\(stemX)\" y1=\"\(n(levelBottom))\" x2=\"\(stemX)\" y2=\"\(top)\" stroke=\"\(transientColor)\" stroke-width=\"1.5\"/>\n"
            svg += "<circle cx=\"\(stemX)\" cy=\"\(top)\" r=\"3\" fill=\"\(transientColor)\"/>\n"
            if analysis.transients.count <= 24 {
                let labelY = n(level(transient.intensity) - 6 - Double(index % 2) * 12)
                svg += "<text x=\"\(n(x(transient.time) + 4))\" y=\"\(labelY)\" font-size=\"10\" fill=\"#444444\">"
                    + "I=\(NumberText.fixed(transient.intensity, digits: 2)) S=\(NumberText.fixed(transient.sharpness, digits: 2))</text>\n"
            }
        }

        // Legend.
        let items: [(String, String, String)] = [
            ("sound", waveColor, ""), ("intensity", intensityColor, ""),
            ("sharpness", sharpnessColor, " stroke-dasharray=\"6 3\""), ("transient", transientColor, ""),
        ]
        svg += "<g font-size=\"12\" fill=\"#333333\">\n"
        var itemX = plotLeft
        let itemY = height - 18
        for (label, stroke, dash) in items {
            svg += "<line x1=\"\(n(itemX))\" y1=\"\(n(itemY - 4))\" x2=\"\(n(itemX + 22))\" y2=\"\(n(itemY - 4))\" "
                + "stroke=\"\(stroke)\" stroke-width=\"2\"\(dash)/>\n"
            svg += "<text x=\"\(n(itemX + 28))\" y=\"\(n(itemY))\">\(label)</text>\n"
            itemX += 28 + Double(label.count) * 7 + 18
        }
        svg += "</g>\n</svg>\n"
        return svg
    }

    /// The waveform panel: a frame, a centre line and, per column of the plot, a vertical line from
    /// the smallest to the largest sample (channels mixed) that falls in it.
    static func waveform(_ sound: WAVSamples) -> String {
        let n = SVGPlot.n
        let middle = (waveTop + waveBottom) / 2
        let half = (waveBottom - waveTop) / 2
        var svg = "<rect x=\"\(n(plotLeft))\" y=\"\(n(waveTop))\" width=\"\(n(plotRight - plotLeft))\" "
            + "height=\"\(n(waveBottom - waveTop))\" fill=\"none\" stroke=\"#e3e3e3\"/>\n"
        svg += "<line x1=\"\(n(plotLeft))\" y1=\"\(n(middle))\" x2=\"\(n(plotRight))\" y2=\"\(n(middle))\" stroke=\"#e3e3e3\"/>\n"
        svg += "<g text-anchor=\"end\" fill=\"#333333\">\n"
        for (value, y) in [(1.0, waveTop), (0, middle), (-1, waveBottom)] {
            svg += "<text x=\"\(n(plotLeft - 6))\" y=\"\(n(y + 4))\">\(NumberText.decimal(value, digits: 0))</text>\n"
        }
        svg += "</g>\n"
        svg += "<text transform=\"translate(20 \(n(middle))) rotate(-90)\" text-anchor=\"middle\">sound</text>\n"
        let channels = max(1, sound.channelCount)
        let frames = sound.samples.count / channels
        guard frames > 0 else { return svg }
        // One column per unit of width, or per frame when there are fewer.
        let columns = min(Int(plotRight - plotLeft), frames)
        let columnWidth = (plotRight - plotLeft) / Double(columns)
        var path = ""
        for column in 0..<columns {
            let first = frames * column / columns
            let last = max(first + 1, frames * (column + 1) / columns)
            var low = Double.infinity
            var high = -Double.infinity
            for frame in first..<min(last, frames) {
                var sum = 0.0
                for channel in 0..<channels { sum += Double(sound.samples[frame * channels + channel]) }
                let value = min(1, max(-1, sum / Double(channels)))
                low = min(low, value)
                high = max(high, value)
            }
            guard low <= high else { continue }
            let columnX = n(plotLeft + (Double(column) + 0.5) * columnWidth)
            // At least one unit tall, so silence still shows as a line.
            let top = middle - high * half
            let bottom = max(middle - low * half, top + 1)
            path += "M\(columnX) \(n(top))V\(n(bottom))"
        }
        return svg + "<path d=\"\(path)\" stroke=\"\(waveColor)\" stroke-width=\"1\" fill=\"none\"/>\n"
    }
}
