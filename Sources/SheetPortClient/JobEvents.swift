import Foundation
import SheetPortCore

/// Follows an import job through `GET /api/imports/{id}/events`: each `progress` event and
/// the final `done` as `ImportJob`s. The stream resumes after the last event id when it
/// breaks, so a reconnect neither loses nor repeats one.
struct JobEvents {
    let connection: ServerConnection
    let jobID: String
    /// Seconds without a byte (the server sends a heartbeat every 15) before the stream is
    /// taken as broken.
    var stallTimeout = 45.0

    /// Why following the stream stopped short of `done`: the caller falls back to polling.
    struct Unavailable: Error {
        let reason: String
    }

    /// Follows the job to its end; `update` sees each state. Throws `Unavailable` when the
    /// stream is refused or breaks (before `done`), and what the client's `cancellation` throws.
    func follow(client: HTTPClient, lastEventID: inout String?, update: (ImportJob) -> Void) throws -> ImportJob {
        let saved = (client.timeout, client.lowSpeedLimit, client.cancellation)
        defer { (client.timeout, client.lowSpeedLimit, client.cancellation) = saved }
        // A stream lasts as long as the job: no deadline for the whole request, no low-speed
        // limit (heartbeats are a few bytes), but a stall of `stallTimeout` ends it.
        client.timeout = 0
        client.lowSpeedLimit = 0
        var lastByte = Date()
        let stallTimeout = stallTimeout
        client.cancellation = {
            try saved.2()
            if Date().timeIntervalSince(lastByte) > stallTimeout { throw Unavailable(reason: "the event stream stalled") }
        }
        let request = connection.eventStreamRequest("/api/imports/\(ServerConnection.pathSegment(jobID))/events", after: lastEventID)
        var parser = EventStreamParser()
        var finished: ImportJob?
        var refused: HTTPResponseHead?
        do {
            try client.send(request) { head, chunk in
                lastByte = Date()
                guard head.status == 200, head.header("Content-Type")?.hasPrefix("text/event-stream") == true else {
                    refused = head
                    throw Unavailable(reason: "the server answered \(head.status)")
                }
                for event in try parser.feed(chunk) {
                    let job = try Self.job(event, id: jobID, url: request.url)
                    lastEventID = event.id ?? lastEventID
                    update(job)
                    if event.name == "done" { finished = job }
                }
            }
        } catch .aborted(_, let underlying) {
            if underlying is Unavailable || underlying is EventStreamParser.TooLong { try saved.2() }
            if let unavailable = underlying as? Unavailable { throw unavailable }
            if underlying is EventStreamParser.TooLong || underlying is ClientError { throw Unavailable(reason: "\(underlying)") }
            throw underlying // the caller's cancellation
        } catch {
            throw Unavailable(reason: "\(error)")
        }
        if let finished { return finished }
        throw Unavailable(reason: refused.map { "the server answered \($0.status)" } ?? "the event stream ended before the job did")
    }

    /// A `progress` or `done` event as the job state it reports.
    static func job(_ event: ServerSentEvent, id: String, url: String) throws -> ImportJob {
        do {
            let object = try JSONObject(parsing: Array(event.data.utf8))
            switch event.name {
            case "done": return try ImportJob(json: object)
            case "progress":
                var job = object.values
                job["id"] = id
                return try ImportJob(json: JSONObject(["job": job]))
            default: throw JSONShapeError(description: "an unknown event \"\(event.name.visibleControlCharacters)\"")
            }
        } catch let error as JSONShapeError {
            throw ClientError.invalidResponse(url: url, reason: error.description)
        }
    }
}
