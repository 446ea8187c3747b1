import Testing
@testable import SheetPortCalc
import SheetPortCore

/// The text functions added to the engine. `microsoftExamples` are the example tables of
/// Microsoft's function reference (support.microsoft.com, "<NAME> function" articles, e.g.
/// https://support.microsoft.com/en-us/office/textbefore-function-d099c28a-dba8-448e-ac6c-f086d0fa1b29):
/// each formula with the result the article shows. The regular-expression examples are Excel's
/// values in ../shared/calc-suite (IronCalc's calc_tests/TEXT__REGEX).
@Suite struct TextFamilyFunctionTests {
    static let hood = ["A2": "Little Red Riding Hood's red hood"]

    @Test func microsoftExamples() {
        let h = Self.hood
        #expect(eval("TEXTBEFORE(A2,\"Red\")", h) == .text("Little "))
        #expect(eval("TEXTBEFORE(A2,\"red\")", h) == .text("Little Red Riding Hood's "))
        #expect(eval("TEXTBEFORE(A2,\"red\",2,1)", h) == .text("Little Red Riding Hood's "))
        #expect(eval("TEXTBEFORE(A2,\"red\",-2,1)", h) == .text("Little "))
        #expect(eval("TEXTBEFORE(A2,\"red\",,1)", h) == .text("Little "))
        #expect(eval("TEXTAFTER(A2,\"Red\")", h) == .text(" Riding Hood's red hood"))
        #expect(eval("TEXTAFTER(A2,\"HOOD\",,1)", h) == .text("'s red hood"))
        #expect(eval("TEXTAFTER(A2,\"basket\",,,,\"Not found\")", h) == .text("Not found"))
        #expect(eval("TEXTAFTER(A2,\"basket\")", h) == .error(.notAvailable))
        #expect(eval("TEXTAFTER(A2,\"red\",-1)", h) == .text(" hood"))
        #expect(eval("TEXTAFTER(A2,\"red\",2,1)", h) == .text(" hood"))
        #expect(eval("TEXTAFTER(A2,\"red\",2)", h) == .error(.notAvailable))
        #expect(eval("TEXTBEFORE(\"Marcus Aurelius\",\" \")") == .text("Marcus"))
        #expect(eval("TEXTAFTER(\"Marcus Aurelius\",\" \")") == .text("Aurelius"))
        #expect(eval("ARRAYTOTEXT(TEXTSPLIT(\"Dakota Lennon Sanchez\",\" \"),1)") == .text("{\"Dakota\",\"Lennon\",\"Sanchez\"}"))
        #expect(eval("ARRAYTOTEXT(TEXTSPLIT(\"1,2,3;4,5,6\",\",\",\";\"),1)") == .text("{\"1\",\"2\",\"3\";\"4\",\"5\",\"6\"}"))
        #expect(eval("ARRAYTOTEXT(TEXTSPLIT(\"Do. Or do not. There is no try. -Anonymous\",\".\"),1)")
                == .text("{\"Do\",\" Or do not\",\" There is no try\",\" -Anonymous\"}"))
        #expect(eval("VALUETOTEXT(\"Hello\")") == .text("Hello"))
        #expect(eval("VALUETOTEXT(\"Hello\",1)") == .text("\"Hello\""))
        #expect(eval("VALUETOTEXT(TRUE)") == .text("TRUE"))
        #expect(eval("VALUETOTEXT(1234.01234)") == .text("1234.01234"))
        #expect(eval("ARRAYTOTEXT({TRUE,#VALUE!;1234.01234,\"Seattle\";\"Hello\",1123},0)")
                == .text("TRUE, #VALUE!, 1234.01234, Seattle, Hello, 1123"))
        #expect(eval("ARRAYTOTEXT({TRUE,#VALUE!;1234.01234,\"Seattle\";\"Hello\",1123},1)")
                == .text("{TRUE,#VALUE!;1234.01234,\"Seattle\";\"Hello\",1123}"))
        #expect(eval("BAHTTEXT(1234)") == .text("หนึ่งพันสองร้อยสามสิบสี่บาทถ้วน"))
        #expect(eval("ASC(\"ＥＸＣＥＬ\")") == .text("EXCEL"))
        #expect(eval("DBCS(\"EXCEL\")") == .text("ＥＸＣＥＬ"))
        #expect(eval("LEFTB(\"Sale Price\",4)") == .text("Sale"))
        #expect(eval("RIGHTB(\"Sale Price\",5)") == .text("Price"))
        #expect(eval("MIDB(\"Fluid Flow\",1,5)") == .text("Fluid"))
        #expect(eval("LENB(\"Phoenix, AZ\")") == .number(11))
        #expect(eval("FINDB(\"M\",\"Miriam McGovern\")") == .number(1))
        #expect(eval("SEARCHB(\"e\",\"Statements\",6)") == .number(7))
        #expect(eval("REPLACEB(\"abcdefghijk\",6,5,\"*\")") == .text("abcde*k"))
        // Excel-computed (calc-suite TEXT__REGEX).
        let s = ["A1": "Mr. Sherlock Holmes"]
        #expect(eval("REGEXTEST(A1,\"[A-Z]\")", s) == .boolean(true))
        #expect(eval("REGEXTEST(A1,\"[A-Z]her\")", s) == .boolean(true))
        #expect(eval("REGEXTEST(A1,\"[0-9]+\")", s) == .boolean(false))
        #expect(eval("REGEXEXTRACT(\"LonelyPlanet\",\"[A-Z][a-z]+\")") == .text("Lonely"))
        #expect(eval("ARRAYTOTEXT(REGEXEXTRACT(\"LonelyPlanet\",\"[A-Z][a-z]+\",1),1)") == .text("{\"Lonely\",\"Planet\"}"))
        #expect(eval("REGEXREPLACE(\"JamesBond\",\"([A-Z][a-z]+)([A-Z][a-z]+)\",\"$2, $1 $2\")") == .text("Bond, James Bond"))
    }

    @Test func hostileArguments() {
        #expect(eval("TEXTBEFORE(\"abc\",\"b\",0)") == .error(.value))
        #expect(eval("TEXTBEFORE(\"abc\",\"b\",4)") == .error(.value))
        #expect(eval("TEXTBEFORE(\"abc\",\"\")") == .text(""))
        #expect(eval("TEXTAFTER(\"abc\",\"\")") == .text("abc"))
        #expect(eval("TEXTBEFORE(\"a-b\",\"-\",2,,1)") == .text("a-b"))
        #expect(eval("TEXTBEFORE(\"a-b\",#N/A)") == .error(.notAvailable))
        #expect(eval("TEXTSPLIT(\"abc\",\"\")") == .error(.value))
        #expect(eval("TEXTSPLIT(\"abc\",)") == .error(.value))
        #expect(eval("ARRAYTOTEXT(TEXTSPLIT(\"1,,2\",\",\",,TRUE),1)") == .text("{\"1\",\"2\"}"))
        #expect(eval("ARRAYTOTEXT(TEXTSPLIT(\"1,2;3\",\",\",\";\"),1)") == .text("{\"1\",\"2\";\"3\",#N/A}"))
        #expect(eval("REGEXTEST(\"a\",\"(\")") == .error(.value))
        #expect(eval("REGEXTEST(\"a\",\"a\",2)") == .error(.value))
        #expect(eval("REGEXEXTRACT(\"abc\",\"x\")") == .error(.notAvailable))
        #expect(eval("REGEXEXTRACT(\"ABC\",\"b\",0,1)") == .text("B"))
        #expect(eval("REGEXREPLACE(\"a1b2c3\",\"[0-9]\",\"#\",-1)") == .text("a1b2c#"))
        #expect(eval("VALUETOTEXT(1,2)") == .error(.value))
        #expect(eval("VALUETOTEXT(#N/A)") == .text("#N/A"))
        #expect(eval("BAHTTEXT(0)") == .text("ศูนย์บาทถ้วน"))
        #expect(eval("BAHTTEXT(-21.5)") == .text("ลบยี่สิบเอ็ดบาทห้าสิบสตางค์"))
        #expect(eval("BAHTTEXT(1E300)") == .error(.number))
        // A catastrophic pattern ends by the time bound, never holding the thread.
        let start = systemUnixTime()
        let v = eval("REGEXTEST(REPT(\"a\",30)&\"!\",\"^(a+)+$\")")
        #expect(v == .error(.calc) || v == .boolean(false))
        #expect(systemUnixTime() - start < 5)
    }
}
