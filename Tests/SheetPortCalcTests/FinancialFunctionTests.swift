import Testing
@testable import SheetPortCalc
import SheetPortCore

/// The financial functions. `microsoftExamples` are the example tables of Microsoft's function
/// reference (support.microsoft.com, "<NAME> function" articles, e.g.
/// https://support.microsoft.com/en-us/office/price-function-3ea9deac-8dfa-436f-a7c8-17ea02c21b0a):
/// each formula with the result the article shows, compared to the digits it shows (the articles
/// round to cents or a few decimals). Values the articles do not give (Excel's errors for odd
/// arguments) come from Excel-computed workbooks of ../shared/calc-suite (IronCalc's
/// calc_tests/FINANCIAL), said where used.
@Suite struct FinancialFunctionTests {
    /// Formula, result shown by Microsoft, half a unit of its last shown digit.
    static let microsoftExamples: [(String, Double, Double)] = [
        // ACCRINT, ACCRINTM
        ("ACCRINT(39508,39691,39569,0.1,1000,2,0)", 16.666667, 5e-7),
        ("ACCRINT(DATE(2008,3,5),39691,39569,0.1,1000,2,0,FALSE)", 15.555556, 5e-7),
        ("ACCRINT(DATE(2008,4,5),39691,39569,0.1,1000,2,0,TRUE)", 7.2222222, 5e-8),
        ("ACCRINTM(39539,39614,0.1,1000,3)", 20.54794521, 5e-9),
        // AMORDEGRC, AMORLINC: 2400 bought 2008-08-19, first period ending 2008-12-31.
        ("AMORDEGRC(2400,39679,39813,300,1,0.15,1)", 776, 0),
        ("AMORLINC(2400,39679,39813,300,1,0.15,1)", 360, 5e-9),
        // COUP*: settlement 2011-01-25, maturity 2011-11-15, semiannual, actual/actual.
        ("COUPDAYBS(DATE(2011,1,25),DATE(2011,11,15),2,1)", 71, 0),
        ("COUPDAYS(DATE(2011,1,25),DATE(2011,11,15),2,1)", 181, 0),
        ("COUPDAYSNC(DATE(2011,1,25),DATE(2011,11,15),2,1)", 110, 0),
        ("COUPNCD(DATE(2011,1,25),DATE(2011,11,15),2,1)", 40678, 0),
        ("COUPNUM(DATE(2007,1,25),DATE(2008,11,15),2,1)", 4, 0),
        ("COUPPCD(DATE(2011,1,25),DATE(2011,11,15),2,1)", 40497, 0),
        // CUMIPMT, CUMPRINC: 9 %, 30 years, 125,000.
        ("CUMIPMT(0.09/12,30*12,125000,13,24,0)", -11135.23213, 5e-6),
        ("CUMIPMT(0.09/12,30*12,125000,1,1,0)", -937.5, 0),
        ("CUMPRINC(0.09/12,30*12,125000,13,24,0)", -934.1071234, 5e-8),
        ("CUMPRINC(0.09/12,30*12,125000,1,1,0)", -68.27827118, 5e-9),
        // DB: 1,000,000, salvage 100,000, 6 years, first year of 7 months.
        ("DB(1000000,100000,6,1,7)", 186083.33, 0.005), ("DB(1000000,100000,6,2,7)", 259639.42, 0.005),
        ("DB(1000000,100000,6,3,7)", 176814.44, 0.005), ("DB(1000000,100000,6,4,7)", 120410.64, 0.005),
        ("DB(1000000,100000,6,5,7)", 81999.64, 0.005), ("DB(1000000,100000,6,6,7)", 55841.76, 0.005),
        ("DB(1000000,100000,6,7,7)", 15845.10, 0.005),
        // DDB: 2400, salvage 300, 10 years.
        ("DDB(2400,300,10*365,1)", 1.32, 0.005), ("DDB(2400,300,10*12,1,2)", 40.00, 0.005), ("DDB(2400,300,10,1,2)", 480.00, 0.005),
        ("DDB(2400,300,10,2,1.5)", 306.00, 0.005), ("DDB(2400,300,10,10)", 22.12, 0.005),
        ("DISC(DATE(2018,7,1),DATE(2048,1,1),97.975,100,1)", 0.0007, 0.00005), // shown rounded
        ("DOLLARDE(1.02,16)", 1.125, 0), ("DOLLARDE(1.1,32)", 1.3125, 1e-15),
        ("DOLLARFR(1.125,16)", 1.02, 1e-15), ("DOLLARFR(1.125,32)", 1.04, 1e-15),
        ("DURATION(DATE(2018,7,1),DATE(2048,1,1),0.08,0.09,2,1)", 10.9191453, 5e-8),
        ("EFFECT(0.0525,4)", 0.0535427, 5e-8),
        // FV
        ("FV(0.06/12,10,-200,-500,1)", 2581.40, 0.005), ("FV(0.12/12,12,-1000)", 12682.50, 0.005),
        ("FV(0.11/12,35,-2000,,1)", 82846.25, 0.005),
        ("FVSCHEDULE(1,{0.09,0.11,0.1})", 1.33089, 5e-6),
        ("INTRATE(DATE(2008,2,15),DATE(2008,5,15),1000000,1014420,2)", 0.05768, 5e-6),
        ("IPMT(0.1/12,1,3*12,8000)", -66.67, 0.005), ("IPMT(0.1,3,3,8000)", -292.45, 0.005),
        // IRR over -70,000, 12,000, 15,000, 18,000, 21,000, 26,000 (A2:A7).
        ("IRR(A2:A6)", -0.021, 0.0005), ("IRR(A2:A7)", 0.087, 0.0005), ("IRR(A2:A4,-0.1)", -0.444, 0.0005),
        ("ISPMT(0.1/12,1,3*12,8000000)", -64814.8, 0.05), ("ISPMT(0.1,1,3,8000000)", -533333, 0.5),
        ("MDURATION(DATE(2008,1,1),DATE(2016,1,1),0.08,0.09,2,1)", 5.73567, 5e-6),
        // MIRR over -120,000, 39,000, 30,000, 21,000, 37,000, 46,000 (B2:B7).
        ("MIRR(B2:B7,0.1,0.12)", 0.126, 0.0005), ("MIRR(B2:B5,0.1,0.12)", -0.048, 0.0005), ("MIRR(B2:B7,0.1,0.14)", 0.135, 0.0005),
        ("NOMINAL(0.053543,4)", 0.05250032, 5e-9),
        ("NPER(0.12/12,-100,-1000,10000,1)", 59.6738657, 5e-8), ("NPER(0.12/12,-100,-1000,10000)", 60.0821229, 5e-8),
        ("NPER(0.12/12,-100,-1000)", -9.57859404, 5e-9),
        // NPV: 10 %, -10,000, 3,000, 4,200, 6,800; and 8 % over -40,000 (C2) then C3:C7.
        ("NPV(0.1,-10000,3000,4200,6800)", 1188.44, 0.005), ("NPV(0.08,C3:C7)+C2", 1922.06, 0.005),
        ("NPV(0.08,C3:C7,-9000)+C2", -3749.47, 0.005),
        ("ODDFPRICE(DATE(2008,11,11),DATE(2021,3,1),DATE(2008,10,15),DATE(2009,3,1),0.0785,0.0625,100,2,1)", 113.597717, 5e-7),
        ("ODDFYIELD(DATE(2008,11,11),DATE(2021,3,1),DATE(2008,10,15),DATE(2009,3,1),0.0575,84.5,100,2,0)", 0.0772, 0.00005),
        ("ODDLPRICE(DATE(2008,2,7),DATE(2008,6,15),DATE(2007,10,15),0.0375,0.0405,100,2,0)", 99.87828601, 5e-9),
        ("ODDLYIELD(DATE(2008,4,20),DATE(2008,6,15),DATE(2007,12,24),0.0375,99.875,100,2,0)", 0.045192, 5e-7),
        ("PDURATION(2.5%,2000,2200)", 3.86, 0.005), ("PDURATION(0.025/12,1000,1200)", 87.6, 0.05),
        ("PMT(0.08/12,10,10000)", -1037.03, 0.005), ("PMT(0.08/12,10,10000,0,1)", -1030.16, 0.005),
        ("PMT(0.06/12,18*12,0,50000)", -129.08, 0.005),
        ("PPMT(0.1/12,1,2*12,2000)", -75.62, 0.005), ("PPMT(0.08,10,10,200000)", -27598.05, 0.005),
        ("PRICE(DATE(2008,2,15),DATE(2017,11,15),0.0575,0.065,100,2,0)", 94.63436, 5e-6),
        ("PRICEDISC(DATE(2008,2,16),DATE(2008,3,1),0.0525,100,2)", 99.79583, 5e-6),
        ("PRICEMAT(DATE(2008,2,15),DATE(2008,4,13),DATE(2007,11,11),0.061,0.061,0)", 99.98449888, 5e-9),
        ("PV(0.08/12,12*20,500,,0)", -59777.15, 0.005),
        ("RATE(4*12,-200,8000)", 0.0077, 0.00005), ("RATE(4*12,-200,8000)*12", 0.0924, 0.00005),
        ("RECEIVED(DATE(2008,2,15),DATE(2008,5,15),1000000,0.0575,2)", 1014584.654, 0.0005),
        ("RRI(96,10000,11000)", 0.0009933, 5e-8),
        ("SLN(30000,7500,10)", 2250, 0),
        ("SYD(30000,7500,10,1)", 4090.91, 0.005), ("SYD(30000,7500,10,10)", 409.09, 0.005),
        ("TBILLEQ(DATE(2008,3,31),DATE(2008,6,1),0.0914)", 0.094151, 5e-7),
        ("TBILLPRICE(DATE(2008,3,31),DATE(2008,6,1),0.09)", 98.45, 0.005),
        ("TBILLYIELD(DATE(2008,3,31),DATE(2008,6,1),98.45)", 0.091417, 5e-7),
        // VDB: 2400, salvage 300, 10 years.
        ("VDB(2400,300,10*365,0,1)", 1.32, 0.005), ("VDB(2400,300,10*12,0,1)", 40.00, 0.005), ("VDB(2400,300,10,0,1)", 480.00, 0.005),
        ("VDB(2400,300,10*12,6,18)", 396.31, 0.005), ("VDB(2400,300,10*12,6,18,1.5)", 311.81, 0.005),
        ("VDB(2400,300,10,0,0.875,1.5)", 315.00, 0.005),
        // XIRR, XNPV: -10,000 on 2008-01-01, then 2,750, 4,250, 3,250, 2,750 (D2:D6 on E2:E6).
        // Excel's XIRR stops within its tolerance (0.000001 %): its ninth digit is not the root's.
        ("XIRR(D2:D6,E2:E6,0.1)", 0.373362535, 5e-9), ("XNPV(0.09,D2:D6,E2:E6)", 2086.65, 0.005),
        ("YIELD(DATE(2008,2,15),DATE(2016,11,15),0.0575,95.04287,100,2,0)", 0.065, 0.00005),
        ("YIELDDISC(DATE(2008,2,16),DATE(2008,3,1),99.795,100,2)", 0.052823, 5e-7),
        ("YIELDMAT(DATE(2008,3,15),DATE(2008,11,3),DATE(2007,11,8),0.0625,100.0123,0)", 0.060954, 5e-7),
    ]

    /// The data of the examples that read cells.
    nonisolated(unsafe) static let cells: [String: Any] = [
        "A2": -70000, "A3": 12000, "A4": 15000, "A5": 18000, "A6": 21000, "A7": 26000,
        "B2": -120000, "B3": 39000, "B4": 30000, "B5": 21000, "B6": 37000, "B7": 46000,
        "C2": -40000, "C3": 8000, "C4": 9200, "C5": 10000, "C6": 12000, "C7": 14500,
        "D2": -10000, "D3": 2750, "D4": 4250, "D5": 3250, "D6": 2750,
        "E2": 39448, "E3": 39508, "E4": 39751, "E5": 39859, "E6": 39904,
    ]

    @Test(arguments: microsoftExamples)
    func microsoftExample(_ formula: String, _ shown: Double, _ tolerance: Double) {
        let got = eval(formula, Self.cells)
        #expect(got.number.map { Swift.abs($0 - shown) <= tolerance } ?? false, "\(formula) = \(got), Microsoft shows \(shown)")
    }

    /// Excel's own results, to its 15 digits, where the calc-suite caught a difference in the
    /// last digits (Excel-computed: ../shared/calc-suite, FINANCIAL__PV, __IPMT_PPMT, __DB_DDB).
    @Test func excelsLastDigits() {
        #expect(close(eval("PV(0.0042,12,-1000,20000,FALSE)"), -7340.26624839494))
        #expect(close(eval("IPMT(0.1,3,3,8000,0,1)"), -265.8610271903324))
        #expect(close(eval("IPMT(0.0083,12.5,36,8000,1234,1)"), -43.982787941811296))
        // DB counts whole periods: 4.5 is the fourth.
        #expect(close(eval("DB(12,10,4,4.5,2)"), 0.48879979875))
    }

    /// The principal part of a payment in closed form, where `pmt - ipmt` cancels to noise: at
    /// rates of 100 % to 500 % over 33 periods the early payments are almost all interest (formulas__test
    /// FINANCIAL row 40; CUMPRINC_CUMIPMT H5, H7, H26: Excel-computed), and the sign stays right.
    @Test(arguments: [
        ("PPMT(2,3,33,10000,1)", -3.238280962129199e-11), ("PPMT(1,3,33,10000,1)", -4.657078534906851e-06),
        ("PPMT(4,3,33,10000,1)", -8.590793585459249e-18), ("PPMT(5,3,33,10000,1)", -3.7698552037230904e-20),
        ("PPMT(-0.1,3,33,10000,1)", -835.9133596022948),
        ("CUMPRINC(0.7,36,8000,2,10,1)", -0.0047565423422487076), ("CUMPRINC(0.8,36,18000,2.7,9.667,1)", -0.0012603466877548824),
        ("CUMPRINC(7,36,8000,3,\"10\",\"1\")", -3.308722252996902e-21), ("CUMPRINC(0.01,36,8000,1.2,8.53,1)", -1339.6579298169904),
    ])
    func principalWhereInterestDominates(_ formula: String, _ excel: Double) {
        let got = eval(formula)
        #expect(got.number.map { Swift.abs($0 - excel) <= Swift.abs(excel) * 1e-13 } ?? false, "\(formula) = \(got), Excel \(excel)")
    }

    /// The closed form agrees with the payment less its interest wherever that difference is
    /// well conditioned, for both payment types, every period, a zero rate and fractional periods;
    /// the first payment at the start of a period is all principal.
    @Test func principalAgreesWithPaymentLessInterest() {
        func near(_ a: CalcValue, _ b: CalcValue, _ tolerance: Double) -> Bool {
            guard let x = a.number, let y = b.number else { return false }
            return Swift.abs(x - y) <= Swift.abs(y) * tolerance
        }
        for type in [0, 1] {
            for rate in [0.0, 0.004, 0.05, 0.3] {
                for per in 1...24 {
                    let principal = eval("PPMT(\(rate),\(per),24,-5000,300,\(type))")
                    #expect(near(principal, eval("PMT(\(rate),24,-5000,300,\(type))-IPMT(\(rate),\(per),24,-5000,300,\(type))"), 1e-11),
                            "type \(type) rate \(rate) period \(per): \(principal)")
                }
                let fractional = eval("PPMT(\(rate),2.5,24,-5000,300,\(type))")
                #expect(near(fractional, eval("PMT(\(rate),24,-5000,300,\(type))-IPMT(\(rate),2.5,24,-5000,300,\(type))"), 1e-12),
                        "type \(type) rate \(rate): \(fractional)")
            }
            #expect(eval("PPMT(0.05,1,24,-5000,0,1)") == eval("PMT(0.05,24,-5000,0,1)"))
        }
        // Loans repaid in full at the end: the principal parts add up to the loan less what is left.
        let repaid = (1...24).reduce(0.0) { $0 + (eval("PPMT(0.05,\($1),24,-5000,300)").number ?? .nan) }
        #expect(Swift.abs(repaid - 4700) <= 1e-9, "\(repaid)")
        // A rate of -100 % leaves nothing to grow: an error or a finite number, never a trap.
        #expect(eval("PPMT(-1,3,33,10000)").number?.isFinite ?? true)
    }

    /// Excel's errors for arguments out of range (Microsoft's "Remarks" of each article; the
    /// odd ones Excel-computed in the calc-suite).
    @Test(arguments: [
        ("ACCRINT(DATE(2008,5,1),DATE(2008,9,1),DATE(2008,5,1),0.1,1000,2,0)", ExcelError.number), // issue = settlement
        ("ACCRINT(39508,39691,39569,0,1000,2)", .number), ("ACCRINT(39508,39691,39569,0.1,1000,3)", .number),
        ("ACCRINT(39508,39691,39569,0.1,1000,2,5)", .number), ("ACCRINTM(39614,39539,0.1,1000)", .number),
        ("COUPDAYS(DATE(2011,11,15),DATE(2011,1,25),2)", .number), ("COUPNUM(DATE(2011,1,25),DATE(2011,11,15),3)", .number),
        ("COUPNCD(-1,DATE(2011,11,15),2)", .number), ("COUPNCD(1E+300,DATE(2011,11,15),2)", .number),
        ("PRICE(DATE(2008,2,15),DATE(2017,11,15),0.0575,-0.065,100,2)", .number),
        ("PRICE(DATE(2008,2,15),DATE(2017,11,15),0.0575,0.065,0,2)", .number),
        ("YIELD(DATE(2008,2,15),DATE(2016,11,15),0.0575,0,100,2)", .number),
        ("DISC(DATE(2018,7,1),DATE(2048,1,1),0,100)", .number), ("INTRATE(DATE(2008,5,15),DATE(2008,2,15),1,2)", .number),
        ("TBILLPRICE(DATE(2008,3,31),DATE(2009,4,1),0.09)", .number), // more than a year
        ("TBILLEQ(DATE(2008,3,31),DATE(2008,6,1),-0.09)", .number), ("TBILLYIELD(DATE(2008,3,31),DATE(2008,6,1),0)", .number),
        ("DB(100,10,4,3,13)", .number), ("DB(-100,10,4,3)", .number), ("DB(100,10,4,6,2)", .number),
        ("DDB(100,10,4,5)", .number), ("DDB(100,10,4,3,0)", .number), ("SYD(100,10,5,6)", .number), ("SYD(100,10,5,0)", .number),
        ("VDB(2400,300,10,5,4)", .number), ("AMORDEGRC(2400,39679,39813,300,1,0.25,1)", .number), // a 4-year life
        ("AMORLINC(2400,39813,39679,300,1,0.15,1)", .number), ("AMORLINC(2400,39679,39813,300,1,0.15,2)", .number),
        ("EFFECT(0,4)", .number), ("NOMINAL(0.05,0.5)", .number), ("DOLLARDE(1.02,-1)", .number),
        ("CUMIPMT(0,360,125000,1,1,0)", .number), ("CUMIPMT(0.0075,360,125000,13,12,0)", .number), ("CUMIPMT(0.0075,360,125000,1,1,2)", .number),
        ("IPMT(0.1,0.99999,36,8000)", .number), ("IPMT(0.1,4,3,8000)", .number), ("PPMT(0.1,0,36,8000)", .number),
        ("PMT(-3,5,100)", .number), ("PMT(0.1,0,100)", .number), ("FV(-3,-3.5,1)", .number), ("PDURATION(0,1,2)", .number), ("RRI(0,1,2)", .number),
        ("IRR(A2)", .number), ("IRR({1,2,3})", .number), ("XIRR({1,2},{39448,39508})", .number),
        ("XNPV(0.1,{-100,50},{39448})", .number), ("XNPV(0.1,{-100,50},{39448,39000})", .number), ("XNPV(-0.4,{-100,50},{39448,39508})", .number),
        ("RATE(10,-1200,2000,0,1)", .number),
    ] as [(String, ExcelError)])
    func argumentOutOfRange(_ formula: String, _ error: ExcelError) {
        #expect(eval(formula, Self.cells) == .error(error), "\(formula)")
    }

    /// Division by zero where Excel answers #DIV/0!, not #NUM!.
    @Test func divisionByZero() {
        #expect(eval("FV(-1,-2,1)") == .error(.divisionByZero))
        #expect(eval("PV(-1,20,300)") == .error(.divisionByZero))
        #expect(eval("SLN(100,10,0)") == .error(.divisionByZero))
        #expect(eval("DOLLARDE(1.02,0.5)") == .error(.divisionByZero))
        #expect(eval("NPV(-1,1,2)") == .error(.divisionByZero))
        #expect(eval("MIRR({5,6},0.1,0.2)") == .error(.divisionByZero)) // no negative flow
        #expect(eval("ISPMT(0.1,1,0,100)") == .error(.divisionByZero))
    }

    /// The functions Excel took over from the Analysis ToolPak refuse a boolean (#VALUE!), read
    /// text as a number or date, and pass errors on; the older ones (PMT, DB, ...) take TRUE as 1.
    /// (Excel-computed: calc-suite FINANCIAL__TBILLs, __NOMINAL_EFFECT, __CUMPRINC_CUMIPMT, __DB_DDB.)
    @Test func argumentTypes() {
        #expect(eval("TBILLPRICE(A1,45731,0.5)", ["A1": true]) == .error(.value))
        #expect(eval("EFFECT(10,A1)", ["A1": true]) == .error(.value))
        #expect(eval("CUMIPMT(0.01,36,8000,A1,10,0)", ["A1": true]) == .error(.value))
        #expect(eval("COUPDAYS(\"2011-01-25\",\"2011-11-15\",2,1)") == .number(181))
        #expect(close(eval("TBILLPRICE(\"45366\",\"45731\",\"0.5\")"), 49.30555555555556))
        #expect(eval("PRICE(\"soon\",DATE(2017,11,15),0.0575,0.065,100,2)") == .error(.value))
        #expect(eval("ACCRINT(NA(),39691,39569,0.1,1000,2)") == .error(.notAvailable))
        #expect(eval("YIELD(DATE(2008,2,15),DATE(2016,11,15),1/0,95,100,2)") == .error(.divisionByZero))
        #expect(close(eval("DB(A1,10,4,1,2)", ["A1": true]), -0.12966666666666665))
        #expect(eval("PMT(0.1,A1,100)", ["A1": "x"]) == .error(.value))
        #expect(eval("FV(\"str\",2,3,4,TRUE)") == .error(.value))
    }

    /// Empty cells are zeros (or their argument's default), and cash-flow ranges skip text,
    /// booleans and empty cells but read row by row (Excel-computed: calc-suite FINANCIAL__NPV, __IRR).
    @Test func emptyCellsAndRanges() {
        #expect(close(eval("DDB(100,A1,4,3,2)"), 12.5)) // an empty salvage is 0
        #expect(eval("DB(100,10,4,A1)") == .error(.number)) // an empty period is 0
        #expect(close(eval("NPV(0.07,A1:C1)", ["A1": true, "B1": false, "C1": 7]), 6.5420560747663545))
        // Row by row: 2x2 range -100, 50 / 60, 70 discounted in that order.
        let byRow = eval("NPV(0.1,A1:B2)", ["A1": -100, "B1": 50, "A2": 60, "B2": 70])
        #expect(close(byRow, -100 / 1.1 + 50 / 1.21 + 60 / 1.331 + 70 / 1.4641))
        #expect(close(eval("IRR(A1:F1)", ["A1": -20, "B1": 5, "C1": 5, "F1": 7]), eval("IRR({-20,5,5,7})").number ?? 0))
        #expect(eval("XNPV(0.1,A1:C1,{39448,39508,39600})", ["A1": -100, "C1": 50]) == .error(.number))
        #expect(close(eval("FVSCHEDULE(100,A1:A3)", ["A1": 0.1, "A3": 0.1]), 121.00000000000003))
        #expect(eval("FVSCHEDULE(100,A1:A2)", ["A1": 0.1, "A2": "x"]) == .error(.value))
    }

    /// Arrays lift element by element; a number far past any date, a life of a billion periods or
    /// a rate that makes no power never trap or hold the thread (an error instead).
    @Test func arraysAndHostileSizes() {
        let lifted = eval("SUM(PV({0.1,0.2},10,-100))")
        #expect(close(lifted, (eval("PV(0.1,10,-100)").number ?? 0) + (eval("PV(0.2,10,-100)").number ?? 0)))
        #expect(eval("ROWS(TRANSPOSE(COUPDAYS(DATE(2011,1,25),DATE(2011,11,15),{1,2,4})))") == .number(3))
        for formula in [
            "COUPNUM(0,2958465,4)", "CUMIPMT(0.01,1E+9,100,1,1E+9,0)", "DB(1E+9,1,1E+9,1E+9-1,1)", "VDB(1E+9,1,1E+12,0,1E+12)",
            "AMORLINC(1E+9,39679,39813,1,1E+9,1E-12,1)", "PRICE(0,2958465,0.05,0.06,100,4)", "DURATION(0,2958465,0.05,0.06,4)",
            "ODDLPRICE(DATE(2008,2,7),2958465,1,0.0375,0.0405,100,4,0)", "PMT(1E+300,1E+300,1)", "FV(-2,0.5,1)",
            "XIRR({-1,1E+300},{1,2958465})", "IRR({-1E+300,1E+300,-1E+300})", "YIELD(1,2958465,1,1E+300,100,1)",
            "ACCRINT(1,2958465,2958464,0.1,1000,4)", "RATE(1E+300,-1,1)", "TBILLEQ(1,2958465,0.1)",
        ] {
            let value = eval(formula)
            switch value {
            case .number(let x): #expect(x.isFinite, "\(formula)")
            case .error: break
            default: Issue.record("\(formula) = \(value)")
            }
        }
    }

    /// The day-count bases on their own (YEARFRAC, Microsoft's example: 2012-01-01 to 2012-07-30).
    @Test func dayCountBases() {
        #expect(close(eval("YEARFRAC(DATE(2012,1,1),DATE(2012,7,30))"), 0.580555555555556))
        #expect(close(eval("YEARFRAC(DATE(2012,1,1),DATE(2012,7,30),1)"), 0.576502732240437))
        #expect(close(eval("YEARFRAC(DATE(2012,1,1),DATE(2012,7,30),3)"), 0.578082191780822))
        // US 30/360 moves February's last day to the 30th, after testing the start's own day for an
        // end on the 31st (IronCalc's port of ExcelFinancialFunctions, checked on its Excel vectors);
        // European 30/360 has no February rule.
        #expect(DayCountBasis.days360US(CivilDate(year: 2023, month: 2, day: 28), CivilDate(year: 2023, month: 3, day: 31)) == 31)
        #expect(DayCountBasis.days360US(CivilDate(year: 2023, month: 2, day: 28), CivilDate(year: 2024, month: 2, day: 29)) == 360)
        #expect(DayCountBasis.days360European(CivilDate(year: 2023, month: 2, day: 28), CivilDate(year: 2023, month: 3, day: 31)) == 32)
        // Excel's phantom 1900-02-29 counts as a day.
        #expect(CivilDate(year: 1900, month: 3, day: 1).dayNumber - CivilDate(year: 1900, month: 2, day: 28).dayNumber == 2)
        // A maturity on a month's end keeps its coupons on month ends.
        let s = CouponSchedule(settlement: CivilDate(year: 2011, month: 1, day: 25), maturity: CivilDate(year: 2012, month: 8, day: 31),
                               frequency: 2, basis: .actualActual)
        #expect(s.previous == CivilDate(year: 2010, month: 8, day: 31))
        #expect(s.next == CivilDate(year: 2011, month: 2, day: 28))
    }
}
