#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Temporary files and staging directories in flight, kept where a signal handler can
/// remove them: fixed C buffers, async-signal-safe to read, unlike Swift strings.
public enum PendingFiles {
    private static let slots = 64
    private static let length = 4096
    nonisolated(unsafe) private static let paths = UnsafeMutablePointer<CChar>.allocate(capacity: slots * length)
    nonisolated(unsafe) private static let active: UnsafeMutablePointer<sig_atomic_t> = {
        let flags = UnsafeMutablePointer<sig_atomic_t>.allocate(capacity: slots)
        flags.initialize(repeating: 0, count: slots)
        return flags
    }()
    nonisolated(unsafe) private static var lock = pthread_mutex_t()
    private static let childSlots = 8
    nonisolated(unsafe) private static let children: UnsafeMutablePointer<pid_t> = {
        let pids = UnsafeMutablePointer<pid_t>.allocate(capacity: childSlots)
        pids.initialize(repeating: 0, count: childSlots)
        return pids
    }()
    /// [0]: how many children are being started; [1]: the exit status of a signal held meanwhile.
    nonisolated(unsafe) private static let held: UnsafeMutablePointer<sig_atomic_t> = {
        let state = UnsafeMutablePointer<sig_atomic_t>.allocate(capacity: 2)
        state.initialize(repeating: 0, count: 2)
        return state
    }()

    /// Starts a child process with `start` (one in a process group of its own, which a
    /// terminal's Ctrl-C does not reach) and registers it to send SIGTERM on SIGINT or SIGTERM;
    /// returns its slot, or -1. A signal that arrives while the child is started is held until
    /// it is registered: acted on at once, it would exit and leave the child running.
    @discardableResult
    public static func registerChild(startedBy start: () throws -> pid_t) rethrows -> Int {
        holdSignals(by: 1)
        defer { holdSignals(by: -1) }
        let pid = try start()
        return claim(in: children, count: childSlots, setting: pid)
    }

    /// Counts one more (or one fewer) child being started; at none, a signal held meanwhile
    /// stops what is registered and exits.
    private static func holdSignals(by change: sig_atomic_t) {
        pthread_mutex_lock(&lock)
        held[0] += change
        let starting = held[0]
        pthread_mutex_unlock(&lock)
        if starting == 0, held[1] != 0 { removeAndExit(held[1]) }
    }

    /// Forgets a child once it has been stopped.
    public static func unregisterChild(_ slot: Int) {
        release(slot, in: children, count: childSlots)
    }

    /// Registers a file or a directory to remove on SIGINT or SIGTERM; returns its slot,
    /// or -1 when all slots are taken (the path is then not removed by a signal).
    @discardableResult
    package static func register(_ path: String) -> Int {
        claim(in: active, count: slots, setting: 1) { slot in
            let bytes = Array(path.utf8CString.prefix(length - 1))
            let base = paths + slot * length
            for (index, byte) in bytes.enumerated() { base[index] = byte }
            base[min(bytes.count, length - 1)] = 0
        }
    }

    /// Forgets a slot once its path is published or removed.
    package static func unregister(_ slot: Int) {
        release(slot, in: active, count: slots)
    }

    /// Under the lock, the first free (0) slot of `table`: `fill` writes what it holds, then it
    /// is set to `value` (so a signal handler never sees a half-written slot); -1 when all are taken.
    private static func claim<Slot: BinaryInteger>(in table: UnsafeMutablePointer<Slot>, count: Int, setting value: Slot,
                                                   _ fill: (Int) -> Void = { _ in }) -> Int {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        guard let slot = (0..<count).first(where: { table[$0] == 0 }) else { return -1 }
        fill(slot)
        table[slot] = value
        return slot
    }

    /// Frees `slot` of `table` under the lock; a slot out of range (-1, none was free) is ignored.
    private static func release<Slot: BinaryInteger>(_ slot: Int, in table: UnsafeMutablePointer<Slot>, count: Int) {
        guard slot >= 0 && slot < count else { return }
        pthread_mutex_lock(&lock)
        table[slot] = 0
        pthread_mutex_unlock(&lock)
    }

    /// Installs SIGINT and SIGTERM handlers that stop registered children, remove the pending files and exit
    /// with 130 or 143 (Docs/Reference/CLI.md), and ignores SIGXFSZ so that a file-size limit
    /// is an I/O error that cleans up.
    public static func removeOnSignals() {
        signal(SIGINT) { _ in PendingFiles.signalled(130) }
        signal(SIGTERM) { _ in PendingFiles.signalled(143) }
        prepareSignals()
    }

    /// What every cancellable command needs besides its SIGINT and SIGTERM handlers: SIGXFSZ
    /// ignored and the two signals unblocked.
    package static func prepareSignals() {
        // Past a file-size limit (`ulimit -f`) a write should fail with EFBIG, so the error
        // path cleans up, rather than the process being killed with its files left behind.
        signal(SIGXFSZ, SIG_IGN)
        // A parent may have started us with these signals blocked (the mask is inherited
        // through exec); cancelling must work all the same.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// The names of the files a staging directory may hold: the archive being built and
    /// the next version libzip writes beside it.
    package static let stagedFileNames: (StaticString, StaticString) = ("workbook.xlsx", "workbook.xlsx.next")

    /// A signal's handling: held while a child is being started (the status is kept first, so
    /// that the one finishing the start sees it), else stop, remove and exit now.
    private static func signalled(_ status: Int32) {
        held[1] = status
        if held[0] == 0 { removeAndExit(status) }
    }

    /// Removes what is registered (files first, then staging directories with the files
    /// they may hold) with async-signal-safe calls only, and exits.
    private static func removeAndExit(_ status: Int32) -> Never {
        for slot in 0..<childSlots where children[slot] > 0 { kill(children[slot], SIGTERM) }
        for slot in 0..<slots where active[slot] != 0 { unlink(paths + slot * length) }
        for slot in 0..<slots where active[slot] != 0 {
            let directory = paths + slot * length
            let directoryFD = open(directory, O_RDONLY | O_DIRECTORY)
            guard directoryFD >= 0 else { continue }
            unlinkat(directoryFD, cString(stagedFileNames.0), 0)
            unlinkat(directoryFD, cString(stagedFileNames.1), 0)
            close(directoryFD)
            rmdir(directory)
        }
        _exit(status)
    }

    private static func cString(_ text: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
    }
}

/// Unique names for temporary files and folders: the `XXXXXX` at the end of a template
/// filled in by `mkstemp` or `mkdtemp`, so the name cannot be taken by someone else.
package enum TemporaryName {
    /// Creates a file (mode 0600); its path and open descriptor, nil with `errno` set.
    package static func file(_ template: String) -> (path: String, descriptor: Int32)? {
        var bytes = Array(template.utf8CString)
        let descriptor = bytes.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        return descriptor >= 0 ? (path(bytes), descriptor) : nil
    }

    /// Creates a folder (mode 0700); its path, nil with `errno` set.
    static func directory(_ template: String) -> String? {
        var bytes = Array(template.utf8CString)
        return bytes.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil ? path(bytes) : nil
    }

    private static func path(_ bytes: [CChar]) -> String {
        String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
