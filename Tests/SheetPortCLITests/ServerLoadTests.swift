import Foundation
import Testing
@testable import SheetPortClient
@testable import SheetPortServer
import SheetPortTestSupport
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortConvert

/// The tests of the server that only a `sheetport serve` process shows (its memory, SIGKILL,
/// SIGTERM), one at a time as SheetPortServerTests' `ServerTests` are.
@Suite(.serialized) struct ServerTests {}

/// Counts shared between test threads.
private final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var requests = 0
    private(set) var failures: [String] = []
    private(set) var jobs: [String] = []

    func add(job id: String) {
        lock.lock()
        jobs.append(id)
        lock.unlock()
    }

    func record(_ ok: Bool, _ what: @autoclosure () -> String) {
        lock.lock()
        requests += 1
        if !ok { failures.append(what()) }
        lock.unlock()
    }
}

extension ServerTests {
    /// 8 concurrent uploads and 200 concurrent readers (threads, each with its own client)
    /// at the same time: no error, and the server's peak memory stays bounded.
    @Test func concurrentUploadsAndReads() throws {
        let fixture = try ServeProcessFixture(["--threads", "4", "--workers", "2"])
        defer { fixture.close() }
        let (folder, server, api) = (fixture.folder, fixture.server, fixture.api)
        let seeded = try api.importWorkbook(try makeStyledWorkbook(in: folder, rows: 2_000))
        let sheet = try #require(((seeded["result"] as? [String: Any])?["sheet"] as? [String: Any])?["id"] as? String)
        let upload = try makeLargeWorkbook(rows: 5_000, in: folder)

        let tally = Tally()
        let group = DispatchGroup()
        let base = api
        let started = Date()
        func spawn(_ body: @escaping @Sendable () -> Void) {
            group.enter()
            let thread = Thread { body(); group.leave() }
            thread.stackSize = 1 << 20
            thread.start()
        }
        for _ in 0..<8 {
            spawn {
                let client = HTTPClient(timeout: 120)
                do {
                    let response = try base.upload(upload, client: client)
                    tally.record(response.status == 202, "upload \(response.status) \(response.text)")
                    if let id = API.job(response.body)?["id"] as? String { tally.add(job: id) }
                } catch { tally.record(false, "upload: \(error)") }
            }
        }
        // 200 readers, 5 windows of 50 rows each, each thread with its own client.
        func spawnReaders(into tally: Tally, salt: Int) {
            for reader in 0..<200 {
                spawn {
                    let client = HTTPClient(timeout: 120)
                    for round in 0..<5 {
                        let start = 1 + ((reader * salt + round * 101) % 1_900)
                        do {
                            let response = try base.call("GET", "/api/sheets/\(sheet)/rows?start=\(start)&count=50", client: client)
                            let rows = response.object["rows"] as? [[String: Any]] ?? []
                            tally.record(response.status == 200 && rows.first?["row"] as? Int == start && rows.count == 50,
                                         "rows \(start): \(response.status)")
                        } catch { tally.record(false, "rows: \(error)") }
                    }
                }
            }
        }
        spawnReaders(into: tally, salt: 37)
        group.wait()
        let elapsed = Date().timeIntervalSince(started)
        #expect(tally.failures.isEmpty, "\(tally.failures.prefix(5))")
        #expect(tally.jobs.count == 8)
        for id in tally.jobs {
            let job = try api.wait(for: id, timeout: 240)
            #expect(job["status"] as? String == "succeeded", "\(job)")
            #expect((job["progress"] as? [String: Any])?["rows"] as? Int == 5_000)
        }
        let total = Date().timeIntervalSince(started)
        let peak = server.peakMemoryKiB()
        print(String(format: "load: %d requests (8 uploads of %d KiB + 1,000 row windows from 200 threads) in %.2f s = %.0f requests/s; "
                     + "8 imports of 5,000 rows x 10 columns done in %.2f s; server peak RSS (VmHWM) %.1f MiB",
                     tally.requests, (try FileManager.default.attributesOfItem(atPath: upload)[.size] as? Int ?? 0) / 1024,
                     elapsed, Double(tally.requests) / elapsed, total, Double(peak) / 1024))
        // Then reads alone: 200 threads, 5 windows each.
        let reads = Tally()
        let readStart = Date()
        spawnReaders(into: reads, salt: 53)
        group.wait()
        let readElapsed = Date().timeIntervalSince(readStart)
        #expect(reads.failures.isEmpty, "\(reads.failures.prefix(5))")
        let finalPeak = server.peakMemoryKiB()
        print(String(format: "load: reads alone: %d row windows of 50 rows from 200 concurrent threads in %.2f s = %.0f requests/s; server peak RSS now %.1f MiB",
                     reads.requests, readElapsed, Double(reads.requests) / readElapsed, Double(finalPeak) / 1024))
        #expect(peak > 0 && finalPeak < 512 * 1024, "peak RSS \(finalPeak) KiB")
        #expect(isEmptySoon(server.data + "/staging"))
    }

    /// kill -9 during an import, then a restart: the job ends (succeeded or failed), no half
    /// sheet is visible or stored, and no staging file is left.
    @Test func killDuringImportThenRestart() throws {
        let fixture = try ServeProcessFixture(["--workers", "1"])
        defer { fixture.close() }
        let (folder, server, api) = (fixture.folder, fixture.server, fixture.api)
        let big = try makeLargeWorkbook(rows: 60_000, in: folder)
        let id = try #require(API.job(try api.upload(big).body)?["id"] as? String)
        var seen: [String: Any] = [:]
        for _ in 0..<3_000 {
            seen = try #require(API.job(try api.call("GET", "/api/imports/\(id)").body))
            if seen["status"] as? String == "running", ((seen["progress"] as? [String: Any])?["rows"] as? Int ?? 0) > 0 { break }
            usleep(20_000)
        }
        let rowsAtKill = (seen["progress"] as? [String: Any])?["rows"] as? Int ?? 0
        #expect(seen["status"] as? String == "running" && rowsAtKill > 0, "\(seen)")
        server.kill9()
        let staged = try FileManager.default.contentsOfDirectory(atPath: server.data + "/staging")
        let stagedAtKill = staged.count
        // The staged upload is sealed: not even the zip's entry names (stored uncompressed) show.
        for name in staged {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: server.data + "/staging/" + name))
            #expect(bytes.count > 1_000_000)
            for plain in ["xl/worksheets/sheet1.xml", "[Content_Types].xml", "PK\u{03}\u{04}"] {
                #expect(bytes.range(of: Data(plain.utf8)) == nil, "\(plain) in the staged upload")
            }
        }

        try server.restart()
        let after = server.api(try server.token("ann"))
        let job = try after.wait(for: id, timeout: 240)
        let status = job["status"] as? String ?? ""
        #expect(status == "succeeded" || status == "failed", "\(job)")
        let sheets = try after.object("/api/sheets")["sheets"] as? [[String: Any]] ?? []
        if status == "succeeded" {
            #expect(sheets.count == 1 && sheets.first?["rows"] as? Int == 60_000, "\(sheets)")
            #expect((job["progress"] as? [String: Any])?["rows"] as? Int == 60_000)
        } else {
            #expect(sheets.isEmpty)
        }
        #expect(isEmptySoon(server.data + "/staging"))
        server.stop()
        // In the store itself: no sheet that is not visible, no rows of one.
        let database = try server.store()
        #expect(try database.query("SELECT COUNT(*) FROM sheets WHERE visible = 0").first?.first?.int == 0)
        #expect(try database.query("SELECT COUNT(*) FROM row_blocks WHERE sheet_id NOT IN (SELECT id FROM sheets)").first?.first?.int == 0)
        print("crash-restart: kill -9 at \(rowsAtKill) of 60,000 rows stored (\(stagedAtKill) staged upload left by the kill); after restart the job \(status), "
              + "\(sheets.count) sheet with \(sheets.first?["rows"] as? Int ?? 0) rows, 0 hidden sheets, 0 staging files")
    }
}
