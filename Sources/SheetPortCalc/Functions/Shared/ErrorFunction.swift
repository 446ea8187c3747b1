
/// The error function and its complement, shared by the engineering functions (ERF, ERFC and
/// their .PRECISE forms) and any statistical function built on them (the normal distribution is
/// `erfc(-z / sqrt(2)) / 2`). The C library's, within an ulp or two: Excel's cached ERF and ERFC
/// values agree to 15 digits (the calc suite's ENGINEERING__ERFs, docs__ERF*).
enum ErrorFunction {
    /// erf(x) = 2/sqrt(pi) * integral from 0 to x of exp(-t^2) dt.
    static func erf(_ x: Double) -> Double { cErf(x) }

    /// 1 - erf(x), without the cancellation of that difference for large x.
    static func erfc(_ x: Double) -> Double { cErfc(x) }
}
