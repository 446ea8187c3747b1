
/// CONVERT's units: every unit of Microsoft's table, by quantity, with its size in the quantity's
/// base unit (gram, meter, second, pascal, newton, joule, watt, tesla, kelvin, cubic meter,
/// square meter, bit, meter per second) and whether it takes a metric prefix.
enum MeasurementUnits {
    enum Quantity: Sendable { case mass, distance, time, pressure, force, energy, power, magnetism, temperature, volume, area, information, speed }

    struct Unit: Sendable {
        let quantity: Quantity
        let size: Double
        let prefixed: Bool
        /// The power of the prefix: 2 for areas (km2 is 10^6 m2), 3 for volumes.
        let dimension: Int
    }

    static let inch = 0.0254
    static let lightYear = 9_460_730_472_580_800.0
    static let pica = 0.0254 / 72
    static let mile = 1609.344
    static let nauticalMile = 1852.0

    static let units: [String: Unit] = {
        var u: [String: Unit] = [:]
        func add(_ names: [String], _ q: Quantity, _ size: Double, prefixed: Bool = false, dimension: Int = 1) {
            for n in names { u[n] = Unit(quantity: q, size: size, prefixed: prefixed, dimension: dimension) }
        }
        // Weight and mass (gram).
        add(["g"], .mass, 1, prefixed: true)
        add(["sg"], .mass, 14_593.902_937_206_4)
        add(["lbm"], .mass, 453.592_37)
        add(["u"], .mass, 1.660_538_782e-24, prefixed: true)
        add(["ozm"], .mass, 28.349_523_125)
        add(["grain"], .mass, 0.064_798_91)
        add(["cwt", "shweight"], .mass, 45_359.237)
        add(["uk_cwt", "lcwt", "hweight"], .mass, 50_802.345_44)
        add(["stone"], .mass, 6_350.293_18)
        add(["ton"], .mass, 907_184.74)
        add(["uk_ton", "LTON", "brton"], .mass, 1_016_046.908_8)
        // Distance (meter).
        add(["m"], .distance, 1, prefixed: true)
        add(["mi"], .distance, mile)
        add(["Nmi"], .distance, nauticalMile)
        add(["in"], .distance, inch)
        add(["ft"], .distance, 0.3048)
        add(["yd"], .distance, 0.9144)
        add(["ang"], .distance, 1e-10, prefixed: true)
        add(["ell"], .distance, 1.143)
        add(["ly"], .distance, lightYear, prefixed: true)
        add(["parsec", "pc"], .distance, 30_856_775_812_815_500, prefixed: true)
        add(["Picapt", "Pica"], .distance, pica)
        add(["pica"], .distance, inch / 6)
        add(["survey_mi"], .distance, 5_280 * 1_200 / 3_937.0)
        // Time (second).
        add(["yr"], .time, 31_557_600)
        add(["day", "d"], .time, 86_400)
        add(["hr"], .time, 3_600)
        add(["mn", "min"], .time, 60)
        add(["sec", "s"], .time, 1, prefixed: true)
        // Pressure (pascal).
        add(["Pa", "p"], .pressure, 1, prefixed: true)
        add(["atm", "at"], .pressure, 101_325, prefixed: true)
        add(["mmHg"], .pressure, 133.322, prefixed: true)
        add(["psi"], .pressure, 6_894.757_293_168_36)
        add(["Torr"], .pressure, 101_325.0 / 760)
        // Force (newton).
        add(["N"], .force, 1, prefixed: true)
        add(["dyn", "dy"], .force, 1e-5, prefixed: true)
        add(["lbf"], .force, 4.448_221_615_260_5)
        add(["pond"], .force, 0.009_806_65, prefixed: true)
        // Energy (joule).
        add(["J"], .energy, 1, prefixed: true)
        add(["e"], .energy, 1e-7, prefixed: true)
        add(["c"], .energy, 4.184, prefixed: true)
        add(["cal"], .energy, 4.1868, prefixed: true)
        add(["eV", "ev"], .energy, 1.602_176_487e-19, prefixed: true)
        add(["HPh", "hh"], .energy, 2_684_519.537_696_17)
        add(["Wh", "wh"], .energy, 3_600, prefixed: true)
        add(["flb"], .energy, 1.355_817_948_331_4)
        add(["BTU", "btu"], .energy, 1_055.055_852_62)
        // Power (watt).
        add(["HP", "h"], .power, 745.699_871_582_27)
        add(["PS"], .power, 735.498_75)
        add(["W", "w"], .power, 1, prefixed: true)
        // Magnetism (tesla).
        add(["T"], .magnetism, 1, prefixed: true)
        add(["ga"], .magnetism, 1e-4, prefixed: true)
        // Temperature (kelvin; the offsets are applied apart).
        add(["C", "cel"], .temperature, 1)
        add(["F", "fah"], .temperature, 5.0 / 9)
        add(["K", "kel"], .temperature, 1, prefixed: true)
        add(["Rank"], .temperature, 5.0 / 9)
        add(["Reau"], .temperature, 1.25)
        // Volume (cubic meter).
        add(["tsp"], .volume, 4.928_921_593_75e-6)
        add(["tspm"], .volume, 5e-6)
        add(["tbs"], .volume, 1.478_676_478_125e-5)
        add(["oz"], .volume, 2.957_352_956_25e-5)
        add(["cup"], .volume, 2.365_882_365e-4)
        add(["pt", "us_pt"], .volume, 4.731_764_73e-4)
        add(["uk_pt"], .volume, 5.682_612_5e-4, prefixed: true)
        add(["qt"], .volume, 9.463_529_46e-4)
        add(["uk_qt"], .volume, 1.136_522_5e-3)
        add(["gal"], .volume, 3.785_411_784e-3)
        add(["uk_gal"], .volume, 4.546_09e-3)
        add(["l", "L", "lt"], .volume, 1e-3, prefixed: true)
        add(["ang3", "ang^3"], .volume, 1e-30, prefixed: true, dimension: 3)
        add(["barrel"], .volume, 0.158_987_294_928)
        add(["bushel"], .volume, 0.035_239_070_166_88)
        add(["ft3", "ft^3"], .volume, 0.3048 * 0.3048 * 0.3048)
        add(["in3", "in^3"], .volume, inch * inch * inch)
        add(["ly3", "ly^3"], .volume, lightYear * lightYear * lightYear)
        add(["m3", "m^3"], .volume, 1, prefixed: true, dimension: 3)
        add(["mi3", "mi^3"], .volume, mile * mile * mile)
        add(["yd3", "yd^3"], .volume, 0.9144 * 0.9144 * 0.9144)
        add(["Nmi3", "Nmi^3"], .volume, nauticalMile * nauticalMile * nauticalMile)
        add(["Picapt3", "Picapt^3", "Pica3", "Pica^3"], .volume, pica * pica * pica)
        add(["GRT", "regton"], .volume, 2.831_684_659_2)
        add(["MTON"], .volume, 1.132_673_863_68)
        // Area (square meter).
        add(["uk_acre"], .area, 4_046.856_422_4)
        add(["us_acre"], .area, 4_046.872_609_874_25)
        add(["ang2", "ang^2"], .area, 1e-20, prefixed: true, dimension: 2)
        add(["ar"], .area, 100, prefixed: true)
        add(["ft2", "ft^2"], .area, 0.3048 * 0.3048)
        add(["ha"], .area, 10_000)
        add(["in2", "in^2"], .area, inch * inch)
        add(["ly2", "ly^2"], .area, lightYear * lightYear)
        add(["m2", "m^2"], .area, 1, prefixed: true, dimension: 2)
        add(["Morgen"], .area, 2_500)
        add(["mi2", "mi^2"], .area, mile * mile)
        add(["Nmi2", "Nmi^2"], .area, nauticalMile * nauticalMile)
        add(["Picapt2", "Pica2", "Pica^2", "Picapt^2"], .area, pica * pica)
        add(["yd2", "yd^2"], .area, 0.9144 * 0.9144)
        // Information (bit).
        add(["bit"], .information, 1, prefixed: true)
        add(["byte"], .information, 8, prefixed: true)
        // Speed (meter per second).
        add(["admkn"], .speed, 1_853.184 / 3_600)
        add(["kn"], .speed, 1_852.0 / 3_600)
        add(["m/h", "m/hr"], .speed, 1.0 / 3_600, prefixed: true)
        add(["m/s", "m/sec"], .speed, 1, prefixed: true)
        add(["mph"], .speed, 0.447_04, prefixed: true)
        return u
    }()

    static let prefixes: [String: Double] = [
        "Y": 1e24, "Z": 1e21, "E": 1e18, "P": 1e15, "T": 1e12, "G": 1e9, "M": 1e6, "k": 1e3, "h": 1e2, "da": 1e1, "e": 1e1,
        "d": 1e-1, "c": 1e-2, "m": 1e-3, "u": 1e-6, "n": 1e-9, "p": 1e-12, "f": 1e-15, "a": 1e-18, "z": 1e-21, "y": 1e-24,
    ]
    /// The binary prefixes, for bits and bytes only.
    static let binaryPrefixes: [String: Double] = [
        "Yi": 0x1p80, "Zi": 0x1p70, "Ei": 0x1p60, "Pi": 0x1p50, "Ti": 0x1p40, "Gi": 0x1p30, "Mi": 0x1p20, "ki": 0x1p10,
    ]

    /// The readings of a unit name as CONVERT reads it (case-sensitive): the unit of that name first,
    /// then a prefix and a unit that takes one. Excel takes the first reading whose quantity the other
    /// unit shares: "pc" is a parsec, but a picocalorie to convert to joules
    /// (`CONVERT(1,"pc","J")` is 4.184E-12: calc-suite formulas__test EXTRA!AN59).
    static func readings(_ name: String) -> [(Unit, scale: Double)] {
        var found: [(Unit, scale: Double)] = []
        if let u = units[name] { found.append((u, 1)) }
        for length in [1, 2] where name.count > length {
            let p = String(name.prefix(length)), rest = String(name.dropFirst(length))
            guard let u = units[rest], u.prefixed else { continue }
            if let f = prefixes[p] { found.append((u, cPow(f, Double(u.dimension)))) }
            if u.quantity == .information, let f = binaryPrefixes[p] { found.append((u, f)) }
        }
        return found
    }

    /// Kelvin from a temperature unit's value, and back.
    static func kelvin(_ x: Double, _ name: String) -> Double {
        switch name {
        case "C", "cel": return x + 273.15
        case "F", "fah": return (x - 32) * 5 / 9 + 273.15
        case "Rank": return x * 5 / 9
        case "Reau": return x * 1.25 + 273.15
        default: return x
        }
    }

    static func fromKelvin(_ k: Double, _ name: String) -> Double {
        switch name {
        case "C", "cel": return k - 273.15
        case "F", "fah": return (k - 273.15) * 9 / 5 + 32
        case "Rank": return k * 9 / 5
        case "Reau": return (k - 273.15) * 0.8
        default: return k
        }
    }

    /// The base name of a temperature unit (without its prefix).
    static func temperatureName(_ name: String) -> String {
        units[name] != nil ? name : (name.hasSuffix("kel") ? "kel" : "K")
    }
}

extension Functions {
    static let convert: [FunctionSpec] = [
        // CONVERT(number, from_unit, to_unit): #N/A for an unknown unit or units of different
        // quantities; a boolean number is #VALUE!.
        scalar("CONVERT", 3, 3) { ev, a in
            let x = try analysisNumber(ev, a[0])
            let fromName = try ev.str(a[1]), toName = try ev.str(a[2])
            let tos = MeasurementUnits.readings(toName)
            let pairs = MeasurementUnits.readings(fromName).lazy.compactMap { from in tos.first { $0.0.quantity == from.0.quantity }.map { (from, $0) } }
            guard let ((from, fromScale), (to, toScale)) = pairs.first else { return .value(.error(.notAvailable)) }
            if from.quantity == .temperature {
                let k = MeasurementUnits.kelvin(x * fromScale, MeasurementUnits.temperatureName(fromName))
                return number(MeasurementUnits.fromKelvin(k, MeasurementUnits.temperatureName(toName)) / toScale)
            }
            return number(x * (from.size * fromScale) / (to.size * toScale))
        },
    ]

    static let engineering: [FunctionSpec] = baseConversion + bits + besselFunctions + complexNumbers + convert
}
