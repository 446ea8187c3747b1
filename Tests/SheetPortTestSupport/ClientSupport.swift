import Foundation
import Testing
import SheetPortCore
import SheetPortWriter
import SheetPortClient
import SheetPortReader
import SheetPortConvert
import SheetPortServer

/// The server tests' `TestServer` (the real server on a loopback ephemeral port) in a folder of
/// its own, with what the client tests need: token files, library connections, imports;
/// `stop()` stops the server and removes the folder.
package final class ClientFixture: @unchecked Sendable {
    package let folder: URL
    package let server: TestServer
    /// `http://127.0.0.1:PORT`.
    package var url: String { server.base }
    /// The port the server listens on.
    package var port: Int { Int(url.split(separator: ":").last ?? "") ?? 0 }

    package init(_ configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        folder = try temporaryFolder()
        server = try TestServer(folder: folder, configure: configure)
    }

    deinit { stop() }

    /// Issues a token for `subject` and writes it to a file (mode 0600); returns the file.
    package func tokenFile(subject: String) throws -> String {
        let token = try server.token(subject)
        let file = folder.appendingPathComponent("token-\(subject)").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data(token.utf8), attributes: [.posixPermissions: 0o600]))
        return file
    }

    /// A library connection as `subject`.
    package func connection(subject: String, retry: RetryPolicy = RetryPolicy()) throws -> ServerConnection {
        try ServerConnection(url: url, token: try ServerConnection.token(file: try tokenFile(subject: subject)), retry: retry)
    }

    /// Imports `file` through the library and waits; returns the sheet created.
    package func importWorkbook(_ file: String, as connection: ServerConnection) throws -> RemoteSheet {
        let client = HTTPClient()
        let job = try ImportUpload(file: file).start(on: connection, client: client)
        let done = try JobPoller(connection: connection, jobID: job.id).wait(client: client)
        #expect(done.status == .succeeded, "\(done.errorCode?.rawValue ?? ""): \(done.errorMessage)")
        return try #require(done.sheet)
    }

    /// Stops the server and removes the folder.
    package func stop() {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// Polls `condition` every 10 ms for up to `seconds`; whether it held.
package func eventually(within seconds: Double = 30, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        usleep(10_000)
    }
    return false
}

/// The export staging directories (`sheetport-export-*`) in `folder`.
package func exportStaging(in folder: URL) -> [URL] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasPrefix("sheetport-export-") }.map { folder.appendingPathComponent($0) }
}

/// A listening TCP socket on 127.0.0.1 at an ephemeral port: its descriptor and port.
package func listenOnLoopback(_ what: String) throws -> (descriptor: Int32, port: Int) {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
    guard bound == 0, listen(descriptor, 64) == 0 else {
        close(descriptor)
        throw ClientError.io(file: what, message: "cannot listen on 127.0.0.1")
    }
    withUnsafeMutablePointer(to: &address) { pointer in
        _ = pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
}

/// A TCP relay on 127.0.0.1 in front of a server, with real sockets, that breaks the answer to
/// a request starting with `requestPrefix` once `afterBytes` bytes of it have been passed on,
/// in one of three ways (`Fault`). Faults made here are exact to the byte, whatever the kernel's
/// socket buffers hold (killing a real server, or limiting the client's speed, races them: a
/// whole answer may already sit in a send buffer).
package final class DroppingRelay: @unchecked Sendable {
    /// What happens at the cut.
    package enum Fault {
        /// The first such request's connection is cut; later ones pass. With `POST /api/imports`
        /// and 0 bytes: the server has the whole upload (and made its job) but the client never
        /// hears back; with an export and some bytes: the download breaks off in the middle.
        case cut
        /// As `cut`, and the relay stops listening as it cuts, so every later connection is
        /// refused: to the client, a server that died in the middle of its answer.
        case cutAndRefuse
        /// Every such answer stops after `afterBytes` with its connection held open: a server
        /// that stalls in the middle of its answer, for deadlines to end.
        case stall
    }

    package let port: Int
    private let target: Int
    private let listener: Int32
    private let lock = NSLock()
    private var armed = true
    /// Bytes of the answer passed on, by client socket, for the connections being broken.
    private var passed: [Int32: Int] = [:]
    private let requestPrefix: String
    private let afterBytes: Int
    private let fault: Fault
    private var broken = false
    /// Whether an answer was broken off.
    package var dropped: Bool { lock.withLock { broken } }

    package init(targetPort: Int, cutting requestPrefix: String = "POST /api/imports", afterBytes: Int = 0, fault: Fault = .cut) throws {
        target = targetPort
        self.requestPrefix = requestPrefix
        self.afterBytes = afterBytes
        self.fault = fault
        (listener, port) = try listenOnLoopback("relay")
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 { return }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(target).bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { close(client); close(server); continue }
            Thread.detachNewThread { [self] in pump(from: client, to: server, upstream: true, pair: client) }
            Thread.detachNewThread { [self] in pump(from: server, to: client, upstream: false, pair: client) }
        }
    }

    private func pump(from source: Int32, to destination: Int32, upstream: Bool, pair: Int32) {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(source, &buffer, buffer.count)
            if count <= 0 { break }
            lock.lock()
            if upstream, armed, String(decoding: buffer[..<min(count, 256)], as: UTF8.self).hasPrefix(requestPrefix) {
                armed = fault == .stall
                passed[pair] = 0
            }
            var forward = count
            if !upstream, let before = passed[pair] {
                forward = max(0, min(count, afterBytes - before))
                passed[pair] = before + forward
            }
            let cut = forward < count && fault != .stall
            if forward < count {
                broken = true
                // Before the cut is seen: a retry must find nobody listening. (shutdown on a
                // listening socket stops it and wakes the accept loop, which then ends.)
                if fault == .cutAndRefuse { shutdown(listener, Int32(SHUT_RDWR)) }
            }
            if cut { passed[pair] = nil }
            lock.unlock()
            var offset = 0
            while offset < forward {
                // send with MSG_NOSIGNAL: a peer that has gone must not raise SIGPIPE in the test process.
                let written = buffer.withUnsafeBytes { send(destination, $0.baseAddress! + offset, forward - offset, Int32(MSG_NOSIGNAL)) }
                if written <= 0 { break }
                offset += written
            }
            if cut { break }
        }
        // A stalled answer's connection stays open, whatever the server does next.
        if !upstream, fault == .stall, lock.withLock({ (passed[pair] ?? 0) >= afterBytes }) { return }
        shutdown(source, Int32(SHUT_RDWR))
        shutdown(destination, Int32(SHUT_RDWR))
    }

    deinit { close(listener) }
}

/// A workbook of about `megabytes` MB that is cheap to check: a small first worksheet and one
/// stored (uncompressed) entry of random bytes, written by Python's zipfile, streamed.
package func makeBulkyWorkbook(megabytes: Int, in folder: URL) throws -> String {
    let path = folder.appendingPathComponent("bulky.xlsx").path
    let script = """
    import os, sys, zipfile
    path, size = sys.argv[1], int(sys.argv[2]) << 20
    ct = '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="bin" ContentType="application/octet-stream"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>'
    rels = '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>'
    wb = '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>'
    wbrels = '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'
    sheet = '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' + ''.join('<row r="%d"><c r="A%d"><v>%d</v></c></row>' % (i, i, i) for i in range(1, 101)) + '</sheetData></worksheet>'
    with zipfile.ZipFile(path, 'w', zipfile.ZIP_DEFLATED) as z:
        for name, text in [('[Content_Types].xml', ct), ('_rels/.rels', rels), ('xl/workbook.xml', wb), ('xl/_rels/workbook.xml.rels', wbrels), ('xl/worksheets/sheet1.xml', sheet)]:
            z.writestr(name, text)
        with z.open(zipfile.ZipInfo('xl/bulk/padding.bin'), 'w', force_zip64=True) as out:
            z.compression = zipfile.ZIP_STORED
            left = size
            while left > 0:
                chunk = os.urandom(min(left, 1 << 20)); out.write(chunk); left -= len(chunk)
    """
    let generator = Process()
    generator.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    generator.arguments = ["python3", "-c", script, path, String(megabytes)]
    try generator.run()
    generator.waitUntilExit()
    #expect(generator.terminationStatus == 0)
    return path
}

/// A workbook whose first worksheet is `rows` rows of two 1,000-character strings of random
/// letters (about 1.5 MB of xlsx a thousand rows): large to download, quick to import and export;
/// a few thousand rows are enough to make it large.
package func makeTextWorkbook(rows: Int, in folder: URL) throws -> String {
    let path = folder.appendingPathComponent("text.xlsx").path
    let writer = try WorkbookWriter(path: path, options: { var options = WriterOptions(); options.sharedStrings = false; return options }())
    let sheet = try writer.addWorksheet(named: "Text")
    var generator = SystemRandomNumberGenerator()
    let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
    func text() -> String {
        String(decoding: (0..<1_000).map { _ in letters[Int(generator.next() % UInt64(letters.count))] }, as: UTF8.self)
    }
    for row in 1...rows {
        try sheet.append(Row(index: row, cells: [Cell(column: 1, value: .string(text())), Cell(column: 2, value: .string(text()))]))
    }
    try writer.close()
    return path
}
