#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The C math library, under names that do not clash with the engine's functions.
@inline(__always) func Foundation_log10(_ x: Double) -> Double { log10(x) }
@inline(__always) func cPow(_ x: Double, _ y: Double) -> Double { pow(x, y) }
@inline(__always) func cExp(_ x: Double) -> Double { exp(x) }
@inline(__always) func cLog(_ x: Double) -> Double { log(x) }
@inline(__always) func cSin(_ x: Double) -> Double { sin(x) }
@inline(__always) func cCos(_ x: Double) -> Double { cos(x) }
@inline(__always) func cTan(_ x: Double) -> Double { tan(x) }
@inline(__always) func cAsin(_ x: Double) -> Double { asin(x) }
@inline(__always) func cAcos(_ x: Double) -> Double { acos(x) }
@inline(__always) func cAtan(_ x: Double) -> Double { atan(x) }
@inline(__always) func cAtan2(_ y: Double, _ x: Double) -> Double { atan2(y, x) }
@inline(__always) func cSinh(_ x: Double) -> Double { sinh(x) }
@inline(__always) func cCosh(_ x: Double) -> Double { cosh(x) }
@inline(__always) func cTanh(_ x: Double) -> Double { tanh(x) }
@inline(__always) func cErf(_ x: Double) -> Double { erf(x) }
@inline(__always) func cErfc(_ x: Double) -> Double { erfc(x) }
@inline(__always) func cAsinh(_ x: Double) -> Double { asinh(x) }
@inline(__always) func cAcosh(_ x: Double) -> Double { acosh(x) }
@inline(__always) func cAtanh(_ x: Double) -> Double { atanh(x) }
@inline(__always) func cHypot(_ x: Double, _ y: Double) -> Double { hypot(x, y) }

/// Seconds since 1970 from the system clock.
func systemUnixTime() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
