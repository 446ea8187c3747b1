import Foundation
import Testing
import SheetPortCore
import SheetPortReader
import SheetPortWriter
import SheetPortConvert
import SheetPortClient
import SheetPortServer

/// Paths and helpers shared by the tests.
package enum Project {
    /// The package root (this file is Tests/SheetPortTestSupport/Support.swift).
    package static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// `Fixtures/reader`.
    package static let readerFixtures = root.appendingPathComponent("Fixtures/reader")
    /// `../shared/corpus/files`, beside the project.
    package static let corpus = root.deletingLastPathComponent().appendingPathComponent("shared/corpus/files")
    /// Runs `executable` with `arguments` to its end: its exit status and its output (stdout
    /// and stderr together).
    package static func run(_ executable: URL, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// Runs the project's virtualenv Python (`.venv/bin/python`) on `arguments`.
    package static func python(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try run(root.appendingPathComponent(".venv/bin/python"), arguments)
    }

    /// Known-bad files and the code their error must carry.
    package static let expectedCorpusErrors: [String: ReaderError.Code] = [
        "calamine__pass_protected.xlsx": .encryptedWorkbook,
        "excelize__encryptAES.xlsx": .encryptedWorkbook,
        "excelize__encryptSHA1.xlsx": .encryptedWorkbook,
        "excelize__encryptSHA512.xlsx": .encryptedWorkbook,
        "poi__protect.xlsx": .encryptedWorkbook,
        "poi__protected_passtika.xlsx": .encryptedWorkbook,
        "poi__protected_sha512.xlsx": .encryptedWorkbook,
        "xlsx-populate__encrypted_input.xlsx": .encryptedWorkbook,
        "xlsx-populate__encryption_out.xlsx": .encryptedWorkbook,
        "roo__type_excel.xlsx": .legacyXLS,
        "roo__type_openoffice.xlsx": .odsWorkbook,
        "poi__poc-xmlbomb.xlsx": .forbiddenDTD,
        "poi__poc-xmlbomb-empty.xlsx": .forbiddenDTD,
        "poi__clusterfuzz-testcase-minimized-POIFuzzer-5040805309710336.xlsx": .corruptZip, // truncated: no central directory
        "poi__clusterfuzz-testcase-minimized-POIXSSFFuzzer-5265527465181184.xlsx": .corruptZip,
        "poi__crash-274d6342e4842d61be0fb48eaadad6208ae767ae.xlsx": .corruptZip,
        "exceljs__invalid-xml.xlsx": .malformedXML,
        "calamine__issue252.xlsx": .corruptZip, // a part whose data does not match its CRC-32
        "exceljs__missing-bits.xlsx": .missingPart,
        "poi__clusterfuzz-testcase-minimized-POIXSSFFuzzer-4828727001088000.xlsx": .corruptZip,
        "poi__clusterfuzz-testcase-minimized-POIXSSFFuzzer-5089447305609216.xlsx": .corruptZip,
        "poi__clusterfuzz-testcase-minimized-XLSX2CSVFuzzer-5636439151607808.xlsx": .corruptZip,
        "poi__clusterfuzz-testcase-minimized-XLSX2CSVFuzzer-6594557414080512.xlsx": .corruptZip,
        "poi__crash-9bf3cd4bd6f50a8a9339d363c2c7af14b536865c.xlsx": .encryptedWorkbook,
        "poi__invalid.xlsx": .missingPart,
        "poi__poc-shared-strings.xlsx": .exceedsLimit, // POI's proof of concept: a row 0, outside the grid
    ]

    package static func fixture(_ name: String) -> String { readerFixtures.appendingPathComponent(name).path }

    /// The corpus file names, sorted.
    package static func corpusFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []).sorted()
    }

    /// `../shared/calc-suite/files`: Excel-computed per-function workbooks, the second oracle.
    package static let calcSuite = root.deletingLastPathComponent().appendingPathComponent("shared/calc-suite/files")

    /// The calculation suite's workbooks, in name order.
    package static func calcSuiteFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: calcSuite.path)) ?? []).filter { $0.hasSuffix(".xlsx") || $0.hasSuffix(".xlsm") }.sorted()
    }
}

/// Converts a sheet to text through the library, as `sheetport convert` does.
package func convert(_ path: String, sheet: String? = nil, to format: TextFormat,
                     options: TextOutputOptions = TextOutputOptions()) throws -> String {
    let workbook = try Workbook(path: path)
    let chosen = try #require(sheet.map { workbook.sheet(named: $0) } ?? workbook.firstWorksheet)
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("sheetport-test-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: url) }
    let handle = try FileHandle(forWritingTo: url)
    try SheetConverter.convert(workbook, sheet: chosen, to: format,
                               output: ByteOutput(descriptor: handle.fileDescriptor, name: url.path), options: options)
    try handle.close()
    return try String(contentsOf: url, encoding: .utf8)
}

/// Parses JSON Lines into dictionaries, dropping the keys in `ignoring`.
package func jsonObjects(_ text: String, ignoring: Set<String> = []) throws -> [NSDictionary] {
    try text.split(separator: "\n").map { line in
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
        return object.filter { !ignoring.contains($0.key) } as NSDictionary
    }
}

/// A new empty folder under the temporary directory; the caller removes it.
package func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("sheetport-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Writes a workbook of `rows` rows x 10 columns with Scripts/make_large_workbook.py (and its
/// `options`); returns its path.
package func makeLargeWorkbook(rows: Int, in folder: URL, options: [String] = []) throws -> String {
    let path = folder.appendingPathComponent("big.xlsx").path
    let generator = Process()
    generator.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    generator.arguments = ["python3", Project.root.appendingPathComponent("Scripts/make_large_workbook.py").path, String(rows), path] + options
    try generator.run()
    generator.waitUntilExit()
    #expect(generator.terminationStatus == 0)
    return path
}

/// The device number of /dev/null (0 when it cannot be read), for making a device like it.
package var nullDevice: dev_t {
    var status = stat()
    return stat("/dev/null", &status) == 0 ? status.st_rdev : 0
}

/// The type bits (`S_IFREG`, `S_IFLNK`, ...) of `path` itself, a link not followed; nil when absent.
package func fileType(_ path: String) -> mode_t? {
    var status = stat()
    return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : nil
}
