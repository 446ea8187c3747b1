/// Resource limits for opening a package, enforced while inflating so that a
/// hostile archive cannot make the reader use unbounded time, memory or disk.
///
/// Time and memory are bounded by absolute budgets first: at most 1,000 entries (POI's
/// `MAX_FILE_COUNT`), an entry at most 1 GiB (POI: 4 GiB), the package at most 4 GiB
/// (POI has no total limit), the shared-string text at most 1 GiB, what one entry may inflate
/// to (POI's `MAX_TEXT_SIZE` of 10 Mi characters refuses honest exports: a 24 MB XlsxWriter
/// file of 300,000 rows of UUIDs, e-mail addresses and comments holds 60 MB of shared text);
/// entries are streamed, so memory does not grow with their size.
///
/// The expansion ratio is a sign of a bomb only where the expansion is also large: an entry
/// is refused for inflating to more than 100 times its compressed size (POI's minimum
/// inflate ratio 0.01) only once it is past 256 MiB inflated. POI applies the ratio from
/// 100 KiB and so refuses ordinary workbooks: a real 850 KB file whose 57 MB worksheet of
/// repeated styled cells compresses 121:1. A bomb's entry is stopped at 256 MiB, about half
/// a second of inflating.
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
    /// Inflated bytes below which the ratio is not checked: repetitive sheets compress very
    /// well, and up to here the entry and total limits bound the work.
    public var ratioGraceSize: Int64 = 256 << 20
    /// The most UTF-8 bytes of text the shared-string table may hold in memory: by default
    /// what one entry may inflate to, so that every workbook the entry and ratio limits let
    /// through (any honest one up to the server's 256 MiB upload cap) is read whole.
    public var maxTextSize: Int = 1 << 30

    /// The default limits.
    public init() {}

    /// POI's minimum inflate ratio (compressed over inflated size): `1 / maxExpansionRatio`.
    public var minInflateRatio: Double {
        get { 1 / maxExpansionRatio }
        set { maxExpansionRatio = newValue > 0 ? 1 / newValue : .infinity }
    }
}
