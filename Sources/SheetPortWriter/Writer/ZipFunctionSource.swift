import CLibZip

/// A libzip source whose bytes a C callback serves, as the package file (`ArchiveFile`) and a
/// streamed entry (`StreamedEntry`) both are.
enum ZipFunctionSource {
    /// The source `callback` serves with `owner` as its user data (unretained: the owner outlives
    /// the source); `WriterError.io` naming `file` when libzip cannot make one.
    static func make(_ callback: zip_source_callback, for owner: AnyObject, file: String) throws -> OpaquePointer {
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        guard let source = zip_source_function_create(callback, Unmanaged.passUnretained(owner).toOpaque(), &error) else {
            throw WriterError.io(file: file, message: "libzip: \(String(cString: zip_error_strerror(&error)))")
        }
        return source
    }
}
