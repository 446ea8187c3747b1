import Foundation
import Testing
@testable import SheetPortCalc
import SheetPortCore

/// The statistical functions on the examples of Microsoft's function reference
/// (support.microsoft.com, "<NAME> function" articles: each example table's formula with the
/// result the article shows, compared to the digits it shows), then hostile arguments.
@Suite struct StatisticalFunctionTests {
    /// A column of numbers from A2 down (the articles' data layout).
    static func column(_ values: [Any], _ column: String = "A", from row: Int = 2) -> [String: Any] {
        var cells: [String: Any] = [:]
        for (k, v) in values.enumerated() { cells["\(column)\(row + k)"] = v }
        return cells
    }

    static func merged(_ parts: [String: Any]...) -> [String: Any] {
        parts.reduce(into: [:]) { $0.merge($1) { a, _ in a } }
    }

    /// The value rounded to the decimals of `shown` equals it (the article's display), or the
    /// error the article names.
    static func shows(_ v: CalcValue, _ shown: String) -> Bool {
        if shown.hasPrefix("#") { return v == .error(ExcelError(literal: shown) ?? .value) }
        guard case .number(let x) = v, let expected = Double(shown) else { return false }
        let decimals = shown.split(separator: ".").dropFirst().first?.count ?? 0
        let scale = pow(10.0, Double(decimals))
        return Swift.abs((x * scale).rounded() / scale - expected) <= 0.5 / scale
    }

    nonisolated(unsafe) static let ages: [String: Any] = column([4, 5, 6, 7, 5, 4, 3])
    nonisolated(unsafe) static let devsq: [String: Any] = column([4, 5, 8, 7, 11, 4, 3])
    nonisolated(unsafe) static let pairs: [String: Any] = merged(column([3, 2, 4, 5, 6]), column([9, 7, 12, 15, 17], "B"))
    nonisolated(unsafe) static let regression: [String: Any] = merged(column([2, 3, 9, 1, 8, 7, 5]), column([6, 5, 11, 7, 5, 4, 4], "B"))
    nonisolated(unsafe) static let forecast: [String: Any] = merged(column([6, 7, 9, 15, 21]), column([20, 28, 31, 38, 40], "B"))
    nonisolated(unsafe) static let shape: [String: Any] = column([3, 4, 5, 2, 3, 4, 5, 6, 4, 7])
    nonisolated(unsafe) static let tensile: [String: Any] = column([1345, 1301, 1368, 1322, 1310, 1370, 1318, 1350, 1303, 1299])
    nonisolated(unsafe) static let ttest: [String: Any] = merged(column([3, 4, 5, 8, 9, 1, 2, 4, 5]), column([6, 19, 3, 2, 14, 4, 5, 17, 1], "B"))
    nonisolated(unsafe) static let ztest: [String: Any] = column([3, 6, 7, 8, 6, 5, 4, 2, 1, 9])
    nonisolated(unsafe) static let rankData: [String: Any] = column([7, 3.5, 3.5, 1, 2])
    nonisolated(unsafe) static let percentRank: [String: Any] = column([13, 12, 11, 8, 4, 3, 2, 1, 1, 1])
    nonisolated(unsafe) static let exclusive: [String: Any] = column([1, 2, 3, 6, 6, 6, 7, 8, 9])
    nonisolated(unsafe) static let chi: [String: Any] = [
        "A2": 58, "B2": 35, "A3": 11, "B3": 25, "A4": 10, "B4": 23,
        "A6": 45.35, "B6": 47.65, "A7": 17.56, "B7": 18.44, "A8": 16.09, "B8": 16.91,
    ]
    nonisolated(unsafe) static let growth: [String: Any] = merged(column([11, 12, 13, 14, 15, 16]), column([33100, 47300, 69000, 102000, 150000, 220000], "B"),
                                              ["A9": 17, "A10": 18])
    nonisolated(unsafe) static let trend: [String: Any] = merged(column(Array(1...12)), column([133890, 135000, 135790, 137300, 138130, 139100, 139900,
                                                                           141120, 141890, 143230, 144000, 145290], "B"),
                                             column([13, 14, 15, 16, 17], "C"))

    /// (formula, cells, the result the article shows).
    nonisolated(unsafe) static let examples: [(String, [String: Any], String)] = [
        ("AVEDEV(A2:A8)", ages, "1.020408163"),
        ("BETA.DIST(2,8,10,TRUE,1,3)", [:], "0.6854706"), ("BETA.DIST(2,8,10,FALSE,1,3)", [:], "1.4837646"),
        ("BETA.INV(0.685470581,8,10,1,3)", [:], "2"), ("BETADIST(2,8,10,1,3)", [:], "0.6854706"),
        ("BETAINV(0.685470581,8,10,1,3)", [:], "2"),
        ("BINOM.DIST(6,10,0.5,FALSE)", [:], "0.2050781"), ("BINOMDIST(6,10,0.5,FALSE)", [:], "0.2050781"),
        ("BINOM.DIST.RANGE(60,0.75,48)", [:], "0.084"), ("BINOM.DIST.RANGE(60,0.75,45,50)", [:], "0.524"),
        ("BINOM.INV(6,0.5,0.75)", [:], "4"), ("CRITBINOM(6,0.5,0.75)", [:], "4"),
        ("CHIDIST(18.307,10)", [:], "0.0500006"), ("CHISQ.DIST.RT(18.307,10)", [:], "0.0500006"),
        ("CHIINV(0.050001,10)", [:], "18.306973"), ("CHISQ.INV.RT(0.050001,10)", [:], "18.30697"),
        ("CHISQ.DIST(0.5,1,TRUE)", [:], "0.52049988"), ("CHISQ.DIST(2,3,FALSE)", [:], "0.20755375"),
        ("CHISQ.INV(0.93,1)", [:], "3.283"), ("CHISQ.INV(0.6,2)", [:], "1.832581464"),
        ("CHITEST(A2:B4,A6:B8)", chi, "0.0003082"), ("CHISQ.TEST(A2:B4,A6:B8)", chi, "0.0003082"),
        ("CONFIDENCE(0.05,2.5,50)", [:], "0.692951912"), ("CONFIDENCE.NORM(0.05,2.5,50)", [:], "0.692951912"),
        ("CONFIDENCE.T(0.05,1,50)", [:], "0.284196855"),
        ("CORREL(A2:A6,B2:B6)", pairs, "0.997054486"), ("COVAR(A2:A6,B2:B6)", pairs, "5.2"),
        ("COVARIANCE.P(A2:A6,B2:B6)", pairs, "5.2"), ("COVARIANCE.S({2,4,8},{5,11,12})", [:], "9.666666667"),
        ("DEVSQ(A2:A8)", devsq, "48"),
        ("EXPON.DIST(0.2,10,TRUE)", [:], "0.86466472"), ("EXPON.DIST(0.2,10,FALSE)", [:], "1.35335283"),
        ("EXPONDIST(0.2,10,TRUE)", [:], "0.86466472"),
        ("F.DIST(15.2069,6,4,TRUE)", [:], "0.99"), ("F.DIST(15.2069,6,4,FALSE)", [:], "0.0012238"),
        ("F.DIST.RT(15.2068649,6,4)", [:], "0.01"), ("FDIST(15.2068649,6,4)", [:], "0.01"),
        ("F.INV(0.01,6,4)", [:], "0.10930991"), ("F.INV.RT(0.01,6,4)", [:], "15.20686"), ("FINV(0.01,6,4)", [:], "15.206865"),
        ("F.TEST(A2:A6,B2:B6)", forecast, "0.64831785"), ("FTEST(A2:A6,B2:B6)", forecast, "0.64831785"),
        ("FISHER(0.75)", [:], "0.9729551"), ("FISHERINV(0.972955)", [:], "0.75"),
        ("FORECAST(30,A2:A6,B2:B6)", forecast, "10.607253"), ("FORECAST.LINEAR(30,A2:A6,B2:B6)", forecast, "10.607253"),
        ("GAMMA(2.5)", [:], "1.329"), ("GAMMA(-3.75)", [:], "0.268"), ("GAMMA(0)", [:], "#NUM!"), ("GAMMA(-2)", [:], "#NUM!"),
        ("GAMMA.DIST(10.00001131,9,2,FALSE)", [:], "0.032639"), ("GAMMA.DIST(10.00001131,9,2,TRUE)", [:], "0.068094"),
        ("GAMMADIST(10.00001131,9,2,TRUE)", [:], "0.068094"),
        ("GAMMA.INV(0.068094,9,2)", [:], "10.0000112"), ("GAMMAINV(0.068094,9,2)", [:], "10.0000112"),
        ("GAMMALN(4)", [:], "1.7917595"), ("GAMMALN.PRECISE(4)", [:], "1.7917595"), ("GAUSS(2)", [:], "0.47725"),
        ("GEOMEAN(A2:A8)", devsq, "5.476987"), ("HARMEAN(A2:A8)", devsq, "5.028376"),
        ("HYPGEOM.DIST(1,4,8,20,TRUE)", [:], "0.4654"), ("HYPGEOM.DIST(1,4,8,20,FALSE)", [:], "0.3633"),
        ("HYPGEOMDIST(1,4,8,20)", [:], "0.3633"),
        ("INTERCEPT(A2:A6,B2:B6)", merged(column([2, 3, 9, 1, 8]), column([6, 5, 11, 7, 5], "B")), "0.0483871"),
        ("KURT(A2:A11)", shape, "-0.151799637"),
        ("LOGINV(0.039084,3.5,1.2)", [:], "4.0000252"), ("LOGNORM.INV(0.039084,3.5,1.2)", [:], "4.0000252"),
        ("LOGNORM.DIST(4,3.5,1.2,TRUE)", [:], "0.0390836"), ("LOGNORM.DIST(4,3.5,1.2,FALSE)", [:], "0.0176176"),
        ("LOGNORMDIST(4,3.5,1.2)", [:], "0.0390836"),
        ("NEGBINOM.DIST(10,5,0.25,TRUE)", [:], "0.3135141"), ("NEGBINOM.DIST(10,5,0.25,FALSE)", [:], "0.0550487"),
        ("NEGBINOMDIST(10,5,0.25)", [:], "0.05504866"),
        ("NORM.DIST(42,40,1.5,TRUE)", [:], "0.9087888"), ("NORM.DIST(42,40,1.5,FALSE)", [:], "0.10934"),
        ("NORMDIST(42,40,1.5,TRUE)", [:], "0.9087888"),
        ("NORM.INV(0.908789,40,1.5)", [:], "42.000002"), ("NORMINV(0.908789,40,1.5)", [:], "42.000002"),
        ("NORM.S.DIST(1.333333,TRUE)", [:], "0.908788726"), ("NORM.S.DIST(1.333333,FALSE)", [:], "0.164010148"),
        ("NORMSDIST(1.333333)", [:], "0.908788726"),
        ("NORM.S.INV(0.908789)", [:], "1.3333347"), ("NORMSINV(0.908789)", [:], "1.3333347"),
        ("PEARSON({9,7,5,3,1},{10,6,1,5,3})", [:], "0.699379"),
        ("PERCENTRANK(A2:A11,2)", percentRank, "0.333"), ("PERCENTRANK(A2:A11,4)", percentRank, "0.555"),
        ("PERCENTRANK(A2:A11,8)", percentRank, "0.666"), ("PERCENTRANK(A2:A11,5)", percentRank, "0.583"),
        ("PERCENTRANK.INC(A2:A11,2)", percentRank, "0.333"), ("PERCENTRANK.INC(A2:A11,4)", percentRank, "0.555"),
        ("PERCENTRANK.INC(A2:A11,8)", percentRank, "0.666"), ("PERCENTRANK.INC(A2:A11,5)", percentRank, "0.583"),
        ("PERCENTRANK.EXC(A2:A10,7)", exclusive, "0.7"), ("PERCENTRANK.EXC(A2:A10,5.43)", exclusive, "0.381"),
        ("PERCENTRANK.EXC(A2:A10,5.43,1)", exclusive, "0.3"),
        ("PERMUT(100,3)", [:], "970200"), ("PERMUT(3,2)", [:], "6"),
        ("PERMUTATIONA(3,2)", [:], "9"), ("PERMUTATIONA(2,2)", [:], "4"), ("PHI(0.75)", [:], "0.301137432"),
        ("POISSON(2,5,TRUE)", [:], "0.124652"), ("POISSON(2,5,FALSE)", [:], "0.084224"),
        ("POISSON.DIST(2,5,TRUE)", [:], "0.124652"), ("POISSON.DIST(2,5,FALSE)", [:], "0.084224"),
        ("PROB(A2:A5,B2:B5,2)", merged(column([0, 1, 2, 3]), column([0.2, 0.3, 0.1, 0.4], "B")), "0.1"),
        ("PROB(A2:A5,B2:B5,1,3)", merged(column([0, 1, 2, 3]), column([0.2, 0.3, 0.1, 0.4], "B")), "0.8"),
        ("QUARTILE.EXC(A2:A12,1)", column([6, 7, 15, 36, 39, 40, 41, 42, 43, 47, 49]), "15"),
        ("QUARTILE.EXC(A2:A12,3)", column([6, 7, 15, 36, 39, 40, 41, 42, 43, 47, 49]), "43"),
        ("RSQ(A2:A8,B2:B8)", regression, "0.05795"), ("SLOPE(A2:A8,B2:B8)", regression, "0.305556"),
        ("STEYX(A2:A8,B2:B8)", regression, "3.305719"),
        ("SKEW(A2:A11)", shape, "0.359543"), ("SKEW.P(A2:A11)", shape, "0.303193"),
        ("STANDARDIZE(42,40,1.5)", [:], "1.33333333"),
        ("STDEVA(A2:A11)", tensile, "27.46392"), ("STDEVPA(A2:A11)", tensile, "26.05456"),
        ("VARA(A2:A11)", tensile, "754.26667"), ("VARPA(A2:A11)", tensile, "678.84"),
        ("T.DIST(60,1,TRUE)", [:], "0.99469533"), ("T.DIST(8,3,FALSE)", [:], "0.00073691"),
        ("T.DIST.2T(1.959999998,60)", [:], "0.054645"), ("T.DIST.RT(1.959999998,60)", [:], "0.027322"),
        ("TDIST(1.959999998,60,2)", [:], "0.05464493"), ("TDIST(1.959999998,60,1)", [:], "0.027322465"),
        ("T.INV(0.75,2)", [:], "0.8164966"), ("T.INV.2T(0.546449,60)", [:], "0.606533"), ("TINV(0.05464,60)", [:], "1.96"),
        ("T.TEST(A2:A10,B2:B10,2,1)", ttest, "0.196016"), ("TTEST(A2:A10,B2:B10,2,1)", ttest, "0.196016"),
        ("TRIMMEAN(A2:A12,0.2)", column([4, 5, 6, 7, 2, 3, 4, 5, 1, 2, 3]), "3.777778"),
        ("WEIBULL(105,20,100,TRUE)", [:], "0.929581"), ("WEIBULL(105,20,100,FALSE)", [:], "0.035589"),
        ("WEIBULL.DIST(105,20,100,TRUE)", [:], "0.929581"), ("WEIBULL.DIST(105,20,100,FALSE)", [:], "0.035589"),
        ("Z.TEST(A2:A11,4)", ztest, "0.090574"), ("2*MIN(Z.TEST(A2:A11,4),1-Z.TEST(A2:A11,4))", ztest, "0.181148"),
        ("Z.TEST(A2:A11,6)", ztest, "0.863043"), ("2*MIN(Z.TEST(A2:A11,6),1-Z.TEST(A2:A11,6))", ztest, "0.273913"),
        ("ZTEST(A2:A11,4)", ztest, "0.090574"),
        ("RANK(A3,A2:A6,1)", rankData, "3"), ("RANK(A2,A2:A6,1)", rankData, "5"),
        ("RANK.EQ(A2,A2:A6,1)", rankData, "5"), ("RANK.EQ(A6,A2:A6)", rankData, "4"), ("RANK.EQ(A3,A2:A6,1)", rankData, "3"),
        ("RANK.AVG(94,A2:A8)", column([89, 88, 92, 101, 94, 97, 95]), "4"),
        ("MODE(A2:A7)", column([5.6, 4, 4, 3, 2, 4]), "4"), ("MODE.SNGL(A2:A7)", column([5.6, 4, 4, 3, 2, 4]), "4"),
        ("PERCENTILE({1,3,2,4},0.3)", [:], "1.9"), ("PERCENTILE.INC({1,3,2,4},0.3)", [:], "1.9"),
        ("PERCENTILE.EXC(A2:A10,0.25)", exclusive, "2.5"), ("PERCENTILE.EXC(A2:A10,0)", exclusive, "#NUM!"),
        ("PERCENTILE.EXC(A2:A10,0.01)", exclusive, "#NUM!"), ("PERCENTILE.EXC(A2:A10,2)", exclusive, "#NUM!"),
        ("QUARTILE(A2:A9,1)", column([1, 2, 4, 7, 8, 9, 10, 12]), "3.5"), ("QUARTILE.INC(A2:A9,1)", column([1, 2, 4, 7, 8, 9, 10, 12]), "3.5"),
        // Array results, read with INDEX (the articles show them spilled).
        ("INDEX(MODE.MULT(A2:A13),1)", column([1, 2, 3, 4, 3, 2, 1, 2, 3, 5, 6, 1]), "1"),
        ("INDEX(MODE.MULT(A2:A13),3)", column([1, 2, 3, 4, 3, 2, 1, 2, 3, 5, 6, 1]), "3"),
        ("ROWS(MODE.MULT(A2:A13))", column([1, 2, 3, 4, 3, 2, 1, 2, 3, 5, 6, 1]), "3"),
        ("INDEX(FREQUENCY(A2:A10,B2:B4),1)", merged(column([79, 85, 78, 85, 50, 81, 95, 88, 97]), column([70, 79, 89], "B")), "1"),
        ("INDEX(FREQUENCY(A2:A10,B2:B4),2)", merged(column([79, 85, 78, 85, 50, 81, 95, 88, 97]), column([70, 79, 89], "B")), "2"),
        ("INDEX(FREQUENCY(A2:A10,B2:B4),3)", merged(column([79, 85, 78, 85, 50, 81, 95, 88, 97]), column([70, 79, 89], "B")), "4"),
        ("INDEX(FREQUENCY(A2:A10,B2:B4),4)", merged(column([79, 85, 78, 85, 50, 81, 95, 88, 97]), column([70, 79, 89], "B")), "2"),
        ("INDEX(LINEST({1,9,5,7},{0,4,2,3}),1)", [:], "2"), ("INDEX(LINEST({1,9,5,7},{0,4,2,3}),2)", [:], "1"),
        ("SUM(LINEST(B2:B7,A2:A7)*{9,1})", merged(column(Array(1...6)), column([3100, 4500, 4400, 5400, 7500, 8100], "B")), "11000"),
        ("INDEX(LOGEST(B2:B7,A2:A7),1)", growth, "1.463275628"), ("INDEX(LOGEST(B2:B7,A2:A7),2)", growth, "495.3047702"),
        ("INDEX(GROWTH(B2:B7,A2:A7),1)", growth, "32618.20377"), ("INDEX(GROWTH(B2:B7,A2:A7),6)", growth, "218821.8762"),
        ("INDEX(GROWTH(B2:B7,A2:A7,A9:A10),1)", growth, "320196.7184"), ("INDEX(GROWTH(B2:B7,A2:A7,A9:A10),2)", growth, "468536.0542"),
        ("INDEX(TREND(B2:B13,A2:A13),1)", trend, "133953.3333"), ("INDEX(TREND(B2:B13,A2:A13),12)", trend, "145153.3333"),
        ("INDEX(TREND(B2:B13,A2:A13,C2:C6),1)", trend, "146171.5152"), ("INDEX(TREND(B2:B13,A2:A13,C2:C6),5)", trend, "150244.2424"),
    ]

    @Test func microsoftExamples() {
        for (formula, cells, shown) in Self.examples {
            let v = eval(formula, cells)
            #expect(Self.shows(v, shown), "\(formula) = \(v), the article shows \(shown)")
        }
    }

    nonisolated(unsafe) static let hostileCells: [String: Any] = [
        "A1": CalcValue.error(.divisionByZero), "A2": "abc", "A3": true, "A4": "42", "A5": 1e300, "A6": -1,
        "B1": 1, "B2": 2, "B3": 3, "B4": "x", "B5": true, "C1": 2, "C2": 4, "C3": 6,
    ]

    /// Excel's errors for arguments out of their domain, of the wrong type, or errors themselves
    /// (the articles' Remarks), and no trap on huge values.
    static let hostile: [(String, CalcValue)] = [
        // Domain: #NUM!
        ("NORM.DIST(42,40,0,TRUE)", .error(.number)), ("NORM.INV(0,0,1)", .error(.number)), ("NORM.INV(1,0,1)", .error(.number)),
        ("NORM.S.INV(-0.1)", .error(.number)), ("LOGNORM.DIST(0,0,1,TRUE)", .error(.number)), ("LOGNORM.INV(0.5,0,-1)", .error(.number)),
        ("EXPON.DIST(-1,1,TRUE)", .error(.number)), ("EXPON.DIST(1,0,TRUE)", .error(.number)), ("WEIBULL.DIST(1,0,1,TRUE)", .error(.number)),
        ("GAMMA.DIST(-1,1,1,TRUE)", .error(.number)), ("GAMMA.INV(-0.1,1,1)", .error(.number)), ("GAMMA.INV(0.5,0,1)", .error(.number)),
        ("GAMMALN(0)", .error(.number)), ("GAMMALN.PRECISE(-1)", .error(.number)), ("GAMMA(-1)", .error(.number)), ("GAMMA(172)", .error(.number)),
        ("BETA.DIST(2,8,10,TRUE,3,1)", .error(.number)), ("BETA.DIST(0.5,0,1,TRUE)", .error(.number)), ("BETA.DIST(1.5,2,3,TRUE)", .error(.number)),
        ("BETA.INV(0,2,3)", .error(.number)), ("BETA.INV(0.5,2,3,1,1)", .error(.number)),
        ("BINOM.DIST(11,10,0.5,TRUE)", .error(.number)), ("BINOM.DIST(5,10,1.5,TRUE)", .error(.number)),
        ("BINOM.DIST(1E+300,1E+300,0.5,TRUE)", .error(.number)), ("BINOM.INV(10,0.5,0)", .error(.number)),
        ("BINOM.DIST.RANGE(10,0.5,6,5)", .error(.number)), ("NEGBINOM.DIST(1,0,0.5,TRUE)", .error(.number)),
        ("POISSON.DIST(-1,5,TRUE)", .error(.number)), ("POISSON.DIST(2,-1,TRUE)", .error(.number)),
        ("HYPGEOM.DIST(5,4,8,20,TRUE)", .error(.number)), ("HYPGEOM.DIST(1,21,8,20,TRUE)", .error(.number)),
        ("T.DIST(1,0,TRUE)", .error(.number)), ("T.DIST.2T(-1,5)", .error(.number)), ("TDIST(1,5,3)", .error(.number)),
        ("T.INV(0,5)", .error(.number)), ("T.INV.2T(1.5,5)", .error(.number)),
        ("CHISQ.DIST(-1,2,TRUE)", .error(.number)), ("CHISQ.DIST(1,0,TRUE)", .error(.number)), ("CHISQ.DIST(1,1E+10,TRUE)", .error(.number)),
        ("CHISQ.INV(1.5,2)", .error(.number)), ("F.DIST(1,0,1,TRUE)", .error(.number)), ("F.INV.RT(0,2,3)", .error(.number)),
        ("FISHER(1)", .error(.number)), ("FISHER(-1)", .error(.number)), ("PERMUT(2,3)", .error(.number)),
        ("PERMUT(1E+300,2)", .error(.number)), ("PERMUTATIONA(-1,2)", .error(.number)), ("STANDARDIZE(1,0,0)", .error(.number)),
        ("CONFIDENCE.NORM(0,1,10)", .error(.number)), ("CONFIDENCE.NORM(0.05,1,0.5)", .error(.number)),
        ("GEOMEAN(1,0)", .error(.number)), ("HARMEAN(-1,2)", .error(.number)), ("AVEDEV(Z1:Z3)", .error(.number)),
        ("TRIMMEAN(B1:B3,1)", .error(.number)), ("TRIMMEAN(B1:B3,-0.1)", .error(.number)), ("QUARTILE.EXC(B1:B3,4)", .error(.number)),
        ("PERCENTRANK.INC(B1:B3,2,0)", .error(.number)), ("PROB(B1:B3,{0.2;0.3;0.4},1)", .error(.number)),
        ("GROWTH({1,-2,3})", .error(.number)), ("LOGEST({1,0,3})", .error(.number)), ("T.TEST(B1:B3,C1:C3,3,1)", .error(.number)),
        ("T.TEST(B1:B3,C1:C3,1,4)", .error(.number)),
        // Nothing to divide by: #DIV/0!
        ("CONFIDENCE.T(0.05,1,1)", .error(.divisionByZero)), ("KURT(1,2,3)", .error(.divisionByZero)), ("SKEW(1,1,1)", .error(.divisionByZero)),
        ("SLOPE({1,2,3},{1,1,1})", .error(.divisionByZero)), ("STEYX({1,2},{3,4})", .error(.divisionByZero)),
        ("CORREL({1,1,1},{1,2,3})", .error(.divisionByZero)), ("COVARIANCE.S({1},{2})", .error(.divisionByZero)),
        ("Z.TEST({1},1)", .error(.divisionByZero)), ("F.TEST({1,1},{1,2})", .error(.divisionByZero)),
        ("PROB(B4:B5,B4:B5,1)", .error(.divisionByZero)),
        // Shapes: #N/A, #REF!
        ("CORREL({1,2},{1,2,3})", .error(.notAvailable)), ("COVAR(B1:B3,C1:C2)", .error(.notAvailable)),
        ("CHISQ.TEST(B1:B3,C1:C2)", .error(.notAvailable)), ("PERCENTRANK.INC(B1:B3,100)", .error(.notAvailable)),
        ("MODE.MULT({1,2,3})", .error(.notAvailable)), ("TREND(B1:B3,C1:C2)", .error(.reference)),
        // Types and errors: #VALUE!, and an error argument wins
        ("NORM.DIST(\"x\",40,1.5,TRUE)", .error(.value)), ("NORM.DIST(42,40,1.5,\"x\")", .error(.value)),
        ("NORM.DIST(A1,40,1.5,TRUE)", .error(.divisionByZero)), ("NORM.DIST(A2,40,1.5,TRUE)", .error(.value)),
        ("AVEDEV(\"x\")", .error(.value)), ("LINEST(B1:B4)", .error(.value)), ("CORREL(A1:A2,B1:B2)", .error(.divisionByZero)),
        ("BINOM.DIST(1,A1,0.5,TRUE)", .error(.divisionByZero)), ("T.DIST(1,A2,TRUE)", .error(.value)),
        ("GAMMALN(A1)", .error(.divisionByZero)), ("FREQUENCY(A1:A2,B1:B2)", .error(.divisionByZero)),
        // Coercions: a text number and TRUE count in direct arguments; ranges skip text and booleans
        ("NORM.S.DIST(A4-42,TRUE)", .number(0.5)), ("BINOM.DIST(A3,2,0.5,FALSE)", .number(0.5)),
        ("AVEDEV(B1:B5)", .number(2.0 / 3)), ("STDEVA(B1:B5)", .number(1.140175425099138)),
        ("DEVSQ(B1:B5,\"3\")", .number(2.75)), ("GEOMEAN(2,\"8\")", .number(4)),
        // Huge values compute or fail, never trap
        ("NORM.S.DIST(1E+300,TRUE)", .number(1)), ("NORM.S.DIST(-1E+300,TRUE)", .number(0)), ("PHI(1E+300)", .number(0)),
        ("T.DIST(1E+300,5,TRUE)", .number(1)), ("EXPON.DIST(1E+300,1,TRUE)", .number(1)), ("POISSON.DIST(0,1E+300,TRUE)", .number(0)),
        ("CHISQ.DIST.RT(1E+300,3)", .number(0)), ("F.DIST.RT(1E+300,2,3)", .number(0)), ("GAMMA.DIST(A5,2,1,TRUE)", .number(1)),
        ("BINOM.INV(1E+15,0.5,0.5)", .number(5e14)),
        // Arrays: a scalar function applies element by element
        ("INDEX(NORM.S.DIST({0,1},TRUE),2)", .number(0.841344746068543)), ("ROWS(FREQUENCY(B1:B3,{2}))", .number(2)),
    ]

    @Test func hostileArguments() {
        for (formula, expected) in Self.hostile {
            let v = eval(formula, Self.hostileCells)
            switch expected {
            case .number(let x): #expect(close(v, x), "\(formula) = \(v), expected \(expected)")
            default: #expect(v == expected, "\(formula) = \(v), expected \(expected)")
            }
        }
    }

    /// FORECAST.ETS and its companions. Microsoft's articles give no example table: a linear
    /// series and a linear series with a season of 4 must be forecast exactly (the smoothing has
    /// nothing to correct), and the errors are the articles' Remarks.
    @Test func exponentialSmoothing() {
        var linear: [String: Any] = [:], seasonal: [String: Any] = [:]
        let offsets = [0.0, 5, -5, 0]
        for k in 1...24 {
            linear["A\(k)"] = k; linear["B\(k)"] = 3 + 2 * Double(k)
            seasonal["A\(k)"] = k; seasonal["B\(k)"] = 10 + Double(k) + offsets[k % 4]
        }
        let cases: [(String, [String: Any], CalcValue)] = [
            ("FORECAST.ETS(25,B1:B24,A1:A24)", linear, .number(53)), ("FORECAST.ETS(30.5,B1:B24,A1:A24)", linear, .number(64)),
            ("FORECAST.ETS.SEASONALITY(B1:B24,A1:A24)", linear, .number(0)),
            ("FORECAST.ETS.SEASONALITY(B1:B24,A1:A24)", seasonal, .number(4)),
            ("FORECAST.ETS(25,B1:B24,A1:A24)", seasonal, .number(35 + 5)), ("FORECAST.ETS(27,B1:B24,A1:A24)", seasonal, .number(37)), ("FORECAST.ETS(26,B1:B24,A1:A24)", seasonal, .number(36 - 5)),
            ("FORECAST.ETS(28,B1:B24,A1:A24,4)", seasonal, .number(38)), ("FORECAST.ETS.STAT(B1:B24,A1:A24,8)", seasonal, .number(1)),
            ("FORECAST.ETS.STAT(B1:B24,A1:A24,7)", linear, .number(0)),
            ("FORECAST.ETS.CONFINT(25,B1:B24,A1:A24)", linear, .number(0)),
            ("INDEX(FORECAST.ETS({25;26},B1:B24,A1:A24),2)", linear, .number(55)),
            // Remarks: a timeline without a constant step is #NUM!, sizes that differ #N/A, a target
            // before the timeline #NUM!, seasonality beyond 8,760 or negative #NUM!, confidence outside (0, 1) #NUM!
            ("FORECAST.ETS(25,B1:B24,{1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16;17;18;19;20;21;22;23;25.3})", linear, .error(.number)),
            ("FORECAST.ETS(25,B1:B24,A1:A23)", linear, .error(.notAvailable)), ("FORECAST.ETS(0,B1:B24,A1:A24)", linear, .error(.number)),
            ("FORECAST.ETS(25,B1:B24,A1:A24,-1)", linear, .error(.number)), ("FORECAST.ETS(25,B1:B24,A1:A24,8761)", linear, .error(.number)),
            ("FORECAST.ETS.CONFINT(25,B1:B24,A1:A24,1)", linear, .error(.number)), ("FORECAST.ETS(25,B1:B24,A1:A24,13)", linear, .error(.number)),
            ("FORECAST.ETS(\"x\",B1:B24,A1:A24)", linear, .error(.value)), ("FORECAST.ETS.STAT(B1:B24,A1:A24,9)", linear, .error(.number)),
        ]
        for (formula, cells, expected) in cases {
            let v = eval(formula, cells)
            switch expected {
            case .number(let x): #expect(v.number.map { Swift.abs($0 - x) <= 1e-9 * Swift.max(1, Swift.abs(x)) } == true, "\(formula) = \(v), expected \(x)")
            default: #expect(v == expected, "\(formula) = \(v), expected \(expected)")
            }
        }
    }
}
