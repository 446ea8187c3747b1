import Foundation

/// Writes a workbook with openpyxl (the project's `.venv`): `script` is Python run with `wb`, a
/// new `openpyxl.Workbook()`, and `ws`, its active sheet; the workbook is saved to `path`.
/// openpyxl writes formulas without cached values, as the recalc tests need.
package func writeWithOpenpyxl(_ script: String, to path: String) throws {
    let process = Process()
    process.executableURL = Project.root.appendingPathComponent(".venv/bin/python")
    process.arguments = ["-c", "import sys, openpyxl\nwb = openpyxl.Workbook()\nws = wb.active\n" + script + "\nwb.save(sys.argv[1])\n", path]
    let error = Pipe()
    process.standardError = error
    try process.run()
    let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw NSError(domain: "openpyxl", code: Int(process.terminationStatus), userInfo: [NSLocalizedDescriptionKey: message])
    }
}

/// Runs `script` with the project's venv Python and `arguments`; its standard output (it must succeed).
package func runPython(_ script: String, arguments: [String] = [], input: String? = nil) throws -> String {
    let process = Process()
    process.executableURL = Project.root.appendingPathComponent(".venv/bin/python")
    process.arguments = ["-c", script] + arguments
    let output = Pipe(), error = Pipe(), standardInput = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = standardInput
    try process.run()
    if let input { standardInput.fileHandleForWriting.write(Data(input.utf8)) }
    try standardInput.fileHandleForWriting.close()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw NSError(domain: "python", code: Int(process.terminationStatus), userInfo: [NSLocalizedDescriptionKey: "python: " + message])
    }
    return text
}
