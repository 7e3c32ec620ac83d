import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import HapticsRendering
import Testing
@testable import HapticsDevices
@testable import HapticsViews

@Suite struct SVGPlotTests {
    let ms: Int64 = 1_000_000

    @Test func smallRumbleSnapshot() {
        let timeline = MotorTimeline(commands: [
            TimedCommand(offsetNanoseconds: 0, intensity: 1, sharpness: 0, command: .rumble(strong: 0xFFFF, weak: 0x7FFF)),
            TimedCommand(offsetNanoseconds: 10 * ms, intensity: 0, sharpness: 0, command: .stop),
        ], end: .milliseconds(20))
        let svg = SVGPlot.draw(timeline, title: "impact <heavy> & co",
                                 events: [.transient(at: .zero, intensity: 1, sharpness: 0.25)])
        #expect(svg == #"""
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="720" height="400" viewBox="0 0 720 400" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="#ffffff"/>
            <text x="360" y="26" text-anchor="middle" font-size="16" font-weight="bold">impact &lt;heavy&gt; &amp; co</text>
            <g stroke="#e3e3e3">
            <line x1="64" y1="316" x2="648" y2="316"/>
            <line x1="64" y1="258" x2="648" y2="258"/>
            <line x1="64" y1="200" x2="648" y2="200"/>
            <line x1="64" y1="142" x2="648" y2="142"/>
            <line x1="64" y1="84" x2="648" y2="84"/>
            </g>
            <g text-anchor="end" fill="#333333">
            <text x="58" y="320">0</text>
            <text x="58" y="262">0.25</text>
            <text x="58" y="204">0.5</text>
            <text x="58" y="146">0.75</text>
            <text x="58" y="88">1</text>
            </g>
            <text transform="translate(20 200) rotate(-90)" text-anchor="middle">level</text>
            <g stroke="#333333">
            <line x1="64" y1="316" x2="648" y2="316"/>
            <line x1="64" y1="84" x2="64" y2="316"/>
            <line x1="64" y1="316" x2="64" y2="321"/>
            <line x1="210" y1="316" x2="210" y2="321"/>
            <line x1="356" y1="316" x2="356" y2="321"/>
            <line x1="502" y1="316" x2="502" y2="321"/>
            <line x1="648" y1="316" x2="648" y2="321"/>
            </g>
            <g text-anchor="middle" fill="#333333">
            <text x="64" y="335">0</text>
            <text x="210" y="335">5</text>
            <text x="356" y="335">10</text>
            <text x="502" y="335">15</text>
            <text x="648" y="335">20</text>
            </g>
            <text x="356" y="354" text-anchor="middle">time (ms)</text>
            <line x1="64" y1="79" x2="64" y2="316" stroke="#777777" stroke-dasharray="4 3"/>
            <text x="67" y="76" text-anchor="start" font-size="11" fill="#444444">transient I=1.00 S=0.25</text>
            <polyline fill="none" stroke="#d62728" stroke-width="2" stroke-linejoin="round" points="64,84 356,84 356,316 648,316"/>
            <polyline fill="none" stroke="#1f77b4" stroke-width="2" stroke-linejoin="round" points="64,200 356,200 356,316 648,316"/>
            <g font-size="12" fill="#333333">
            <line x1="64" y1="378" x2="86" y2="378" stroke="#d62728" stroke-width="2"/>
            <text x="92" y="382">strong (peak 1.00)</text>
            <line x1="236" y1="378" x2="258" y2="378" stroke="#1f77b4" stroke-width="2"/>
            <text x="264" y="382">weak (peak 0.50)</text>
            <line x1="394" y1="378" x2="416" y2="378" stroke="#777777" stroke-width="2" stroke-dasharray="4 3"/>
            <text x="422" y="382">pattern event</text>
            </g>
            </svg>

            """#)
    }

    @Test func periodicPlotIsWellFormedXMLWithAPeriodAxis() throws {
        let timeline = MotorTimeline(commands: [
            TimedCommand(offsetNanoseconds: 0, intensity: 1, sharpness: 0,
                         command: .periodic(waveform: .sine, periodMilliseconds: 25, magnitude: 0x4000)),
            TimedCommand(offsetNanoseconds: 40 * ms, intensity: 0, sharpness: 0, command: .stop),
            TimedCommand(offsetNanoseconds: 60 * ms, intensity: 1, sharpness: 0,
                         command: .periodic(waveform: .sine, periodMilliseconds: 8, magnitude: 0x7FFF)),
            TimedCommand(offsetNanoseconds: 90 * ms, intensity: 0, sharpness: 0, command: .stop),
        ], end: .milliseconds(100))
        let svg = SVGPlot.draw(timeline, title: "notification \"success\" — it's <ok>", events: [
            .transient(at: .zero, intensity: 0.47, sharpness: 0.8),
            .continuous(at: .milliseconds(60), duration: .milliseconds(30), intensity: 1, sharpness: 0.5),
        ])
        let collector = SVGElementCollector()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = collector
        #expect(parser.parse(), "\(parser.parserError.map(String.init(describing:)) ?? "")")
        #expect(collector.texts.first == "notification \"success\" — it's <ok>")
        #expect(collector.texts.contains("transient I=0.47 S=0.80"))
        #expect(collector.texts.contains("continuous 30 ms I=1.00 S=0.50"))
        #expect(collector.texts.contains("period (ms)"))
        // Period axis 0…40 ms in quarters, one dashed period line per playing stretch.
        #expect(["0", "10", "20", "30", "40"].allSatisfy(collector.texts.contains))
        #expect(collector.polylinePoints == [
            "64,171 297.6,171",
            "414.4,269.6 589.6,269.6",
            "64,200 297.6,200 297.6,316 414.4,316 414.4,84 589.6,84 589.6,316 648,316",
        ])
    }

    @Test func legendWrapsIntoASecondRowAndTheImageGrowsForIt() {
        let timeline = MotorTimeline(commands: [
            TimedCommand(offsetNanoseconds: 0, intensity: 1, sharpness: 0, command: .constant(level: -0x6000)),
            TimedCommand(offsetNanoseconds: 30 * ms, intensity: 1, sharpness: 0, command: .rumble(strong: 0x3000, weak: 0x9000)),
            TimedCommand(offsetNanoseconds: 50 * ms, intensity: 1, sharpness: 0,
                         command: .periodic(waveform: .sine, periodMilliseconds: 30, magnitude: 0x3000)),
            TimedCommand(offsetNanoseconds: 70 * ms, intensity: 0, sharpness: 0, command: .stop),
        ], end: .milliseconds(100))
        let svg = SVGPlot.draw(timeline, title: "mixed", events: [.transient(at: .milliseconds(30), intensity: 0.5, sharpness: 0.5)])
        #expect(svg.contains(#"width="720" height="420" viewBox="0 0 720 420""#))
        #expect(svg.contains(#"<text x="92" y="382">strong (peak 0.19)</text>"#))
        #expect(svg.contains(#"<text x="92" y="402">level (peak 0.75)</text>"#))
        #expect(svg.contains(#"<text x="429" y="402">pattern event</text>"#))
    }

    @Test func periodAxisTopIsFourWholeRoundQuarters() {
        #expect([1, 4, 5, 8, 9, 20, 21, 40, 41, 80, 100, 101, 1_000].map(SVGPlot.roundedUp)
            == [4, 4, 8, 8, 20, 20, 40, 40, 80, 80, 100, 200, 1_000])
    }
}

/// Collects character data and polyline points while parsing.
final class SVGElementCollector: NSObject, XMLParserDelegate {
    var texts: [String] = []
    var polylinePoints: [String] = []
    private var current: String?

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        if elementName == "text" { current = "" }
        if elementName == "polyline", let points = attributes["points"] { polylinePoints.append(points) }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        current? += string
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        if elementName == "text", let text = current { texts.append(text) }
        current = nil
    }
}
