#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The single-byte character set CHAR and CODE use. Microsoft's CHAR reference: Windows uses the
/// ANSI character set (Windows-1252 in the Western locales), the Macintosh the Macintosh
/// character set; so the same workbook computes `CHAR(128)` as "€" in Excel for Windows and "Ä" in
/// Excel for Mac.
public enum CodePage: Sendable, Equatable {
    /// Windows-1252, Excel for Windows in Western locales.
    case windowsANSI
    /// Mac OS Roman, Excel for Mac.
    case macintosh

    /// The code page of the application that saved a workbook, from its extended properties'
    /// `<Application>` (`Microsoft Macintosh Excel`); Windows for any other or none.
    public init(application: String?) {
        self = application?.contains("Macintosh") == true ? .macintosh : .windowsANSI
    }

    /// The character of byte `n` (1-255).
    func scalar(_ n: Int) -> UInt32 {
        let table = self == .windowsANSI ? Self.windows : Self.mac
        return table.scalars[n & 0xFF]
    }

    /// The byte of a character, 63 (`?`) when the code page has none, as Excel answers.
    func code(_ scalar: UInt32) -> Int {
        let table = self == .windowsANSI ? Self.windows : Self.mac
        return table.codes[scalar] ?? 63
    }

    private struct Table {
        var scalars: [UInt32]
        var codes: [UInt32: Int]
    }

    private static let windows = table("CP1252")
    /// glibc's MACINTOSH is the older mapping; Apple's current one, which Excel for Mac uses, reads
    /// 0xC6 as the increment sign and 0xF0 as the Apple logo (calc-suite formulas__test CORE!B229, B271).
    private static let mac = table("MACINTOSH", overriding: [0xC6: 0x2206, 0xF0: 0xF8FF])

    /// The 256 characters of a code page, converted by iconv. A byte the code page leaves
    /// undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D of Windows-1252) stands for the same code point,
    /// as it does in Excel.
    private static func table(_ name: String, overriding: [Int: UInt32] = [:]) -> Table {
        var scalars = (0..<256).map { UInt32($0) }
        let converter = iconv_open("UTF-32LE", name)
        if converter != iconv_t(bitPattern: -1) {
            defer { iconv_close(converter) }
            for byte in 128..<256 {
                var input: [CChar] = [CChar(bitPattern: UInt8(byte))]
                var output = [UInt8](repeating: 0, count: 8)
                let converted = input.withUnsafeMutableBufferPointer { inBuffer in
                    output.withUnsafeMutableBufferPointer { outBuffer in
                        var inPointer: UnsafeMutablePointer<CChar>? = inBuffer.baseAddress
                        var outPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(outBuffer.baseAddress!).assumingMemoryBound(to: CChar.self)
                        var inLeft = 1, outLeft = 8
                        return iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft) != -1 && outLeft == 4
                    }
                }
                _ = iconv(converter, nil, nil, nil, nil) // back to the initial state after a failure
                if converted {
                    scalars[byte] = UInt32(output[0]) | UInt32(output[1]) << 8 | UInt32(output[2]) << 16 | UInt32(output[3]) << 24
                }
            }
        }
        for (byte, scalar) in overriding { scalars[byte] = scalar }
        var codes: [UInt32: Int] = [:]
        for (byte, scalar) in scalars.enumerated() where codes[scalar] == nil { codes[scalar] = byte }
        return Table(scalars: scalars, codes: codes)
    }
}
