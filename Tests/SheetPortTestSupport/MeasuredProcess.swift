import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `arguments` (the executable first) as a child process with its output discarded and
/// returns its exit status and its own peak resident memory, from wait4's rusage: a figure of
/// that process alone, whatever else the test process runs at the time.
package func runMeasured(_ arguments: [String]) throws -> (status: Int32, peakKiB: Int) {
    var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
    guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
        guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }
    let exited = status & 0x7F == 0
    #if canImport(Darwin)
    let peakKiB = Int(usage.ru_maxrss) / 1024   // bytes on Darwin
    #else
    let peakKiB = Int(usage.ru_maxrss)          // KiB on Linux
    #endif
    return (exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F), peakKiB)
}
