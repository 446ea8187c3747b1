/// Resource limits for opening a package, enforced while inflating so that a
/// hostile archive cannot make the reader use unbounded time, memory or disk.
///
/// The defaults follow Apache POI's `ZipSecureFile`: an entry may not inflate to
/// more than 100 times its compressed size once past a grace size of 100 KiB.
public struct ArchiveLimits: Sendable, Equatable {
    /// The most entries a package may have.
    public var maxEntries: Int = 10_000
    /// The most bytes one entry may inflate to.
    public var maxEntrySize: Int64 = 4 << 30
    /// The most bytes all entries read from one package may inflate to.
    public var maxTotalSize: Int64 = 16 << 30
    /// The highest allowed ratio of inflated to compressed bytes of an entry.
    public var maxExpansionRatio: Double = 100
    /// Inflated bytes below which the ratio is not checked (small entries compress very well).
    public var ratioGraceSize: Int64 = 100 << 10

    /// The default limits.
    public init() {}
}
