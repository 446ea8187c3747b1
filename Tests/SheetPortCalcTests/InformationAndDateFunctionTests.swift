import Testing
@testable import SheetPortCalc
import SheetPortCore

/// FORMULATEXT, ISFORMULA, INFO, NETWORKDAYS.INTL and WORKDAY.INTL. The examples are those of
/// Microsoft's function reference (support.microsoft.com, "<NAME> function" articles, e.g.
/// https://support.microsoft.com/en-us/office/networkdays-intl-function-a9b26239-4f20-46a1-9ab8-4e925bfd5e28);
/// the circular case is Excel's, in ../shared/calc-suite INFORMATION__FORMULATEXT.
@Suite struct InformationAndDateFunctionTests {
    @Test func formulaText() {
        #expect(eval("FORMULATEXT(A2)", ["A2": "=TODAY()"]) == .text("=TODAY()"))
        #expect(eval("ISFORMULA(A2)", ["A2": "=TODAY()"]) == .boolean(true))
        #expect(eval("ISFORMULA(A2)", ["A2": 7]) == .boolean(false))
        #expect(eval("FORMULATEXT(A2)", ["A2": 7]) == .error(.notAvailable))
        #expect(eval("FORMULATEXT(A3)") == .error(.notAvailable))
        #expect(eval("FORMULATEXT(A2)", ["A2": "=COMBINA(4,3)"]) == .text("=COMBINA(4,3)"))
        #expect(eval("FORMULATEXT(1)") == .error(.value))
        #expect(eval("FORMULATEXT(#REF!)") == .error(.reference))
        // A formula showing the text of a cell that reads it back is no circular reference.
        let e = engine(["E1": "=CONCATENATE(FORMULATEXT(F1),\" NOT CIRCULAR!\")", "F1": "=E1"])
        #expect(e.value(at: CellReference("E1")!, sheet: 0) == .text("=E1 NOT CIRCULAR!"))
        #expect(e.value(at: CellReference("F1")!, sheet: 0) == .text("=E1 NOT CIRCULAR!"))
        #expect(eval("INFO(\"recalc\")") == .text("Automatic"))
        #expect(eval("INFO(\"numfile\")") == .number(1))
        #expect(eval("INFO(\"nonsense\")") == .error(.value))
    }

    @Test func workdays() {
        #expect(eval("NETWORKDAYS.INTL(DATE(2006,1,1),DATE(2006,1,31))") == .number(22))
        #expect(eval("NETWORKDAYS.INTL(DATE(2006,2,28),DATE(2006,1,31))") == .number(-21))
        #expect(eval("NETWORKDAYS.INTL(DATE(2006,1,1),DATE(2006,2,1),7,{\"2006/1/2\",\"2006/1/16\"})") == .number(22))
        #expect(eval("NETWORKDAYS.INTL(DATE(2006,1,1),DATE(2006,2,1),\"0010001\",{\"2006/1/2\",\"2006/1/16\"})") == .number(20))
        #expect(eval("WORKDAY.INTL(DATE(2012,1,1),30,0)") == .error(.number))
        #expect(eval("WORKDAY.INTL(DATE(2012,1,1),90,11)") == .number(41013))
        #expect(eval("TEXT(WORKDAY.INTL(DATE(2012,1,1),30,17),\"m/dd/yyyy\")") == .text("2/05/2012"))
        // The plain forms count Saturday and Sunday, as weekend 1 does.
        #expect(eval("NETWORKDAYS(DATE(2006,1,1),DATE(2006,1,31))") == eval("NETWORKDAYS.INTL(DATE(2006,1,1),DATE(2006,1,31),1)"))
        #expect(eval("WORKDAY(DATE(2012,1,1),30)") == eval("WORKDAY.INTL(DATE(2012,1,1),30,1)"))
        #expect(eval("NETWORKDAYS.INTL(1,10,\"1111111\")") == .error(.value))
        #expect(eval("NETWORKDAYS.INTL(1,10,\"11\")") == .error(.value))
        #expect(eval("NETWORKDAYS.INTL(1,10,8)") == .error(.number))
        #expect(eval("WORKDAY.INTL(1,10,\"0000000\")") == .number(11))
        #expect(eval("WORKDAY.INTL(2958465,1)") == .error(.number))
        #expect(eval("NETWORKDAYS.INTL(1,1E9)") == .error(.number))
        #expect(eval("WORKDAY.INTL(1,10,1,{\"x\"})") == .error(.value))
        #expect(eval("DATE(9999,13,-1)") == .error(.number))
    }
}
