#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SheetPortCore
import SheetPortWriter

/// A text input that can be read more than once, as deciding column types needs (one pass
/// decides, the next writes): a regular file is opened again; standard input, a pipe or a
/// device is copied, while the first pass reads it, to a private temporary file (mode 0600, in
/// a folder of mode 0700) that later passes read. The copy is removed when the source is
/// released, and on SIGINT or SIGTERM through `PendingFiles`. Memory stays as it is for a file;
/// the disk holds the input once.
public final class TextSource {
    /// The name used in errors (`<stdin>` for standard input).
    public let name: String
    /// The input's encoding; nil for UTF-8, with byte order marks honoured.
    public let encoding: TextEncoding?
    private let path: String
    /// Bytes already read from standard input, read again first.
    private let prefix: [UInt8]
    /// The input and the spool it is copied to, until the first pass takes them.
    private var firstPass: (input: Int32, spool: Int32)?
    private var folder: TemporaryFolder?
    private var spoolDescriptor: Int32 = -1
    private var slot = -1

    /// The text at `path` (`-` for standard input) in `encoding`; when `rereadable`, input
    /// that cannot be opened twice is spooled as it is first read. `prefix` holds the bytes
    /// already taken from standard input to tell what it holds; they are read first. `name`,
    /// when given, is the one errors use (a decompressed copy's source).
    public init(path: String, prefix: [UInt8] = [], encoding: TextEncoding? = nil, rereadable: Bool = true, name: String? = nil) throws {
        self.name = name ?? (path == "-" ? "<stdin>" : path)
        self.encoding = encoding
        self.prefix = path == "-" ? prefix : []
        var status = stat()
        guard rereadable, path == "-" || stat(path, &status) != 0 || (status.st_mode & S_IFMT) != S_IFREG else {
            self.path = path
            return
        }
        // Opened before the folder is made, so that a missing file is reported as such.
        let input = path == "-" ? 0 : SystemIO.open(path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw ReaderError(.io, file: path, "cannot open: \(String(cString: strerror(errno)))") }
        let folder: TemporaryFolder
        do {
            folder = try TemporaryFolder()
        } catch {
            if input != 0 { close(input) }
            throw error
        }
        guard let (spool, descriptor) = TemporaryName.file(folder.path + "/input-XXXXXX") else {
            if input != 0 { close(input) }
            throw ReaderError(.io, file: self.name, "cannot create a temporary file to read it twice: \(String(cString: strerror(errno)))")
        }
        self.path = spool
        self.folder = folder
        spoolDescriptor = descriptor
        slot = PendingFiles.register(spool)
        firstPass = (input, descriptor)
    }

    deinit {
        if let input = firstPass?.input, input != 0 { close(input) }
        if spoolDescriptor >= 0 { close(spoolDescriptor) }
        folder?.remove()
        PendingFiles.unregister(slot)
    }

    /// The input's size in bytes, when known before it is read, for progress.
    public var size: Int64? {
        var status = stat()
        guard firstPass == nil, path != "-", stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(status.st_size)
    }

    /// A reader of the text from its start. Spooled input is read from the copy only after
    /// a first reader has read it to the end.
    public func open() throws -> ByteInput {
        guard let (input, spool) = firstPass else {
            guard path == "-" else { return try ByteInput(path: path, encoding: encoding, name: name) }
            return try ByteInput(descriptor: 0, ownsDescriptor: false, name: name, prefix: prefix, encoding: encoding, copy: -1)
        }
        firstPass = nil
        return try ByteInput(descriptor: input, ownsDescriptor: input != 0, name: name, prefix: prefix, encoding: encoding, copy: spool)
    }
}
