/// The code of an error the server answers (`{"error":{"code","message","findings"}}`,
/// Docs/Reference/HTTP.md, "Error codes") or a failed import job carries: one list, which the
/// server answers from and the client reads into its errors, so that neither side spells a
/// code of its own.
///
/// A code the server sends that this list does not name (a newer server's) reads as itself:
/// the set is open, as the contract lets it grow. A failed job's code is also any of the
/// pre-flight finding codes of its first error (`ReaderError.Code`, `encrypted-workbook`,
/// `zip-bomb`, ...).
public struct ServerErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code as sent (`bad-request`).
    public let rawValue: String

    /// The code spelled `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A reader's failure as a job's error code: the reader's codes are the contract's.
    public init(_ code: ReaderError.Code) { rawValue = code.rawValue }

    /// The code as sent.
    public var description: String { rawValue }
}

extension ServerErrorCode {
    // 400: the request is not one the server takes.

    /// 400: the request's body, query or headers are not as the route wants them.
    public static let badRequest = Self(rawValue: "bad-request")
    /// 400: a cell or range reference is not one of the grid's.
    public static let badRef = Self(rawValue: "bad-ref")
    /// 400: a written formula does not parse.
    public static let badFormula = Self(rawValue: "bad-formula")
    /// 400: a formatting value is not one Sheets keeps.
    public static let badFormat = Self(rawValue: "bad-format")
    /// 400: a number format outside Excel's grammar or over 255 characters.
    public static let badNumberFormat = Self(rawValue: "bad-number-format")
    /// 400: a row height or column width is out of range.
    public static let badSize = Self(rawValue: "bad-size")
    /// 400: a view's filter or sort is not one the server evaluates.
    public static let badView = Self(rawValue: "bad-view")
    /// 400: a sheet name the xlsx writer does not accept.
    public static let invalidSheetName = Self(rawValue: "invalid-sheet-name")

    // 401 to 431: who asks, what for, how much.

    /// 401: no live session token.
    public static let unauthorized = Self(rawValue: "unauthorized")
    /// 403: the subject may read the sheet but not do this.
    public static let forbidden = Self(rawValue: "forbidden")
    /// 403: a change a browser session authenticates came from another origin or without the
    /// page's `X-SheetPort-CSRF` value; nothing was done.
    public static let csrf = Self(rawValue: "csrf")
    /// 404: no such resource, or one the subject may not see (the server does not tell them apart).
    public static let notFound = Self(rawValue: "not-found")
    /// 405: the resource does not take this method.
    public static let methodNotAllowed = Self(rawValue: "method-not-allowed")
    /// 408: the request head did not arrive in time.
    public static let requestTimeout = Self(rawValue: "request-timeout")
    /// 409: the change could not be recorded; try again.
    public static let conflict = Self(rawValue: "conflict")
    /// 409: the import job has ended already (it cannot be cancelled).
    public static let jobEnded = Self(rawValue: "job-ended")
    /// 409: the subject has no write on the sheet left to undo.
    public static let nothingToUndo = Self(rawValue: "nothing-to-undo")
    /// 409: the sheet did not reach the asked `minVersion` in time.
    public static let versionNotReached = Self(rawValue: "version-not-reached")
    /// 413: a body (an upload, a JSON request) over its cap.
    public static let tooLarge = Self(rawValue: "too-large")
    /// 413: a write over `maxBatchBytes` or `maxBatchCells`.
    public static let batchTooLarge = Self(rawValue: "batch-too-large")
    /// 414: the request target is too long.
    public static let uriTooLong = Self(rawValue: "uri-too-long")
    /// 415: an upload that is not an .xlsx or .xlsm workbook.
    public static let unsupportedMediaType = Self(rawValue: "unsupported-media-type")
    /// 416: a resumed export's range starts past its end.
    public static let rangeNotSatisfiable = Self(rawValue: "range-not-satisfiable")
    /// 422: an `Idempotency-Key` sent again with other bytes.
    public static let idempotencyKeyReused = Self(rawValue: "idempotency-key-reused")
    /// 422: a write whose calculation ran past `serve --calc-timeout`; nothing of it was stored.
    public static let calcTimeout = Self(rawValue: "calc-timeout")
    /// 429 (the subject's share) or 503 (the server's): too many event streams open.
    public static let tooManyStreams = Self(rawValue: "too-many-streams")
    /// 431: the request head is too long.
    public static let headerTooLarge = Self(rawValue: "header-too-large")

    // 5xx: the server's side.

    /// 500: the server failed; the message carries the incident id its log names.
    public static let `internal` = Self(rawValue: "internal")
    /// 501: a transfer coding other than chunked.
    public static let notImplemented = Self(rawValue: "not-implemented")
    /// 503: the server is at its cap of exports, or stopping; try again later.
    public static let busy = Self(rawValue: "busy")
    /// 507, or a job's: the server's storage is full and nothing of the request was kept.
    public static let storageFull = Self(rawValue: "storage-full")

    // A failed import job's.

    /// The server stopped while the job ran, and the job was not resumed.
    public static let interrupted = Self(rawValue: "interrupted")
    /// The workbook passes one of the server's caps (it is never truncated).
    public static let exceedsLimit = Self(.exceedsLimit)
    /// The workbook has no worksheet to import.
    public static let missingPart = Self(.missingPart)

    // The client's own.

    /// Never sent by the server: what the client reports for an answer that is not the
    /// contract's (`TransportError.code`).
    public static let invalidResponse = Self(rawValue: "invalid-response")
}
