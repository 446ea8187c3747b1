#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The POSIX calls of the byte streams, under names apart from their own `read`, `write` and
/// `close` methods (which shadow the C functions inside those types), on Glibc and Darwin alike.
package enum SystemIO {
    /// read(2).
    package static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        posixRead(descriptor, buffer, count)
    }

    /// write(2).
    package static func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        posixWrite(descriptor, buffer, count)
    }

    /// close(2).
    @discardableResult
    package static func close(_ descriptor: Int32) -> Int32 { posixClose(descriptor) }

    /// open(2) of an existing file, without creating it.
    package static func open(_ path: String, _ flags: Int32) -> Int32 { posixOpen(path, flags) }
}

// At file scope the C functions are not shadowed by the methods above, so one unqualified
// call serves whichever C library was imported.
private func posixRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(descriptor, buffer, count) }
private func posixWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(descriptor, buffer, count) }
private func posixClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
private func posixOpen(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }
