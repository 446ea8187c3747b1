import SheetPortCore
/// What `WorkbookWriter` writes its package through: `Packager` (libzip: a file built in a
/// staging directory and published at a path) or `StreamPackager` (libarchive: bytes handed
/// to a sink as they are made, for an answer whose first byte must not wait for the last).
protocol Packaging: AnyObject {
    /// Starts the entry `name` (a worksheet), written through the returned stream; call its
    /// `finish()` before starting another.
    func beginStreamedEntry(_ name: String) throws -> any EntrySink
    /// Adds the parts held in memory and ends the package.
    func finish(parts: [(name: String, bytes: [UInt8])]) throws
    /// Abandons the package: nothing is published.
    func discard()
}

/// One entry being streamed: the caller sends its bytes into `pipe`, deflated on another
/// thread, then calls `finish()`, or `abort()` to give it up.
protocol EntrySink: AnyObject {
    /// Where the entry's bytes go.
    var pipe: ChunkPipe { get }
    /// Ends the entry and waits until it is packed; throws the packer's reason if it failed.
    func finish() throws
    /// Abandons the entry.
    func abort()
}
