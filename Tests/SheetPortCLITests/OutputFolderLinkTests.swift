import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortWriter
import SheetPortTestSupport

/// Names that come from a workbook (`convert --all -o DIR`; `export --out DIR`:
/// ExportFolderLinkTests) never lead outside DIR: a symbolic link (to a file outside, or dangling), a FIFO or a
/// device named like a sheet's file is refused at once, by name, and nothing outside DIR is
/// replaced or created (issue 23).
@Suite struct OutputFolderLinkTests {
    /// What is planted in DIR under the sheet's file name.
    enum Plant: CaseIterable { case linkToOutside, danglingLink, fifo }

    /// Plants `plant` at `folder/name`; returns the file outside the folder it points at, if any.
    static func plant(_ plant: Plant, at path: String, outside: URL) throws -> String? {
        switch plant {
        case .linkToOutside:
            let target = outside.appendingPathComponent("precious.txt").path
            try Data("keep me".utf8).write(to: URL(fileURLWithPath: target))
            #expect(symlink(target, path) == 0)
            return target
        case .danglingLink:
            let target = outside.appendingPathComponent("created-outside.txt").path
            #expect(symlink(target, path) == 0)
            return target
        case .fifo:
            #expect(mkfifo(path, 0o600) == 0)
            return nil
        }
    }

    static func says(_ plant: Plant) -> String {
        switch plant {
        case .linkToOutside, .danglingLink: return "symbolic link"
        case .fifo: return "FIFO"
        }
    }

    /// Checks the target outside is as it was (the precious file kept, nothing created).
    static func expectOutsideUntouched(_ plant: Plant, _ target: String?) {
        switch plant {
        case .linkToOutside: #expect((try? String(contentsOfFile: target!, encoding: .utf8)) == "keep me")
        case .danglingLink: #expect(!FileManager.default.fileExists(atPath: target!))
        case .fifo: break
        }
    }

    /// The second sheet's name: dots that would climb, characters no file system takes.
    static let hostileName = "..Notes <1>|"

    /// A workbook with the sheets "Data" and `hostileName`.
    static func workbook(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("book.xlsx").path
        let writer = try WorkbookWriter(path: path)
        for name in ["Data", hostileName] {
            let sheet = try writer.addWorksheet(named: name)
            try sheet.append(Row(index: 1, cells: [Cell(column: 1, value: .string("in \(name)"))]))
        }
        try writer.close()
        return path
    }

    @Test(arguments: Plant.allCases)
    func convertAllRefusesWhatIsNotARegularFile(_ plant: Plant) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = try Self.workbook(in: folder)
        let outside = folder.appendingPathComponent("outside")
        let out = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        // The second sheet's name: the first is staged already when the refusal comes.
        let entry = FileNames.unique(for: ["Data", Self.hostileName], fileExtension: "csv")[1]
        #expect(!entry.hasPrefix(".") && !entry.contains("/"))
        let target = try Self.plant(plant, at: out.appendingPathComponent(entry).path, outside: outside)
        let result = try runWithDeadline(["convert", book, "--all", "-o", out.path, "--no-progress"], seconds: 20)
        #expect(result.status == 4 && result.seconds < 5, "\(result.status) after \(result.seconds) s: \(result.stderr)")
        #expect(result.stderr.contains(entry) && result.stderr.contains(Self.says(plant)), "\(result.stderr)")
        Self.expectOutsideUntouched(plant, target)
        // No new file in the folder: only what was planted.
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == [entry])
        // A regular file of that name is replaced as before.
        unlink(out.appendingPathComponent(entry).path)
        try Data("old".utf8).write(to: out.appendingPathComponent(entry))
        let again = try runWithDeadline(["convert", book, "--all", "-o", out.path, "--no-progress"], seconds: 20)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try String(contentsOf: out.appendingPathComponent(entry), encoding: .utf8).hasPrefix("in \(Self.hostileName)"))
        Self.expectOutsideUntouched(plant, target)
    }
}
