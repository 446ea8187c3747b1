import CSodium
#if canImport(Glibc)
import Glibc
#endif

/// Authenticated encryption at rest: XChaCha20-Poly1305 (libsodium's IETF AEAD) with a random
/// 24-byte nonce per record. A sealed record is `nonce || ciphertext || tag`; the associated
/// data binds it to where it belongs (a sheet and block number, a staging file and block), so
/// records cannot be swapped or moved without failing to open.
package struct Sealer: Sendable {
    /// Bytes a sealed record adds to its plaintext (nonce and tag).
    package static let overhead = nonceLength + tagLength
    static let nonceLength = Int(crypto_aead_xchacha20poly1305_ietf_NPUBBYTES)
    static let tagLength = Int(crypto_aead_xchacha20poly1305_ietf_ABYTES)
    /// The key length in bytes.
    package static let keyLength = Int(crypto_aead_xchacha20poly1305_ietf_KEYBYTES)

    private let key: [UInt8]

    /// A sealer with a 32-byte key.
    package init(key: [UInt8]) throws {
        try Sodium.initialize()
        guard key.count == Self.keyLength else { throw ServerError.configuration("a sealing key has \(Self.keyLength) bytes, not \(key.count)") }
        self.key = key
    }

    /// Seals `plaintext` bound to `context`.
    package func seal(_ plaintext: UnsafeRawBufferPointer, context: [UInt8]) -> [UInt8] {
        // Every byte is written (nonce, ciphertext, tag): no zeroing first.
        [UInt8](unsafeUninitializedCapacity: plaintext.count + Self.overhead) { output, count in
            let nonce = output.baseAddress!
            randombytes_buf(nonce, Self.nonceLength)
            var length: UInt64 = 0
            _ = crypto_aead_xchacha20poly1305_ietf_encrypt(
                nonce + Self.nonceLength, &length,
                plaintext.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(plaintext.count),
                context, UInt64(context.count), nil, nonce, key)
            count = Self.nonceLength + Int(length)
        }
    }

    /// Seals `plaintext` bound to `context`.
    package func seal(_ plaintext: [UInt8], context: [UInt8]) -> [UInt8] {
        plaintext.withUnsafeBytes { seal($0, context: context) }
    }

    /// Opens a record sealed with `context`; throws `ServerError.unsealFailed` when it does not
    /// authenticate. `what` names it in the error.
    package func open(_ sealed: UnsafeRawBufferPointer, context: [UInt8], what: String) throws -> [UInt8] {
        guard sealed.count >= Self.overhead else { throw ServerError.unsealFailed(what: what) }
        var status: Int32 = -1
        // On success every byte is written; on failure the array is dropped.
        let plaintext = [UInt8](unsafeUninitializedCapacity: max(1, sealed.count - Self.overhead)) { output, count in
            let nonce = sealed.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var length: UInt64 = 0
            status = crypto_aead_xchacha20poly1305_ietf_decrypt(
                output.baseAddress, &length, nil,
                nonce + Self.nonceLength, UInt64(sealed.count - Self.nonceLength),
                context, UInt64(context.count), nonce, key)
            count = status == 0 ? Int(length) : 0
        }
        guard status == 0 else { throw ServerError.unsealFailed(what: what) }
        return plaintext
    }

    /// Opens a record sealed with `context`.
    package func open(_ sealed: [UInt8], context: [UInt8], what: String) throws -> [UInt8] {
        try sealed.withUnsafeBytes { try open($0, context: context, what: what) }
    }

    /// Associated data made of a label, an identifier and a number.
    package static func context(_ label: String, _ id: String, _ number: Int = 0) -> [UInt8] {
        var bytes = Array(label.utf8) + [0] + Array(id.utf8) + [0]
        withUnsafeBytes(of: UInt64(number).littleEndian) { bytes.append(contentsOf: $0) }
        return bytes
    }
}

/// libsodium's one-time initialization, plus random bytes and hashing.
package enum Sodium {
    private static let status: Int32 = sodium_init()

    /// Initializes libsodium (once; later calls are free).
    package static func initialize() throws {
        guard status >= 0 else { throw ServerError.startFailed("libsodium cannot initialize") }
    }

    /// `count` random bytes from the system's CSPRNG.
    package static func randomBytes(_ count: Int) -> [UInt8] {
        _ = status
        var bytes = [UInt8](repeating: 0, count: count)
        randombytes_buf(&bytes, count)
        return bytes
    }

    /// A 32-byte BLAKE2b hash (crypto_generichash) of `bytes`.
    package static func hash(_ bytes: [UInt8]) -> [UInt8] {
        _ = status
        var output = [UInt8](repeating: 0, count: 32)
        crypto_generichash(&output, 32, bytes, UInt64(bytes.count), nil, 0)
        return output
    }

    /// Lower-case hexadecimal.
    package static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes { text += [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]] }
        return String(decoding: text, as: UTF8.self)
    }

    /// A random identifier: 16 random bytes in hexadecimal.
    package static func identifier() -> String { hex(randomBytes(16)) }
}
