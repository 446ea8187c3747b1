#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SheetPortCore

/// The server's front door: it owns the listening socket, accepts connections, and looks at
/// each request head (peeking, so nothing is consumed) before libmicrohttpd sees the
/// connection. A well-formed head hands the connection to libmicrohttpd; any other is answered
/// here with a JSON error (libmicrohttpd would answer HTML, and some cases twice). It keeps
/// the connection limits, counting the connections waiting here and those whose request
/// libmicrohttpd is serving (`released(client:)` when it ends): at most `connections` in all
/// and `connectionsPerClient` from one address (more are closed as they come). A connection
/// waits here at most `idleTimeout` for its head; one thread polls them all, so a silent or
/// slow client holds no thread.
final class ConnectionGate: @unchecked Sendable {
    /// The bound port.
    let port: UInt16
    private let listener: Int32
    private let wakeup: (read: Int32, write: Int32)
    private let limits: ConnectionLimits
    private let handOff: @Sendable (Int32, sockaddr_in) -> Bool
    private let lock = NSLock()
    private var isStopping = false
    /// Connections per client address, waiting here or served.
    private var admitted: [UInt32: Int] = [:]
    /// Connections handed off whose request has not ended.
    private var serving = 0
    private let thread = JoinableThread()

    /// A connection whose head is not complete yet.
    private struct Waiting {
        let socket: Int32
        let address: sockaddr_in
        let deadline: Double
        var nextLook: Double
        var seen = 0
    }

    /// Listens on `address`; `handOff` takes each connection with a well-formed head (false:
    /// it could not, and closed it).
    init(address: ListenAddress, limits: ConnectionLimits, handOff: @escaping @Sendable (Int32, sockaddr_in) -> Bool) throws {
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = address.port.bigEndian
        guard inet_pton(AF_INET, address.host, &socketAddress.sin_addr) == 1 else {
            throw ServerError.configuration("--listen needs an IPv4 address, not \"\(address.host)\"")
        }
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = listener >= 0 && withUnsafeMutablePointer(to: &socketAddress) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 1024) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        var pipeEnds: [Int32] = [-1, -1]
        guard listening, pipe(&pipeEnds) == 0 else {
            if listener >= 0 { close(listener) }
            throw ServerError.startFailed("cannot listen on \(address.host):\(address.port) (in use, or not an address of this machine)")
        }
        for descriptor in pipeEnds { Self.detach(descriptor) }
        self.listener = listener
        wakeup = (pipeEnds[0], pipeEnds[1])
        port = UInt16(bigEndian: socketAddress.sin_port)
        self.limits = limits
        self.handOff = handOff
    }

    /// Starts accepting.
    func start() {
        thread.start(named: "sheetport-gate") { [self] in run() }
    }

    /// Stops accepting, closes the connections still waiting and the listening socket.
    func stop() {
        let first: Bool = lock.withLock {
            defer { isStopping = true }
            return !isStopping
        }
        guard first else { return }
        var byte: UInt8 = 1
        _ = write(wakeup.write, &byte, 1)
        thread.join()
        close(listener)
    }

    deinit {
        close(wakeup.read)
        close(wakeup.write)
    }

    /// The request of a connection handed off from `client` has ended: room for another.
    func released(client: UInt32) {
        let wake: Bool = lock.withLock {
            serving -= 1
            unadmit(client)
            return !isStopping
        }
        var byte: UInt8 = 1
        if wake { _ = write(wakeup.write, &byte, 1) }
    }

    /// Counts a connection from `client` in, unless the address has its share; under `lock`.
    private func admit(_ client: UInt32) -> Bool {
        guard (admitted[client] ?? 0) < limits.connectionsPerClient else { return false }
        admitted[client, default: 0] += 1
        return true
    }

    /// Counts a connection from `client` out; under `lock`.
    private func unadmit(_ client: UInt32) {
        let count = (admitted[client] ?? 1) - 1
        admitted[client] = count > 0 ? count : nil
    }

    private var stopping: Bool { lock.withLock { isStopping } }

    /// Makes `descriptor` non-blocking and closed on exec.
    private static func detach(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private func run() {
        var waiting: [Waiting] = []
        var buffer = [UInt8](repeating: 0, count: RequestHead.maxBytes + 1)
        /// Out of descriptors (EMFILE) the listening socket stays readable: pause it until then.
        var listenAgain = 0.0
        /// Drops a waiting connection (`handedOff`: now counted as served).
        func remove(_ index: Int, handedOff: Bool = false) {
            let client = waiting[index].address.sin_addr.s_addr
            lock.withLock {
                if handedOff { serving += 1 } else { unadmit(client) }
            }
            waiting.remove(at: index)
        }
        while !stopping {
            let start = Self.now()
            var descriptors = [pollfd(fd: wakeup.read, events: Int16(POLLIN), revents: 0)]
            let accepting = waiting.count + lock.withLock({ serving }) < limits.connections && start >= listenAgain
            if accepting { descriptors.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0)) }
            var polled: [Int] = []
            var next = start < listenAgain ? min(start + 1, listenAgain) : start + 1
            for (index, entry) in waiting.enumerated() {
                next = min(next, entry.deadline)
                if entry.nextLook <= start {
                    descriptors.append(pollfd(fd: entry.socket, events: Int16(POLLIN), revents: 0))
                    polled.append(index)
                } else {
                    next = min(next, entry.nextLook)
                }
            }
            let timeout = Int32(max(0, min(1000, (next - start) * 1000)).rounded(.up))
            guard poll(&descriptors, nfds_t(descriptors.count), timeout) >= 0 || errno == EINTR else { break }
            if descriptors[0].revents != 0 {
                // Stopping, or room after a served request ended.
                var scratch = [UInt8](repeating: 0, count: 256)
                while read(wakeup.read, &scratch, scratch.count) > 0 {}
                continue
            }
            let now = Self.now()

            // Heads that arrived (or connections that ended), newest last so removal keeps indexes.
            let offset = accepting ? 2 : 1
            for (position, index) in polled.enumerated().reversed() where descriptors[offset + position].revents != 0 {
                let socket = waiting[index].socket
                let count = recv(socket, &buffer, buffer.count, Int32(MSG_PEEK | MSG_DONTWAIT))
                if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { continue }
                guard count > 0 else {
                    close(socket) // ended (or failed) before its head was in
                    remove(index)
                    continue
                }
                let verdict = buffer.withUnsafeBytes { RequestHead.check(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
                switch verdict {
                case .incomplete:
                    // Look again after a pause, not at every byte a slow client sends; longer
                    // when nothing came since the last look (the bytes stay readable).
                    waiting[index].nextLook = now + (count > waiting[index].seen ? 0.05 : 0.25)
                    waiting[index].seen = count
                case .valid:
                    let address = waiting[index].address
                    remove(index, handedOff: true)
                    if !handOff(socket, address) {
                        lock.withLock {
                            serving -= 1
                            unadmit(address.sin_addr.s_addr)
                        }
                    }
                case .refused(let status, let code, let message):
                    refuse(socket, .error(status, code, message))
                    remove(index)
                }
            }

            // Heads not in by their deadline.
            for index in waiting.indices.reversed() where waiting[index].deadline <= now {
                let entry = waiting[index]
                if entry.seen > 0 {
                    refuse(entry.socket, .error(408, .requestTimeout, "the request head did not arrive within \(limits.idleTimeout) s"))
                } else {
                    close(entry.socket)
                }
                remove(index)
            }

            // New connections, within the limits.
            guard accepting, descriptors[1].revents != 0 else { continue }
            while waiting.count + lock.withLock({ serving }) < limits.connections {
                var address = sockaddr_in()
                var length = socklen_t(MemoryLayout<sockaddr_in>.size)
                let socket = withUnsafeMutablePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        accept(listener, $0, &length)
                    }
                }
                guard socket >= 0 else {
                    if ![EAGAIN, EWOULDBLOCK, EINTR, ECONNABORTED].contains(errno) { listenAgain = now + 0.1 }
                    break
                }
                Self.detach(socket)
                guard lock.withLock({ admit(address.sin_addr.s_addr) }) else {
                    close(socket) // this address already has its share
                    continue
                }
                waiting.append(Waiting(socket: socket, address: address, deadline: now + Double(limits.idleTimeout), nextLook: now))
            }
        }
        for entry in waiting { close(entry.socket) }
    }

    /// Answers a refused connection and closes it, first reading what it already sent, so the
    /// close does not reset the connection before the client reads the answer.
    private func refuse(_ socket: Int32, _ reply: Reply) {
        reply.sendClosing(on: socket)
        var scratch = [UInt8](repeating: 0, count: 64 * 1024)
        var reads = 0
        while reads < 16, recv(socket, &scratch, scratch.count, Int32(MSG_DONTWAIT)) > 0 { reads += 1 }
        close(socket)
    }
}
