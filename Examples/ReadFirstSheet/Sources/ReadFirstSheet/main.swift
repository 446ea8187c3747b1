// Reads the first worksheet of the workbook given as argument and prints its rows: the README's
// Library example, with `import SheetPortReader` alone.
import SheetPortReader
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

guard CommandLine.arguments.count == 2 else {
    print("usage: ReadFirstSheet WORKBOOK.xlsx")
    exit(2)
}
let path = CommandLine.arguments[1]

let workbook = try Workbook(path: path)
let sheet = workbook.firstWorksheet!
let rows = try workbook.rows(of: sheet)
var printed = 0
while let row = try rows.nextRow() {
    for cell in row.cells { print(row.index, cell.column, cell.value, cell.formula ?? "") }
    printed += 1
}

// The same rows again, as an AsyncSequence.
var counted = 0
for try await row in try workbook.rows(of: sheet) {
    counted += 1
    _ = row.cells
}
print("rows: \(printed), async rows: \(counted)")
