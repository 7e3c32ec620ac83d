/// Samples in memory allocated once and never written again: what a clip's voices read on the audio
/// thread, so that a clip played by many voices (or looped for minutes) is held once.
///
/// The pointer stays valid for the storage's life; the audio thread reads it without retaining
/// anything, and the voices that read it keep the storage alive.
final class _SampleStorage: @unchecked Sendable {
    /// The number of samples.
    let count: Int
    /// The samples (`count` of them; one unused element when empty).
    let base: UnsafeMutablePointer<Float>

    init(_ samples: [Float]) {
        count = samples.count
        base = .allocate(capacity: max(1, samples.count))
        samples.withUnsafeBufferPointer { source in
            if let address = source.baseAddress, source.count > 0 {
                base.initialize(from: address, count: source.count)
            } else {
                base.initialize(to: 0)
            }
        }
    }

    deinit {
        base.deallocate()
    }

    /// A copy as an array.
    var array: [Float] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Whether both hold the same samples.
    func elementsEqual(_ other: _SampleStorage) -> Bool {
        self === other || (count == other.count && (0..<count).allSatisfy { base[$0] == other.base[$0] })
    }
}
