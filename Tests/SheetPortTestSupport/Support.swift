import Foundation
import Testing
import SheetPortCore
import SheetPortReader
import SheetPortWriter
import SheetPortConvert

/// Paths and helpers shared by the tests.
package enum Project {
    /// The package root (this file is Tests/SheetPortTestSupport/Support.swift).
    package static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// `Fixtures/reader`.
    package static let readerFixtures = root.appendingPathComponent("Fixtures/reader")
    /// `../shared/corpus/files`, beside the project.
    package static let corpus = root.deletingLastPathComponent().appendingPathComponent("shared/corpus/files")
    /// The `sheetport` executable built by this test build (the test targets that run it depend
    /// on it): in the products folder that holds the test bundle, never a stale one elsewhere.
    package static let executable: URL = {
        var folder = (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0]))
            .resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {   // macOS nests the test binary in SheetPortPackageTests.xctest/Contents/MacOS
            let candidate = folder.appendingPathComponent("sheetport")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        fatalError("no sheetport executable beside the test bundle: build the tests with `swift build --build-tests`")
    }()

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
    ]

    package static func fixture(_ name: String) -> String { readerFixtures.appendingPathComponent(name).path }

    /// The corpus file names, sorted.
    package static func corpusFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []).sorted()
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

/// Runs the `sheetport` executable (with `environment` added to the tests' own); returns the
/// exit status, standard output and error.
package func runSheetport(_ arguments: [String], input: Data? = nil, environment: [String: String] = [:]) throws
    -> (status: Int32, stdout: Data, stderr: String) {
    let process = Process()
    process.executableURL = Project.executable
    process.arguments = arguments
    if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    let output = Pipe(), error = Pipe(), standardInput = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = standardInput
    try process.run()
    if let input { standardInput.fileHandleForWriting.write(input) }
    try standardInput.fileHandleForWriting.close()
    let stdout = output.fileHandleForReading.readDataToEndOfFile()
    let stderr = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, stdout, String(decoding: stderr, as: UTF8.self))
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

/// Starts `sheetport arguments`, waits (up to 10 s) until `ready()` holds, then sends `signal`;
/// returns whether it was ready before it ended, and its exit status.
package func interruptSheetport(_ arguments: [String], with signal: Int32, when ready: () throws -> Bool) throws
    -> (wasReady: Bool, status: Int32) {
    let process = Process()
    process.executableURL = Project.executable
    process.arguments = arguments
    process.standardError = FileHandle.nullDevice
    try process.run()
    var wasReady = false
    for _ in 0..<1000 where process.isRunning {
        if try ready() { wasReady = true; break }
        usleep(10_000)
    }
    kill(process.processIdentifier, signal)
    process.waitUntilExit()
    return (wasReady, process.terminationStatus)
}

/// Runs `sheetport` with standard input closed, killing it after `seconds`; the exit status
/// (-9 when killed), output, error and how long it ran.
package func runWithDeadline(_ arguments: [String], seconds limit: Double, environment: [String: String] = [:]) throws
    -> (status: Int32, stdout: String, stderr: String, seconds: Double) {
    let process = Process()
    process.executableURL = Project.executable
    process.arguments = arguments
    if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("out"), err = folder.appendingPathComponent("err")
    FileManager.default.createFile(atPath: out.path, contents: nil)
    FileManager.default.createFile(atPath: err.path, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: out)
    process.standardError = try FileHandle(forWritingTo: err)
    process.standardInput = FileHandle.nullDevice
    let start = Date()
    try process.run()
    while process.isRunning && Date().timeIntervalSince(start) < limit { usleep(20_000) }
    let killed = process.isRunning
    if killed { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    let seconds = Date().timeIntervalSince(start)
    return (killed ? -9 : process.terminationStatus, (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            (try? String(contentsOf: err, encoding: .utf8)) ?? "", seconds)
}
