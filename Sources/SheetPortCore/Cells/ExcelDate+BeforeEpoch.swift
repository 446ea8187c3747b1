/// Dates before a date system's day zero: Excel has none, but openpyxl and pandas write a date
/// before 1900 as a negative serial counted back from 1899-12-30 (1904-01-01 in the 1904
/// system), so a cell formatted as a date can hold one.
extension ExcelDateTime {
    /// The date-time of a negative `serial`, counted back from `system`'s day zero; nil for a
    /// serial that is not negative or falls before the year 1.
    public init?(serialBeforeEpoch serial: Double, system: DateSystem) {
        guard serial.isFinite, serial < 0, serial > -700_000 else { return nil }
        var wholeDays = serial.rounded(.down)
        var milliseconds = ((serial - wholeDays) * 86_400_000).rounded(.toNearestOrEven)
        if milliseconds >= 86_400_000 {
            wholeDays += 1
            milliseconds = 0
        }
        let zero = system == .excel1904 ? Self.daysFromCivil(1904, 1, 1) : Self.daysFromCivil(1899, 12, 30)
        let (year, month, day) = Self.civilFromDays(zero + Int(wholeDays))
        guard year >= 1 else { return nil }
        self.init(year: year, month: month, day: day, millisecondOfDay: Int(milliseconds))
    }
}
