
/// Full-width and half-width forms: ASC turns full-width ASCII (U+FF01-U+FF5E, the ideographic
/// space U+3000) and full-width katakana into their half-width forms; DBCS (JIS) the other way.
enum CharacterWidth {
    /// Half-width katakana U+FF61-U+FF9F and the full-width characters they stand for.
    static let katakana: [(half: UInt32, full: UInt32)] = {
        let full: [UInt32] = [0x3002, 0x300C, 0x300D, 0x3001, 0x30FB, 0x30F2, 0x30A1, 0x30A3, 0x30A5, 0x30A7, 0x30A9, 0x30E3,
                              0x30E5, 0x30E7, 0x30C3, 0x30FC, 0x30A2, 0x30A4, 0x30A6, 0x30A8, 0x30AA, 0x30AB, 0x30AD, 0x30AF,
                              0x30B1, 0x30B3, 0x30B5, 0x30B7, 0x30B9, 0x30BB, 0x30BD, 0x30BF, 0x30C1, 0x30C4, 0x30C6, 0x30C8,
                              0x30CA, 0x30CB, 0x30CC, 0x30CD, 0x30CE, 0x30CF, 0x30D2, 0x30D5, 0x30D8, 0x30DB, 0x30DE, 0x30DF,
                              0x30E0, 0x30E1, 0x30E2, 0x30E4, 0x30E6, 0x30E8, 0x30E9, 0x30EA, 0x30EB, 0x30EC, 0x30ED, 0x30EF,
                              0x30F3, 0x309B, 0x309C]
        return full.enumerated().map { (UInt32(0xFF61 + $0.offset), $0.element) }
    }()

    static func half(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            let v = u.value
            if v >= 0xFF01 && v <= 0xFF5E {
                out.append(Unicode.Scalar(v - 0xFEE0)!)
            } else if v == 0x3000 {
                out.append(" ")
            } else if let k = katakana.first(where: { $0.full == v }) {
                out.append(Unicode.Scalar(k.half)!)
            } else {
                out.append(u)
            }
        }
        return String(out)
    }

    static func full(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            let v = u.value
            if v >= 0x21 && v <= 0x7E {
                out.append(Unicode.Scalar(v + 0xFEE0)!)
            } else if v == 0x20 {
                out.append(Unicode.Scalar(0x3000)!)
            } else if let k = katakana.first(where: { $0.half == v }) {
                out.append(Unicode.Scalar(k.full)!)
            } else {
                out.append(u)
            }
        }
        return String(out)
    }
}

extension Functions {
    /// A copy of a registered function under another name (the byte forms: in a language without
    /// double-byte characters, LEFTB counts as LEFT does, per Microsoft's reference).
    static func alias(_ name: String, of original: String, in table: [FunctionSpec]) -> FunctionSpec {
        let s = table.first { $0.name == original }!
        return FunctionSpec(name: name, minArgs: s.minArgs, maxArgs: s.maxArgs, isVolatile: s.isVolatile,
                            arrayArguments: s.arrayArguments, lifts: s.lifts, rawMask: s.rawMask, impl: s.impl)
    }

    static let doubleByte: [FunctionSpec] = [
        alias("LEFTB", of: "LEFT", in: text), alias("RIGHTB", of: "RIGHT", in: text), alias("MIDB", of: "MID", in: text),
        alias("LENB", of: "LEN", in: text), alias("FINDB", of: "FIND", in: text), alias("SEARCHB", of: "SEARCH", in: text),
        alias("REPLACEB", of: "REPLACE", in: text),
        scalar("ASC", 1, 1) { ev, a in .value(.text(CharacterWidth.half(try ev.str(a[0])))) },
        scalar("DBCS", 1, 1) { ev, a in .value(.text(CharacterWidth.full(try ev.str(a[0])))) },
        scalar("JIS", 1, 1) { ev, a in .value(.text(CharacterWidth.full(try ev.str(a[0])))) },
        // PHONETIC(reference): the furigana of the reference's first cell; a workbook keeps none
        // here, so a text cell gives its text, any other value "".
        raw("PHONETIC", 1, 1) { ev, a in
            let v: CalcValue
            switch a[0] {
            case .ref(let r): v = try ev.cellValue(r.sheet, r.r1, r.c1)
            case .refs(let rs): guard let r = rs.first else { return .value(.error(.value)) }; v = try ev.cellValue(r.sheet, r.r1, r.c1)
            default: v = try ev.scalar(a[0])
            }
            switch v {
            case .text(let t): return .value(.text(t))
            case .error(let e): return .value(.error(e))
            default: return .value(.text(""))
            }
        },
    ]
}
