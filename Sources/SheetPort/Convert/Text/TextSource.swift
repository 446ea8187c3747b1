#if canImport(Glibc)
import Glibc
#endif

/// A text input that can be read more than once, as deciding column types needs (one pass
/// decides, the next writes): a regular file is opened again; standard input, a pipe or a
/// device is first copied to a private temporary file (mode 0600, in a folder of mode 0700),
/// removed when the source is released, and on SIGINT or SIGTERM through `PendingFiles`.
public final class TextSource {
    /// The name used in errors (`<stdin>` for standard input).
    public let name: String
    /// The input's encoding; nil for UTF-8, with byte order marks honoured.
    public let encoding: TextEncoding?
    private let path: String
    private var folder: TemporaryFolder?
    private var slot = -1

    /// The text at `path` (`-` for standard input) in `encoding`; when `rereadable`, input
    /// that cannot be opened twice is spooled first.
    public init(path: String, encoding: TextEncoding? = nil, rereadable: Bool = true) throws {
        name = path == "-" ? "<stdin>" : path
        self.encoding = encoding
        var status = stat()
        guard rereadable, path == "-" || stat(path, &status) != 0 || (status.st_mode & S_IFMT) != S_IFREG else {
            self.path = path
            return
        }
        // Opened before the folder is made, so that a missing file is reported as such.
        let input = path == "-" ? 0 : Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw ReaderError(.io, file: path, "cannot open: \(String(cString: strerror(errno)))") }
        defer { if input != 0 { close(input) } }
        let folder = try TemporaryFolder()
        guard let (spool, output) = TemporaryName.file(folder.path + "/input-XXXXXX") else {
            throw ReaderError(.io, file: name, "cannot create a temporary file to read it twice: \(String(cString: strerror(errno)))")
        }
        self.folder = folder
        self.path = spool
        slot = PendingFiles.register(spool)
        defer { close(output) }
        do {
            try Self.copy(from: input, to: output, name: name)
        } catch {
            remove()
            throw error
        }
    }

    deinit { remove() }

    /// Removes the spooled copy, if any.
    private func remove() {
        folder?.remove()
        folder = nil
        PendingFiles.unregister(slot)
        slot = -1
    }

    /// The input's size in bytes, when known, for progress.
    public var size: Int64? {
        var status = stat()
        guard path != "-", stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(status.st_size)
    }

    /// A reader of the text from its start.
    public func open() throws -> ByteInput {
        try ByteInput(path: path, encoding: encoding, name: name)
    }

    /// Copies everything `input` holds to `output`.
    private static func copy(from input: Int32, to output: Int32, name: String) throws {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ReaderError(.io, file: name, "cannot read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { return }
            var written = 0
            while written < count {
                let result = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, count - written) }
                if result < 0 {
                    if errno == EINTR { continue }
                    throw ReaderError(.io, file: name, "cannot copy to a temporary file to read it twice: \(String(cString: strerror(errno)))")
                }
                written += result
            }
        }
    }
}
