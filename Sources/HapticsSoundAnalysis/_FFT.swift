#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An in-place radix-2 FFT of one fixed size, its twiddle factors and bit-reversal order computed
/// once, so each transform allocates nothing.
///
/// The analysis transforms thousands of frames of the same size; computing `cos`/`sin` per butterfly
/// would cost more than the transform itself.
struct _FFT {
    /// Points per transform, a power of two ≥ 2.
    let size: Int
    /// `cos(2πk/size)` and `−sin(2πk/size)` for k in 0..<size/2.
    private let cosines: [Double]
    private let sines: [Double]
    /// Where each index goes in bit-reversed order.
    private let reversed: [Int]

    init(size: Int) {
        precondition(size >= 2 && size & (size - 1) == 0, "FFT size \(size) is not a power of two ≥ 2")
        self.size = size
        let half = size / 2
        var cosines = [Double](repeating: 0, count: half)
        var sines = [Double](repeating: 0, count: half)
        for k in 0..<half {
            let angle = 2 * Double.pi * Double(k) / Double(size)
            cosines[k] = cos(angle)
            sines[k] = -sin(angle)
        }
        self.cosines = cosines
        self.sines = sines
        var bits = 0
        while 1 << bits < size { bits += 1 }
        var reversed = [Int](repeating: 0, count: size)
        for index in 0..<size {
            var value = 0
            for bit in 0..<bits where index & (1 << bit) != 0 { value |= 1 << (bits - 1 - bit) }
            reversed[index] = value
        }
        self.reversed = reversed
    }

    /// Transforms `real` + i·`imaginary` (each `size` long) in place: X[k] = Σ x[n]·e^(−2πikn/size).
    func transform(real: inout [Double], imaginary: inout [Double]) {
        precondition(real.count == size && imaginary.count == size, "FFT input is not \(size) points")
        for index in 0..<size {
            let other = reversed[index]
            if other > index {
                real.swapAt(index, other)
                imaginary.swapAt(index, other)
            }
        }
        var span = 1
        while span < size {
            let stride = size / (2 * span)
            var start = 0
            while start < size {
                for offset in 0..<span {
                    let c = cosines[offset * stride]
                    let s = sines[offset * stride]
                    let top = start + offset
                    let bottom = top + span
                    let re = real[bottom] * c - imaginary[bottom] * s
                    let im = real[bottom] * s + imaginary[bottom] * c
                    real[bottom] = real[top] - re
                    imaginary[bottom] = imaginary[top] - im
                    real[top] += re
                    imaginary[top] += im
                }
                start += 2 * span
            }
            span *= 2
        }
    }
}
