
/// BAHTTEXT: a number as Thai words, in baht and satang (hundredths), as Thai cheques write it.
enum ThaiNumber {
    static let digits = ["ศูนย์", "หนึ่ง", "สอง", "สาม", "สี่", "ห้า", "หก", "เจ็ด", "แปด", "เก้า"]
    static let ten = "สิบ", twenty = "ยี่", hundred = "ร้อย", thousand = "พัน", tenThousand = "หมื่น"
    static let hundredThousand = "แสน", million = "ล้าน", oneAfterTens = "เอ็ด"
    static let baht = "บาท", satang = "สตางค์", exact = "ถ้วน", minus = "ลบ"

    /// Words of 1...999,999.
    static func block(_ n0: Int) -> String {
        var n = n0
        var s = ""
        for (unit, word) in [(100_000, hundredThousand), (10_000, tenThousand), (1_000, thousand), (100, hundred)] where n >= unit {
            s += digits[n / unit] + word
            n %= unit
        }
        if n >= 10 {
            let t = n / 10
            s += (t == 2 ? twenty : t == 1 ? "" : digits[t]) + ten
            n %= 10
        }
        if n == 1 && n0 > 1 { s += oneAfterTens } else if n > 0 { s += digits[n] }
        return s
    }

    /// Words of a whole number, blocks of six digits joined by "million".
    static func words(_ n: Double) -> String {
        var x = n
        var s = ""
        while x > 0 {
            let low = Int(x.truncatingRemainder(dividingBy: 1_000_000))
            x = ((x - Double(low)) / 1_000_000).rounded(.towardZero)
            var part = low > 0 ? block(low) : ""
            if x > 0 { part = million + part }
            s = part + s
        }
        return s
    }

    static func text(_ value: Double) -> String {
        let cents = (Swift.abs(value) * 100).rounded(.toNearestOrAwayFromZero)
        let whole = (cents / 100).rounded(.towardZero), fraction = Int(cents - whole * 100)
        var s = whole == 0 ? (fraction == 0 ? digits[0] : "") : words(whole)
        if !s.isEmpty { s += baht }
        s += fraction == 0 ? exact : block(fraction) + satang
        return value < 0 && cents > 0 ? minus + s : s
    }
}

extension Functions {
    static let bahtText: [FunctionSpec] = [
        scalar("BAHTTEXT", 1, 1) { ev, a in
            let x = try ev.num(a[0])
            guard Swift.abs(x) < 1e15 else { return .value(.error(.number)) }
            return .value(.text(ThaiNumber.text(x)))
        },
    ]

    static let textFamily: [FunctionSpec] = textSplitting + regularExpressions + valueTexts + doubleByte + bahtText
}
