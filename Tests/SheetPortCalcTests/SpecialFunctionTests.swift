import Testing
@testable import SheetPortCalc

/// The special functions against values computed with mpmath at 50 digits (rounded to the
/// nearest double): log-gamma, the normal distribution both ways, the regularized incomplete
/// gamma and beta functions (both tails), and their inverses, which must give the point back.
@Suite struct SpecialFunctionTests {
    /// Within `ulps` units of the last place of the expected value (0 is exact).
    static func near(_ x: Double, _ expected: Double, ulps: Double = 8) -> Bool {
        if x == expected { return true }
        return Swift.abs(x - expected) <= ulps * expected.ulp
    }

    @Test func logGamma() {
        let table: [(Double, Double)] = [
            (0.5, 0.5723649429247001), (1e-08, 18.42068073818021), (3.7, 1.428072326665388),
            (10.25, 13.368023671476045), (171.5, 709.1431630309282), (100000.0, 1051287.7089736569),
            (25000000.0, 400859651.9725572),
        ]
        for (x, expected) in table { #expect(Self.near(SpecialFunctions.logGamma(x), expected, ulps: 4), "lnΓ(\(x))") }
        // The Stirling error, from its table, lgamma, and its asymptotic series.
        let stirling: [(Double, Double)] = [
            (0.5, 0.15342640972002736), (2.0, 0.0413406959554093), (7.25, 0.011487002684428697), (15.5, 0.005375599032926835),
            (40.0, 0.0020832899383024218), (100.0, 0.0008333305556349147), (1000.0, 8.333333055555635e-05), (1e7, 8.33333333333333e-09),
        ]
        // (It enters exponents: what counts is its absolute error.)
        for (n, expected) in stirling { #expect(Swift.abs(SpecialFunctions.stirlingError(n) - expected) < 4e-15, "stirlingError(\(n))") }
        for (a, expected) in [(0.001, -0.0005763935982833696), (-0.15, 0.10659511647811763), (1e-9, -5.772156640790658e-10), (0.5, -0.12078223763524522)] {
            #expect(Self.near(SpecialFunctions.logGamma1p(a), expected, ulps: 4), "ln Γ(1 + \(a))")
        }
        for (a, b, expected) in [(0.5, 5e5, -5.988816495777464), (30.0, 30.0, -42.01975092711347), (2.5, 12.0, -6.07577512534228)] {
            #expect(Self.near(SpecialFunctions.logBeta(a, b), expected, ulps: 16), "ln B(\(a), \(b))")
        }
    }

    @Test func normalDistribution() {
        let table: [(Double, Double, Double)] = [
            (-12.0, 1.776482112077679e-33, 1.0), (-5.3, 5.790134039964594e-08, 0.9999999420986596),
            (-1.96, 0.024997895148220435, 0.9750021048517795), (-0.3, 0.3820885778110474, 0.6179114221889527),
            (0.0, 0.5, 0.5), (0.7, 0.758036347776927, 0.24196365222307303), (2.5, 0.9937903346742238, 0.006209665325776135),
            (8.25, 0.9999999999999999, 7.919726314642477e-17), (20.0, 1.0, 2.7536241186062337e-89),
        ]
        for (x, lower, upper) in table {
            let t = SpecialFunctions.normalTail(x)
            #expect(Self.near(t.lower, lower), "Φ(\(x)) = \(t.lower)")
            #expect(Self.near(t.upper, upper), "1 − Φ(\(x)) = \(t.upper)")
        }
        #expect(SpecialFunctions.normalTail(-38.5).lower < 1e-320)
        #expect(Self.near(SpecialFunctions.normalDensity(1), 0.24197072451914334))
        #expect(Self.near(SpecialFunctions.normalDensity(-30), 1.4736461348785476e-196))
        let quantiles: [(Double, Double)] = [
            (1e-300, -37.0470962993612), (1e-20, -9.262340089798407), (1e-05, -4.264890793922825),
            (0.025, -1.9599639845400543), (0.3, -0.5244005127080408), (0.5, 0.0), (0.6, 0.2533471031357997),
            (0.975, 1.9599639845400538), (0.999999, 4.753424308817087),
        ]
        for (p, x) in quantiles {
            #expect(Self.near(SpecialFunctions.normalQuantile(lower: p, upper: 1 - p), x), "Φ⁻¹(\(p))")
        }
        #expect(SpecialFunctions.normalQuantile(lower: 0, upper: 1) == -.infinity)
        #expect(SpecialFunctions.normalQuantile(lower: 1, upper: 0) == .infinity)
    }

    @Test func incompleteGamma() {
        let table: [(Double, Double, Double, Double)] = [
            (0.5, 0.1, 0.345279153981423, 0.654720846018577), (0.5, 3.0, 0.9856941215645704, 0.01430587843542964),
            (3.0, 2.5, 0.45618688411667047, 0.5438131158833295), (3.0, 10.0, 0.9972306042844884, 0.002769395715511576),
            (10.0, 9.5, 0.4781739777627926, 0.5218260222372074), (100.0, 90.0, 0.15822098918643016, 0.8417790108135699),
            (100.0, 130.0, 0.9972495916326934, 0.002750408367306526), (10000.0, 10000.0, 0.5013298083399552, 0.4986701916600448),
            (1000000.0, 1001000.0, 0.8413447863683403, 0.15865521363165971), (2.5, 1e-05, 9.515260653112765e-14, 0.9999999999999049),
            (0.001, 0.5, 0.9994399333435292, 0.0005600666564707498), (50.0, 5.0, 2.1810592140784887e-32, 1.0),
        ]
        for (a, x, p, q) in table {
            let t = SpecialFunctions.regularizedGamma(a, x)
            #expect(Self.near(t.lower, p, ulps: 32), "P(\(a), \(x)) = \(t.lower)")
            #expect(Self.near(t.upper, q, ulps: 32), "Q(\(a), \(x)) = \(t.upper)")
            if p > 1e-300, q > 1e-300 {
                let back = SpecialFunctions.inverseRegularizedGamma(a, lower: p, upper: q)
                #expect(Swift.abs(back - x) <= 1e-12 * x, "P⁻¹(\(a), \(p)) = \(back), not \(x)")
            }
        }
        #expect(SpecialFunctions.regularizedGamma(2, 0) == Tail(lower: 0, upper: 1))
        #expect(SpecialFunctions.regularizedGamma(2, .infinity) == Tail(lower: 1, upper: 0))
    }

    @Test func incompleteBeta() {
        // x with 1 − x exact in binary, so that the reference and the call see the same pair.
        let table: [(Double, Double, Double, Double, Double)] = [
            (0.5, 0.5, 0.1875, 0.28509895859172535, 0.7149010414082747), (2.0, 3.0, 0.375, 0.481201171875, 0.518798828125),
            (8.0, 10.0, 0.5, 0.6854705810546875, 0.3145294189453125), (0.5, 500000.0, 9.5367431640625e-07, 0.6712142025602879, 0.3287857974397122),
            (500000.0, 0.5, 0.999999, 0.3173105078558956, 0.6826894921441045), (200.0, 300.0, 0.40625, 0.6143720699643223, 0.38562793003567775),
            (150.0, 300.0, 0.3330078125, 0.49859287896039356, 0.5014071210396064), (1.0, 1.0, 0.75, 0.75, 0.25),
            (3.0, 0.2, 0.99, 0.4762454291337723, 0.5237545708662277), (0.01, 7.0, 0.0009765625, 0.9560483063012385, 0.04395169369876153),
            (30.0, 30.0, 0.0078125, 2.8837241735181003e-47, 1.0),
        ]
        for (a, b, x, p, q) in table {
            let t = SpecialFunctions.regularizedBeta(a, b, x: x, y: 1 - x)
            #expect(Self.near(t.lower, p, ulps: 32), "I(\(a), \(b), \(x)) = \(t.lower)")
            #expect(Self.near(t.upper, q, ulps: 32), "1 − I(\(a), \(b), \(x)) = \(t.upper)")
            if p > 1e-300, q > 1e-300 {
                let back = SpecialFunctions.inverseRegularizedBeta(a, b, lower: p, upper: q)
                #expect(Swift.abs(back - x) <= 1e-12 * Swift.max(x, 1e-300) + 1e-15, "I⁻¹(\(a), \(b), \(p)) = \(back), not \(x)")
            }
        }
        #expect(SpecialFunctions.regularizedBeta(2, 3, x: 0, y: 1) == Tail(lower: 0, upper: 1))
        #expect(SpecialFunctions.regularizedBeta(2, 3, x: 1, y: 0) == Tail(lower: 1, upper: 0))
    }

    @Test func saddlePointTerms() {
        // C(20, 7) 0.3^7 0.7^13 and a Poisson probability far from the mean.
        #expect(Self.near(SpecialFunctions.binomialTerm(7, 20, 0.3, 0.7), 0.1642619852172363))
        #expect(Self.near(SpecialFunctions.poissonTerm(3, 2.5), 0.21376301724973645))
        #expect(Self.near(SpecialFunctions.poissonTerm(1000, 1100), 0.00011590731420657795, ulps: 64))
        #expect(SpecialFunctions.binomialTerm(-1, 5, 0.5, 0.5) == 0)
        #expect(SpecialFunctions.binomialTerm(0, 0, 0.5, 0.5) == 1)
    }
}

