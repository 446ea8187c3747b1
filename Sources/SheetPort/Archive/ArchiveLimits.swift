/// Resource limits for opening a package, enforced while inflating so that a
/// hostile archive cannot make the reader use unbounded time, memory or disk.
///
/// The defaults are at least as strict as Apache POI's `ZipSecureFile`: an entry may not
/// inflate to more than 100 times its compressed size (POI's minimum inflate ratio 0.01)
/// once past a grace size of 100 KiB; at most 1,000 entries (POI's `MAX_FILE_COUNT`); an
/// entry at most 1 GiB (POI: 4 GiB); the shared-string text at most 10 MiB (POI's
/// `MAX_TEXT_SIZE` is 10 Mi characters). POI has no total limit; here 4 GiB.
public struct ArchiveLimits: Sendable, Equatable {
    /// The most entries a package may have.
    public var maxEntries: Int = 1_000
    /// The most bytes one entry may inflate to.
    public var maxEntrySize: Int64 = 1 << 30
    /// The most bytes all entries read from one package may inflate to.
    public var maxTotalSize: Int64 = 4 << 30
    /// The highest allowed ratio of inflated to compressed bytes of an entry
    /// (the reciprocal of POI's minimum inflate ratio).
    public var maxExpansionRatio: Double = 100
    /// Inflated bytes below which the ratio is not checked (small entries compress very well).
    public var ratioGraceSize: Int64 = 100 << 10
    /// The most UTF-8 bytes of text the shared-string table may hold in memory.
    public var maxTextSize: Int = 10 << 20

    /// The default limits.
    public init() {}

    /// POI's minimum inflate ratio (compressed over inflated size): `1 / maxExpansionRatio`.
    public var minInflateRatio: Double {
        get { 1 / maxExpansionRatio }
        set { maxExpansionRatio = newValue > 0 ? 1 / newValue : .infinity }
    }
}
