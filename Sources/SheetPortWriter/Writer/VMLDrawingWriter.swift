/// A sheet's legacy VML drawing (`xl/drawings/vmlDrawingN.vml`): one hidden note shape per
/// comment, which is what makes Excel and LibreOffice show comments at all.
enum VMLDrawingWriter {
    /// The drawing for the comments of sheet `sheetNumber` (1-based), at 0-based cells.
    static func part(sheetNumber: Int, cells: [(row: Int, column: Int)]) -> [UInt8] {
        var xml = XMLWriter()
        xml.raw("<xml xmlns:v=\"urn:schemas-microsoft-com:vml\" xmlns:o=\"urn:schemas-microsoft-com:office:office\"")
        xml.raw(" xmlns:x=\"urn:schemas-microsoft-com:office:excel\">")
        xml.raw("<o:shapelayout v:ext=\"edit\"><o:idmap v:ext=\"edit\" data=\""); xml.int(sheetNumber)
        xml.raw("\"/></o:shapelayout>")
        xml.raw("<v:shapetype id=\"_x0000_t202\" coordsize=\"21600,21600\" o:spt=\"202\" path=\"m,l,21600r21600,l21600,xe\">")
        xml.raw("<v:stroke joinstyle=\"miter\"/><v:path gradientshapeok=\"t\" o:connecttype=\"rect\"/></v:shapetype>")
        for (index, cell) in cells.enumerated() {
            // Shape ids are numbered in blocks of 1024 per sheet, as Excel numbers them.
            xml.raw("<v:shape id=\"_x0000_s"); xml.int(sheetNumber * 1024 + 1 + index)
            xml.raw("\" type=\"#_x0000_t202\" style=\"position:absolute;margin-left:59.25pt;margin-top:1.5pt;")
            xml.raw("width:108pt;height:59.25pt;z-index:"); xml.int(index + 1)
            xml.raw(";visibility:hidden\" fillcolor=\"#ffffe1\" o:insetmode=\"auto\">")
            xml.raw("<v:fill color2=\"#ffffe1\"/><v:shadow on=\"t\" color=\"black\" obscured=\"t\"/>")
            xml.raw("<v:path o:connecttype=\"none\"/><v:textbox style=\"mso-direction-alt:auto\">")
            xml.raw("<div style=\"text-align:left\"></div></v:textbox><x:ClientData ObjectType=\"Note\">")
            xml.raw("<x:MoveWithCells/><x:SizeWithCells/><x:Anchor>")
            // The note's box: from one column right of the cell, two columns wide, four rows tall.
            xml.int(cell.column + 1); xml.raw(", 15, "); xml.int(max(cell.row - 1, 0)); xml.raw(", 10, ")
            xml.int(cell.column + 3); xml.raw(", 15, "); xml.int(max(cell.row - 1, 0) + 4); xml.raw(", 4")
            xml.raw("</x:Anchor><x:AutoFill>False</x:AutoFill><x:Row>"); xml.int(cell.row)
            xml.raw("</x:Row><x:Column>"); xml.int(cell.column); xml.raw("</x:Column></x:ClientData></v:shape>")
        }
        xml.raw("</xml>")
        return xml.bytes
    }
}
