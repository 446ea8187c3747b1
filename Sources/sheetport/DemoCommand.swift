import Foundation
import SheetPortWriter
import SheetPortConvert
import SheetPortClient

/// `sheetport demo`: the main job on the embedded default. Pre-flights the bundled
/// multi-sheet workbook, starts `sheetport serve` on a loopback ephemeral port with a temporary
/// data folder, issues a token, imports with progress, exports back through private staging,
/// checks the exported file against the upload, prints a summary and removes everything.
enum DemoCommand {
    static let spec = CommandSpec(
        usage: "sheetport demo [--no-progress]",
        about: """
        Runs the whole path on this machine with nothing left behind: pre-flight a bundled
        three-sheet workbook, start an embedded server on 127.0.0.1 (an ephemeral port, a temporary
        data folder), issue a token, import the workbook (only its first worksheet), write a value
        and a formula through the server (which computes them), export the sheet back through a
        private staging file, check the exported file, and print a summary.

        Exit status: 0 when every step worked, 1 when one failed, 2 on usage or I/O errors.
        """,
        groups: [OptionGroup(title: "OPTIONS", options: [.noProgress, .help])])

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try spec.parse(arguments)
        if options.has("--help") { print(spec.help); return 0 }
        let progressFlag = options.has("--no-progress") ? ["--no-progress"] : []
        let started = Date()
        // Ctrl-C or SIGTERM stops the server (a process group of its own) and removes staging.
        PendingFiles.removeOnSignals()
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // Work inside the folder, so that what is printed names demo.xlsx and export/.
        let previous = FileManager.default.currentDirectoryPath
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        guard FileManager.default.changeCurrentDirectoryPath(folder.path) else {
            throw ClientError.io(file: folder.path, message: "cannot enter the temporary folder")
        }
        let workbook = "demo.xlsx", data = folder.path + "/data", out = "export", tokenFile = "token"

        step(1, "pre-flight the bundled workbook")
        try DemoWorkbook.write(to: workbook)
        let report = try Preflight.check(path: workbook)
        print(CheckCommand.humanText(report))
        guard report.importable else { return 1 }

        step(2, "start an embedded server on loopback")
        let server = try EmbeddedServer(executable: executable, data: data)
        defer { server.stop() }
        print("server listening on \(server.url), data in a temporary folder (removed at the end)")
        let token = try server.issueToken(subject: "demo")
        guard FileManager.default.createFile(atPath: tokenFile, contents: Data(token.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw ClientError.io(file: tokenFile, message: "cannot write the token")
        }
        print("issued a session token for subject \"demo\"")

        step(3, "import: pre-flight against the server's caps, upload, wait for the job")
        var status = try ImportCommand.run([workbook, "--server", server.url, "--token-file", tokenFile, "--wait"] + progressFlag)
        guard status == 0 else { return status }

        step(4, "edit through the server: a value and a formula, computed there")
        // D2's quantity changes (its total F2 = D2*E2 is recomputed by the server) and a new
        // formula sums every total; the server answers the cells whose values changed.
        status = try CellsCommand.run(["set", "Orders", "D2=100", "I1==SUM(F2:F\(DemoWorkbook.orderRows + 1))",
                                       "--server", server.url, "--token-file", tokenFile])
        guard status == 0 else { return status }

        step(5, "export the sheet back through private staging")
        status = try ExportCommand.run(["--all", "--server", server.url, "--token-file", tokenFile, "--out", out] + progressFlag)
        guard status == 0 else { return status }

        step(6, "check the exported file")
        let exported = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".xlsx") }.sorted()
        guard let name = exported.first else {
            StandardError.write("sheetport: demo: nothing was exported")
            return 1
        }
        let back = try Preflight.check(path: out + "/" + name)
        print(CheckCommand.humanText(back))
        let sent = report.worksheets.first(where: \.imported)
        let received = back.worksheets.first(where: \.imported)
        // The edit added I1: one cell more, and the used range reaches column I.
        let same = sent?.rows == received?.rows && received?.columns == 9 && (sent?.cells ?? 0) + 1 == received?.cells

        print("\n== summary")
        print("  uploaded \"\(sent?.name ?? "?")\": \(sent?.rows ?? 0) rows x \(sent?.columns ?? 0) columns, \(sent?.cells ?? 0) cells"
              + " (\"Regions\" and \"Notes\" are not imported: only the first worksheet is)")
        print("  exported \(name): \(received?.rows ?? 0) rows x \(received?.columns ?? 0) columns, \(received?.cells ?? 0) cells"
              + (same ? ", the cells uploaded and the one the edit added" : ", NOT the cells uploaded and edited"))
        print(String(format: "  done in %.1f s; the server is stopped and its temporary data folder removed", Date().timeIntervalSince(started)))
        return same && back.importable ? 0 : 1
    }

    private static func step(_ number: Int, _ title: String) {
        print("\n== \(number). \(title)")
    }
}

/// This executable.
private var executable: String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
}
