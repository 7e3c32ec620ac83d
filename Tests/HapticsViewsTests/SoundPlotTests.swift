import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import HapticsAudio
import HapticsSoundAnalysis
import Testing
@testable import HapticsViews

@Suite struct SoundPlotTests {
    static let sound = WAVSamples(sampleRate: 4_000, channelCount: 2, encoding: .float32,
                                  samples: [0, 0, 1, 0.5, -1, -0.5, 0.25, 0.25])
    static let analysis = SoundAnalysis(
        duration: 0.001,
        transients: [.init(time: 0.00025, intensity: 0.8, sharpness: 0.3)],
        segments: [.init(start: 0.00025, end: 0.001,
                         intensity: [.init(time: 0.00025, value: 0.75), .init(time: 0.001, value: 0.25)],
                         sharpness: [.init(time: 0.00025, value: 0.5), .init(time: 0.001, value: 0.5)])])

    @Test func aSoundAndItsHapticsSnapshot() {
        let svg = SoundPlot.draw(Self.sound, analysis: Self.analysis, title: "hit <1> & co")
        #expect(svg == #"""
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="720" height="480" viewBox="0 0 720 480" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="#ffffff"/>
            <text x="360" y="26" text-anchor="middle" font-size="16" font-weight="bold">hit &lt;1&gt; &amp; co</text>
            <rect x="64" y="56" width="592" height="120" fill="none" stroke="#e3e3e3"/>
            <line x1="64" y1="116" x2="656" y2="116" stroke="#e3e3e3"/>
            <g text-anchor="end" fill="#333333">
            <text x="58" y="60">1</text>
            <text x="58" y="120">0</text>
            <text x="58" y="180">-1</text>
            </g>
            <text transform="translate(20 116) rotate(-90)" text-anchor="middle">sound</text>
            <path d="M138 116V117M286 71V72M434 161V162M582 101V102" stroke="#4c72b0" stroke-width="1" fill="none"/>
            <g stroke="#e3e3e3">
            <line x1="64" y1="404" x2="656" y2="404"/>
            <line x1="64" y1="356.5" x2="656" y2="356.5"/>
            <line x1="64" y1="309" x2="656" y2="309"/>
            <line x1="64" y1="261.5" x2="656" y2="261.5"/>
            <line x1="64" y1="214" x2="656" y2="214"/>
            </g>
            <g text-anchor="end" fill="#333333">
            <text x="58" y="408">0</text>
            <text x="58" y="360.5">0.25</text>
            <text x="58" y="313">0.5</text>
            <text x="58" y="265.5">0.75</text>
            <text x="58" y="218">1</text>
            </g>
            <text transform="translate(20 309) rotate(-90)" text-anchor="middle">haptics</text>
            <g stroke="#333333">
            <line x1="64" y1="404" x2="656" y2="404"/>
            <line x1="64" y1="214" x2="64" y2="404"/>
            <line x1="64" y1="404" x2="64" y2="409"/>
            <line x1="182.4" y1="404" x2="182.4" y2="409"/>
            <line x1="300.8" y1="404" x2="300.8" y2="409"/>
            <line x1="419.2" y1="404" x2="419.2" y2="409"/>
            <line x1="537.6" y1="404" x2="537.6" y2="409"/>
            <line x1="656" y1="404" x2="656" y2="409"/>
            </g>
            <g text-anchor="middle" fill="#333333">
            <text x="64" y="423">0.0</text>
            <text x="182.4" y="423">0.2</text>
            <text x="300.8" y="423">0.4</text>
            <text x="419.2" y="423">0.6</text>
            <text x="537.6" y="423">0.8</text>
            <text x="656" y="423">1.0</text>
            </g>
            <text x="360" y="442" text-anchor="middle">time (ms)</text>
            <polyline fill="none" stroke="#2ca02c" stroke-width="2" stroke-linejoin="round" points="212,261.5 656,356.5"/>
            <polyline fill="none" stroke="#9467bd" stroke-width="1.5" stroke-dasharray="6 3" points="212,309 656,309"/>
            <line x1="212" y1="56" x2="212" y2="176" stroke="#d62728" stroke-opacity="0.5" stroke-dasharray="3 3"/>
            <line x1="212" y1="404" x2="212" y2="252" stroke="#d62728" stroke-width="1.5"/>
            <circle cx="212" cy="252" r="3" fill="#d62728"/>
            <text x="216" y="246" font-size="10" fill="#444444">I=0.80 S=0.30</text>
            <g font-size="12" fill="#333333">
            <line x1="64" y1="458" x2="86" y2="458" stroke="#4c72b0" stroke-width="2"/>
            <text x="92" y="462">sound</text>
            <line x1="145" y1="458" x2="167" y2="458" stroke="#2ca02c" stroke-width="2"/>
            <text x="173" y="462">intensity</text>
            <line x1="254" y1="458" x2="276" y2="458" stroke="#9467bd" stroke-width="2" stroke-dasharray="6 3"/>
            <text x="282" y="462">sharpness</text>
            <line x1="363" y1="458" x2="385" y2="458" stroke="#d62728" stroke-width="2"/>
            <text x="391" y="462">transient</text>
            </g>
            </svg>

            """#)
    }

    @Test func thePlotIsWellFormedXML() throws {
        let svg = SoundPlot.draw(Self.sound, analysis: Self.analysis, title: "hit <1> & co")
        // XMLParser, not XMLDocument: FoundationXML's document keeps libxml2's tree past its end,
        // which the leak sanitizer run reports.
        let collector = SVGElementCollector()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = collector
        #expect(parser.parse(), "\(parser.parserError.map(String.init(describing:)) ?? "")")
        #expect(collector.texts.contains("hit <1> & co"))
    }
}
