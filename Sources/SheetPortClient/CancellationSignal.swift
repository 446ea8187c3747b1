#if canImport(Glibc)
import Glibc
#endif
import SheetPortWriter

/// SIGINT and SIGTERM as a request to stop, for work that must tidy up over the network
/// before exiting (cancelling an import job): the handlers only record the signal, and the
/// work checks `received` between steps. (Exports use `PendingFiles.removeOnSignals()`,
/// which removes their files and exits at once.)
public enum CancellationSignal {
    nonisolated(unsafe) private static var signalNumber: sig_atomic_t = 0

    /// Installs the handlers (and ignores SIGXFSZ, like `PendingFiles`).
    public static func install() {
        signal(SIGINT) { number in CancellationSignal.signalNumber = number }
        signal(SIGTERM) { number in CancellationSignal.signalNumber = number }
        PendingFiles.prepareSignals()
    }

    /// The signal received (SIGINT or SIGTERM), if any.
    public static var received: Int32? { signalNumber == 0 ? nil : Int32(signalNumber) }

    /// Throws `ClientError.cancelled` once a signal has arrived.
    public static func check() throws(ClientError) {
        if let received { throw .cancelled(signal: received) }
    }
}
