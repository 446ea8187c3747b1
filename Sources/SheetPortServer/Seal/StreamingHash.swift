import CSodium

/// A 32-byte BLAKE2b hash (crypto_generichash, as `Sodium.hash`) of bytes that arrive in pieces,
/// such as an upload as it streams in: nothing is kept but the hash state.
final class StreamingHash {
    private let state: UnsafeMutableRawPointer

    /// An empty hash.
    init() {
        _ = try? Sodium.initialize()
        // Allocated by hand: the state is 64-byte aligned, and Swift sees its type only as opaque.
        state = UnsafeMutableRawPointer.allocate(byteCount: crypto_generichash_statebytes(), alignment: 64)
        crypto_generichash_init(OpaquePointer(state), nil, 0, 32)
    }

    deinit { state.deallocate() }

    /// Adds `bytes`.
    func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        crypto_generichash_update(OpaquePointer(state),
                                  base.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count))
    }

    /// The hash of everything added (call once).
    func finish() -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        crypto_generichash_final(OpaquePointer(state), &output, 32)
        return output
    }
}
