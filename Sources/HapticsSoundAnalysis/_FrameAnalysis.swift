#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The frame-by-frame measurements of one sound and what ``SoundAnalyzer`` derives from them.
///
/// Frame `i` is centred on sample `i × hop` (zeros outside the sound), so its time is `i × hop / rate`.
struct _FrameAnalysis {
    let mono: [Double]
    let sampleRate: Int
    let options: SoundAnalysisOptions
    /// Samples per frame: the power of two at or above 20 ms.
    let frameSize: Int
    /// Samples from one frame to the next: a quarter frame.
    let hop: Int
    let frameCount: Int
    private let fft: _FFT
    private let window: [Double]
    /// Scales a windowed FFT's magnitude to the amplitude of a sine.
    private let magnitudeScale: Double

    /// Intensity of each frame, 0…1 (0 is silence).
    private(set) var levels: [Double] = []
    /// Sharpness of each frame, 0…1.
    private(set) var sharpness: [Double] = []
    /// Spectral flux of each frame: the mean rise of the log-magnitude spectrum per bin.
    private(set) var flux: [Double] = []

    private var real: [Double]
    private var imaginary: [Double]
    private var magnitudes: [Double]

    /// The decibel range mapped onto intensity: −48 dBFS is 0, 0 dBFS is 1.
    static let dynamicRange = 48.0
    /// The least rise in level, in dB from the 20 ms before a hit to the 20 ms after, that makes a hit.
    static let minimumRise = 3.0
    /// The rise, in dB, at which a hit's intensity is its whole peak level; smaller rises scale it down.
    static let fullRise = 24.0
    /// How strongly the flux's log compression lifts quiet bins.
    static let compression = 1_000.0

    init(mono: [Double], sampleRate: Int, options: SoundAnalysisOptions) {
        self.mono = mono
        self.sampleRate = sampleRate
        self.options = options
        var size = 64
        while size < 16_384 && Double(size) < Double(sampleRate) * 0.02 { size *= 2 }
        frameSize = size
        hop = size / 4
        frameCount = mono.isEmpty ? 0 : (mono.count + hop - 1) / hop
        fft = _FFT(size: size)
        var window = [Double](repeating: 0, count: size)
        var sum = 0.0
        for index in 0..<size {
            window[index] = 0.5 - 0.5 * cos(2 * Double.pi * Double(index) / Double(size))
            sum += window[index]
        }
        self.window = window
        magnitudeScale = 2 / sum
        real = [Double](repeating: 0, count: size)
        imaginary = [Double](repeating: 0, count: size)
        magnitudes = [Double](repeating: 0, count: size / 2 + 1)
    }

    // MARK: Frames

    /// Measures every frame.
    mutating func run() {
        levels = [Double](repeating: 0, count: frameCount)
        sharpness = [Double](repeating: 0, count: frameCount)
        flux = [Double](repeating: 0, count: frameCount)
        let bins = frameSize / 2 + 1
        var previous = [Double](repeating: 0, count: bins)
        for frame in 0..<frameCount {
            let start = frame * hop - frameSize / 2
            levels[frame] = intensity(decibels: decibels(rms(from: start, count: frameSize) * 2.0.squareRoot()))
            spectrum(from: start)
            sharpness[frame] = centroidSharpness()
            var rise = 0.0
            for bin in 0..<bins {
                let logMagnitude = log1p(Self.compression * magnitudes[bin])
                rise += max(0, logMagnitude - previous[bin])
                previous[bin] = logMagnitude
            }
            flux[frame] = rise / Double(bins)
        }
    }

    /// Root mean square of `count` samples from `start` (zeros outside the sound).
    func rms(from start: Int, count: Int) -> Double {
        let low = max(0, start)
        let high = min(mono.count, start + count)
        guard high > low, count > 0 else { return 0 }
        var sum = 0.0
        for index in low..<high { sum += mono[index] * mono[index] }
        return (sum / Double(count)).squareRoot()
    }

    /// An amplitude in dBFS with the gain added.
    func decibels(_ amplitude: Double) -> Double {
        20 * log10(max(amplitude, 1e-12)) + options.gain
    }

    /// A level in dBFS as intensity 0…1.
    func intensity(decibels: Double) -> Double {
        min(1, max(0, (decibels + Self.dynamicRange) / Self.dynamicRange))
    }

    /// The magnitudes of the Hann-windowed frame starting at `start`, as sine amplitudes.
    mutating func spectrum(from start: Int) {
        for index in 0..<frameSize {
            let sample = start + index
            real[index] = sample >= 0 && sample < mono.count ? mono[sample] * window[index] : 0
            imaginary[index] = 0
        }
        fft.transform(real: &real, imaginary: &imaginary)
        for bin in 0..<magnitudes.count {
            magnitudes[bin] = (real[bin] * real[bin] + imaginary[bin] * imaginary[bin]).squareRoot() * magnitudeScale
        }
    }

    /// The spectral centroid (power-weighted) of the last spectrum inside the band, as sharpness;
    /// 0 when the band holds nothing.
    func centroidSharpness() -> Double {
        let band = options.band
        let binWidth = Double(sampleRate) / Double(frameSize)
        var weighted = 0.0
        var total = 0.0
        for bin in 1..<magnitudes.count {
            let frequency = Double(bin) * binWidth
            guard band.contains(frequency) else { continue }
            let power = magnitudes[bin] * magnitudes[bin]
            weighted += frequency * power
            total += power
        }
        guard total > 1e-18 else { return 0 }
        let centroid = weighted / total
        return min(1, max(0, log(centroid / band.lowerBound) / log(band.upperBound / band.lowerBound)))
    }

    // MARK: Hits

    /// The hits, in time order.
    mutating func transients() -> [SoundAnalysis.Transient] {
        guard frameCount > 0 else { return [] }
        var prefix = [Double](repeating: 0, count: frameCount + 1)
        for frame in 0..<frameCount { prefix[frame + 1] = prefix[frame] + flux[frame] }
        let radius = max(1, Int(0.05 * Double(sampleRate) / Double(hop)))
        let looseness = 1 - options.sensitivity
        let factor = 1 + 3 * looseness
        let floor = 0.002 + 0.03 * looseness
        let gap = Int((options.minimumOnsetGap * Double(sampleRate)).rounded())
        var found: [SoundAnalysis.Transient] = []
        var lastOnset = Int.min
        // Before the first frame there is silence, so a sound that starts at once is a hit.
        for frame in 0..<frameCount {
            let value = flux[frame]
            guard frame == 0 || value >= flux[frame - 1], frame + 1 == frameCount || value > flux[frame + 1] else { continue }
            let low = max(0, frame - radius)
            let high = min(frameCount, frame + radius + 1)
            let mean = (prefix[high] - prefix[low]) / Double(high - low)
            guard value > mean * factor + floor else { continue }
            guard levels[frame..<min(frameCount, frame + 3)].contains(where: { $0 > 0 }) else { continue }
            guard let (onset, peak) = onsetSample(frame: frame) else { continue }
            guard lastOnset == Int.min || onset - lastOnset >= gap else { continue }
            let before = rms(from: onset - frameSize, count: frameSize)
            let after = rms(from: onset, count: frameSize)
            // A sound that ends also changes its spectrum; only a rise in level is a hit.
            let rise = 20 * log10((after + 1e-9) / (before + 1e-9))
            guard rise >= Self.minimumRise else { continue }
            let strength = intensity(decibels: decibels(peak)) * min(1, rise / Self.fullRise)
            guard strength >= 0.01 else { continue }
            spectrum(from: onset)
            found.append(SoundAnalysis.Transient(
                time: SoundAnalyzer.rounded(Double(onset) / Double(sampleRate)),
                intensity: SoundAnalyzer.rounded(strength),
                sharpness: SoundAnalyzer.rounded(centroidSharpness())))
            lastOnset = onset
        }
        return found
    }

    /// The sample where the hit peaking in `frame` starts, and its peak amplitude: the first
    /// sample reaching a fifth of the peak, searched back from the peak in blocks of 2 ms while
    /// each block still reaches that fifth.
    func onsetSample(frame: Int) -> (Int, Double)? {
        let centre = frame * hop
        let low = max(0, centre - frameSize / 2 - hop)
        let high = min(mono.count, centre + frameSize / 2 + hop)
        guard high > low else { return nil }
        var peakIndex = low
        var peak = 0.0
        for index in low..<high where abs(mono[index]) > peak {
            peak = abs(mono[index])
            peakIndex = index
        }
        guard peak > 0 else { return nil }
        let threshold = peak / 5
        let block = max(1, sampleRate / 500)
        var start = peakIndex
        while start - block >= low {
            var loudest = 0.0
            for index in (start - block)..<start { loudest = max(loudest, abs(mono[index])) }
            guard loudest >= threshold else { break }
            start -= block
        }
        var onset = max(low, start - block)
        while onset < peakIndex && abs(mono[onset]) < threshold { onset += 1 }
        return (onset, peak)
    }

    // MARK: Segments

    /// The stretches that are not silent, bridged and filtered by the minimum event length, with
    /// their curves simplified.
    func segments() -> [SoundAnalysis.Segment] {
        let rate = Double(sampleRate)
        let minimumFrames = Int((options.minimumEventLength * rate / Double(hop)).rounded(.up))
        var runs: [(first: Int, last: Int)] = []
        var frame = 0
        while frame < frameCount {
            guard levels[frame] > 0 else { frame += 1; continue }
            var last = frame
            while last + 1 < frameCount && levels[last + 1] > 0 { last += 1 }
            if let previous = runs.last, frame - previous.last - 1 < minimumFrames {
                runs[runs.count - 1].last = last
            } else {
                runs.append((frame, last))
            }
            frame = last + 1
        }
        let duration = Double(mono.count) / rate
        var segments: [SoundAnalysis.Segment] = []
        for run in runs where run.last - run.first + 1 >= max(1, minimumFrames) {
            let start = Double(run.first * hop) / rate
            let end = min(duration, Double((run.last + 1) * hop) / rate)
            guard end > start else { continue }
            var intensity: [SoundAnalysis.CurvePoint] = []
            var brightness: [SoundAnalysis.CurvePoint] = []
            var lastSharpness = sharpness[run.first]
            for index in run.first...run.last {
                let time = Double(index * hop) / rate
                intensity.append(.init(time: time, value: levels[index]))
                if levels[index] > 0 { lastSharpness = sharpness[index] }
                brightness.append(.init(time: time, value: lastSharpness))
            }
            if end > intensity[intensity.count - 1].time {
                intensity.append(.init(time: end, value: levels[run.last]))
                brightness.append(.init(time: end, value: lastSharpness))
            }
            segments.append(SoundAnalysis.Segment(
                start: SoundAnalyzer.rounded(start), end: SoundAnalyzer.rounded(end),
                intensity: Self.simplified(intensity, tolerance: options.curveTolerance),
                sharpness: Self.simplified(brightness, tolerance: options.curveTolerance)))
        }
        return segments
    }

    /// Points per block of the simplification: 2 s of frames at 5 ms.
    static let simplificationBlock = 400

    /// `points` simplified by Ramer–Douglas–Peucker (vertical distance within `tolerance`), in
    /// blocks of ``simplificationBlock`` points so the work stays linear in the length; times and
    /// values rounded.
    static func simplified(_ points: [SoundAnalysis.CurvePoint], tolerance: Double) -> [SoundAnalysis.CurvePoint] {
        guard points.count > 2 else { return points.map(roundedPoint) }
        var keep = [Bool](repeating: false, count: points.count)
        var blockStart = 0
        while blockStart < points.count - 1 {
            let blockEnd = min(points.count - 1, blockStart + simplificationBlock)
            keep[blockStart] = true
            keep[blockEnd] = true
            var stack = [(blockStart, blockEnd)]
            while let (first, last) = stack.popLast() {
                guard last - first > 1 else { continue }
                let a = points[first]
                let b = points[last]
                var farthest = first
                var distance = 0.0
                for index in (first + 1)..<last {
                    let p = points[index]
                    let expected = a.value + (b.value - a.value) * (p.time - a.time) / (b.time - a.time)
                    let off = abs(p.value - expected)
                    if off > distance {
                        distance = off
                        farthest = index
                    }
                }
                if distance > tolerance {
                    keep[farthest] = true
                    stack.append((first, farthest))
                    stack.append((farthest, last))
                }
            }
            blockStart = blockEnd
        }
        return points.indices.filter { keep[$0] }.map { roundedPoint(points[$0]) }
    }

    static func roundedPoint(_ point: SoundAnalysis.CurvePoint) -> SoundAnalysis.CurvePoint {
        .init(time: SoundAnalyzer.rounded(point.time), value: SoundAnalyzer.rounded(point.value))
    }
}
