import Foundation
import SheetPortCalc

extension ServerContext {
    /// The clock NOW and TODAY read on this server: the system's instant, in `serve --time-zone`
    /// (UTC by default), its offset taken when an engine is made.
    var calcClock: CalcClock {
        let zone = configuration.timeZone
        return CalcClock(utcOffsetSeconds: zone.secondsFromGMT()) { Date().timeIntervalSince1970 }
    }
}
