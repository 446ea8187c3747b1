import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortWriter
import SheetPortTestSupport
@testable import SheetPortReader
@testable import SheetPortServer
#if canImport(Glibc)
import Glibc
#endif

/// `-o` and every other atomic publish: what is not a regular file is written through and never
/// replaced (`-o /dev/null` run as root once turned the device into a file), a symbolic link's
/// target is replaced and the link kept, a directory is refused.
@Suite struct PublishTargetTests {
    /// The two outputs that publish differently: CSV through `AtomicFile`, xlsx through the writer's `Staging`.
    enum Output: String, CaseIterable { case csv, xlsx }

    /// A folder with an input for `output` and the bytes converting it to a regular file gives.
    struct Setup {
        let folder: URL
        let input: String
        let expected: Data
        let output: Output

        init(_ output: Output) throws {
            folder = try temporaryFolder()
            self.output = output
            switch output {
            case .csv:
                input = Project.fixture("cell_types.xlsx")
            case .xlsx:
                input = folder.appendingPathComponent("input.csv").path
                try Data("name,amount\r\nada,1.5\r\n\"x\u{1B}\u{0}y\",-2\r\n".utf8).write(to: URL(fileURLWithPath: input))
            }
            let reference = folder.appendingPathComponent("reference.\(output.rawValue)").path
            let result = try runSheetport(["convert", input, "--to", output.rawValue, "-o", reference, "--no-progress", "--no-recalc"])
            #expect(result.status == 0, "\(result.stderr)")
            expected = try Data(contentsOf: URL(fileURLWithPath: reference))
            try FileManager.default.removeItem(atPath: reference)
        }

        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

        func convert(to destination: String) throws -> (status: Int32, stdout: Data, stderr: String) {
            try runSheetport(["convert", input, "--to", output.rawValue, "-o", destination, "--no-progress", "--no-recalc"])
        }

        /// What is in the folder now, with no staging or temporary files left over.
        func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    /// The device number of `/dev/null`, for a node of our own made with `mknod`.
    @Test(.enabled(if: getuid() == 0, "mknod needs root"), arguments: Output.allCases)
    func aCharacterDeviceStaysADevice(_ output: Output) throws {
        let setup = try Setup(output)
        defer { setup.remove() }
        let device = setup.path("null")
        #expect(mknod(device, S_IFCHR | 0o666, nullDevice) == 0, "mknod: \(String(cString: strerror(errno)))")
        let result = try setup.convert(to: device)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fileType(device) == S_IFCHR)
        #expect(try setup.names() == (output == .xlsx ? ["input.csv"] : []) + ["null"])
    }

    /// The real `/dev/null`, looked at afterwards: still a character device.
    @Test(arguments: Output.allCases)
    func devNullStaysACharacterDevice(_ output: Output) throws {
        let setup = try Setup(output)
        defer { setup.remove() }
        let result = try setup.convert(to: "/dev/null")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fileType("/dev/null") == S_IFCHR)
        #expect(try !FileManager.default.contentsOfDirectory(atPath: "/dev").contains { $0.hasPrefix(".null.sheetport-") })
    }

    /// A FIFO whose reader is already waiting gets the whole output and stays a FIFO.
    @Test(arguments: Output.allCases)
    func aFIFOWithAReaderIsWrittenThrough(_ output: Output) throws {
        let setup = try Setup(output)
        defer { setup.remove() }
        let fifo = setup.path("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        // Opened without blocking, so the converter's open for writing finds a reader at once.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        // The output fits in the pipe's buffer (64 KiB), so the converter finishes before we read.
        try #require(setup.expected.count < 65536)
        let result = try setup.convert(to: fifo)
        #expect(result.status == 0, "\(result.stderr)")
        var received = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        for _ in 0..<1000 {
            let count = read(reader, &chunk, chunk.count)
            guard count > 0 else { break } // 0: the writer has closed; -1 (EAGAIN): nothing was written
            received.append(contentsOf: chunk[..<count])
        }
        #expect(received == setup.expected)
        #expect(fileType(fifo) == S_IFIFO)
    }

    @Test(arguments: Output.allCases, ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"])
    func standardOutputByNameIsWrittenThrough(_ output: Output, _ name: String) throws {
        let setup = try Setup(output)
        defer { setup.remove() }
        let result = try setup.convert(to: name)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == setup.expected)
        #expect(fileType("/dev/null") == S_IFCHR)
    }

    /// `/dev/fd/2` is standard error: the output goes there, not into a file.
    @Test func anotherDescriptorByNameIsWrittenThrough() throws {
        let setup = try Setup(.csv)
        defer { setup.remove() }
        let result = try setup.convert(to: "/dev/fd/2")
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        #expect(Data(result.stderr.utf8) == setup.expected)
    }

    /// `/dev/fd/0` is the read end of a pipe here: refused, not written into.
    @Test func aDescriptorOpenOnlyForReadingIsRefused() throws {
        let setup = try Setup(.csv)
        defer { setup.remove() }
        let result = try setup.convert(to: "/dev/fd/0")
        #expect(result.status != 0)
        #expect(result.stderr.contains("not open for writing"), "\(result.stderr)")
    }

    @Test(arguments: Output.allCases)
    func aSymbolicLinkKeepsItsLinkAndItsTargetIsReplaced(_ output: Output) throws {
        let setup = try Setup(output)
        defer { setup.remove() }
        try Data("previous".utf8).write(to: URL(fileURLWithPath: setup.path("target")))
        #expect(symlink("target", setup.path("link")) == 0)
        let result = try setup.convert(to: setup.path("link"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fileType(setup.path("link")) == S_IFLNK)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: setup.path("link")) == "target")
        #expect(try Data(contentsOf: URL(fileURLWithPath: setup.path("target"))) == setup.expected)
        #expect(try setup.names() == (output == .xlsx ? ["input.csv"] : []) + ["link", "target"])
    }

    /// A chain of links across folders, relative and absolute: the last target is replaced.
    @Test(arguments: Output.allCases)
    func aChainOfLinksReplacesTheLastTarget(_ output: Output) throws {
        let setup = try Setup(output)
        defer { setup.remove() }
        try FileManager.default.createDirectory(atPath: setup.path("inner"), withIntermediateDirectories: false)
        try Data("previous".utf8).write(to: URL(fileURLWithPath: setup.path("inner/target")))
        #expect(symlink("target", setup.path("inner/second")) == 0)
        #expect(symlink(setup.path("inner/second"), setup.path("first")) == 0)
        #expect(symlink("first", setup.path("link")) == 0)
        let result = try setup.convert(to: setup.path("link"))
        #expect(result.status == 0, "\(result.stderr)")
        for link in ["link", "first", "inner/second"] { #expect(fileType(setup.path(link)) == S_IFLNK) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: setup.path("inner/target"))) == setup.expected)
        #expect(try FileManager.default.contentsOfDirectory(atPath: setup.path("inner")).sorted() == ["second", "target"])
    }

    @Test(arguments: Output.allCases)
    func aDanglingLinkGetsItsTargetCreated(_ output: Output) throws {
        let setup = try Setup(output)
        defer { setup.remove() }
        #expect(symlink("made", setup.path("link")) == 0)
        let result = try setup.convert(to: setup.path("link"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fileType(setup.path("link")) == S_IFLNK)
        #expect(fileType(setup.path("made")) == S_IFREG)
        #expect(try Data(contentsOf: URL(fileURLWithPath: setup.path("made"))) == setup.expected)
    }

    /// A directory, named or linked to, is refused before anything is converted; it is left as it was.
    @Test(arguments: Output.allCases, ["folder", "folder/", "link-to-folder"])
    func aDirectoryIsRefused(_ output: Output, _ name: String) throws {
        let setup = try Setup(output)
        defer { setup.remove() }
        try FileManager.default.createDirectory(atPath: setup.path("folder"), withIntermediateDirectories: false)
        #expect(symlink("folder", setup.path("link-to-folder")) == 0)
        let result = try setup.convert(to: setup.path(name))
        #expect(result.status != 0)
        #expect(result.stderr.contains("directory"), "\(result.stderr)")
        #expect(fileType(setup.path("folder")) == S_IFDIR)
        #expect(try FileManager.default.contentsOfDirectory(atPath: setup.path("folder")).isEmpty)
    }

    /// Links that point at each other end with an error, not a hang.
    @Test func aLoopOfLinksIsRefused() throws {
        let setup = try Setup(.csv)
        defer { setup.remove() }
        #expect(symlink("b", setup.path("a")) == 0)
        #expect(symlink("a", setup.path("b")) == 0)
        let result = try setup.convert(to: setup.path("a"))
        #expect(result.status != 0)
        #expect(result.stderr.contains("symbolic links"), "\(result.stderr)")
        #expect(try setup.names() == ["a", "b"])
    }

    /// An empty name, one with NUL (which C would cut short) and a path through a missing folder are
    /// refused with a message; nothing is left in the folder.
    @Test(arguments: ["", "a\u{0}b.csv", "missing/out.csv"])
    func hostileNamesAreRefused(_ name: String) throws {
        let setup = try Setup(.csv)
        defer { setup.remove() }
        let destination = name.isEmpty ? "" : setup.folder.path + "/" + name // not through URL, which cuts at NUL
        #expect(throws: ReaderError.self) { _ = try AtomicFile(destination: destination) }
        #expect(throws: WriterError.self) { _ = try Staging(destination: destination) }
        #expect(try setup.names().isEmpty)
    }
}
