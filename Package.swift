// swift-tools-version:6.0
import PackageDescription

// The data path, one folder a stage:
// Archive (libzip, ISA-L inflating; zlib deflates a written worksheet's blocks in parallel; libarchive writes the packages streamed to a client) -> XML (libxml2 SAX) -> Parts (workbook, styles, strings, sheets)
// -> Cells -> Convert -> the `sheetport` CLI.
let package = Package(
    name: "SheetPort",
    // Core, Reader, Writer, Calc and Convert are portable Swift for the macOS and iOS apps
    // (Scripts/check-portable.sh keeps them so); the server and the libcurl client are for Linux.
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "SheetPortCore", targets: ["SheetPortCore"]),
        .library(name: "SheetPortReader", targets: ["SheetPortReader"]),
        .library(name: "SheetPortWriter", targets: ["SheetPortWriter"]),
        .library(name: "SheetPortCalc", targets: ["SheetPortCalc"]),
        .library(name: "SheetPortConvert", targets: ["SheetPortConvert"]),
        .library(name: "SheetPortEditing", targets: ["SheetPortEditing"]),
        .library(name: "SheetPortClient", targets: ["SheetPortClient"]),
        .library(name: "SheetPortServer", targets: ["SheetPortServer"]),
        .library(name: "SheetPort", targets: ["SheetPort"]),
        .executable(name: "sheetport", targets: ["sheetport"]),
    ],
    targets: [
        .systemLibrary(
            name: "CLibZip",
            pkgConfig: "libzip",
            providers: [.apt(["libzip-dev"]), .brew(["libzip"])]
        ),
        .systemLibrary(
            name: "CLibArchive",
            pkgConfig: "libarchive",
            providers: [.apt(["libarchive-dev"]), .brew(["libarchive"])]
        ),
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
        ),
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"]), .brew(["libsodium"])]
        ),
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),
        // zlib deflates a written worksheet in blocks on every core (ParallelDeflater); libzip copies them.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        // zstd compresses the server's row blocks before they are sealed (RowBlock.stored).
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]
        ),
        // ISA-L's igzip inflates deflated entries (ZipArchive.EntryStream); libzip keeps the container.
        .systemLibrary(
            name: "CISAL",
            path: "Sources/CISAL",
            pkgConfig: "libisal",
            providers: [.apt(["libisal-dev"]), .brew(["isa-l"])]
        ),
        // The terminal grid (`sheetport open`) draws with ncurses' wide-character library.
        .systemLibrary(
            name: "CNcurses",
            pkgConfig: "ncursesw",
            providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]
        ),
        // The modules, bottom up: each links only the C libraries it needs.
        .target(
            name: "SheetPortCore"
        ),
        .target(
            name: "SheetPortReader",
            dependencies: [
                "SheetPortCore", "CLibZip", "CLibXML2",
                .target(name: "CISAL", condition: .when(platforms: [.linux])),
            ]
        ),
        .target(
            name: "SheetPortWriter",
            dependencies: ["SheetPortCore", "CLibZip", "CZlib", "CLibArchive"]
        ),
        // The calculation engine: pure Swift on Core, below Convert, check and the server.
        .target(
            name: "SheetPortCalc",
            dependencies: ["SheetPortCore"]
        ),
        .target(
            name: "SheetPortConvert",
            dependencies: ["SheetPortCore", "SheetPortReader", "SheetPortWriter", "SheetPortCalc"]
        ),
        // The editing client's core (selection, drafts, versions, clipboard, insert function):
        // portable Swift on Core for the apps, talking to a server through `EditingTransport`.
        .target(
            name: "SheetPortEditing",
            dependencies: ["SheetPortCore"]
        ),
        .target(
            name: "SheetPortClient",
            dependencies: ["SheetPortCore", "SheetPortReader", "SheetPortWriter", "SheetPortConvert", "SheetPortEditing", "CCurl"]
        ),
        .target(
            name: "SheetPortServer",
            dependencies: [
                "SheetPortCore", "SheetPortReader", "SheetPortWriter", "SheetPortCalc", "SheetPortConvert",
                "CMicroHTTPD", "CSQLite", "CSodium", "CLibPQ", "CZstd", "CLibZip",
            ],
            // The web page's scripts and styles, compiled into the binary (`PackageResources`):
            // nothing is read from disk at run time.
            resources: [.embedInCode("Web/Assets")]
        ),
        // What `sheetport bench` writes (the benchmark sheet), in no product: the tests that
        // need the benchmark sheet depend on it too. (The tokenizer's floor stays in Reader, where
        // the tokenizer is specialized for it.)
        .target(
            name: "SheetPortBench",
            dependencies: ["SheetPortCore", "SheetPortWriter"]
        ),
        // The umbrella: `import SheetPort` re-exports every module.
        .target(
            name: "SheetPort",
            dependencies: [
                "SheetPortCore", "SheetPortReader", "SheetPortWriter", "SheetPortCalc", "SheetPortConvert",
                "SheetPortClient", "SheetPortServer", "SheetPortEditing",
            ]
        ),
        .executableTarget(
            name: "sheetport",
            dependencies: [
                "SheetPortCore", "SheetPortReader", "SheetPortWriter", "SheetPortConvert",
                "SheetPortClient", "SheetPortServer", "SheetPortEditing", "SheetPortBench", "CNcurses",
                // gzip and zstd text input is decompressed here (CompressedInput), not in SheetPortConvert.
                "CZlib", "CZstd",
            ]
        ),
        // Tests mirror the modules: each module's tests in its own target, the server started in
        // the test process. SheetPortTestSupport holds what several of them share (paths, a zip
        // builder, the real server on loopback, a real PostgreSQL cluster's database). Each
        // depends on the modules its files import; only the command-line tests run the
        // `sheetport` executable, so only they depend on it.
        .target(
            name: "SheetPortTestSupport",
            dependencies: [
                "SheetPortCore", "SheetPortReader", "SheetPortWriter", "SheetPortConvert",
                "SheetPortClient", "SheetPortServer",
            ],
            path: "Tests/SheetPortTestSupport"
        ),
        .testTarget(name: "SheetPortCoreTests", dependencies: ["SheetPortCore", "SheetPortTestSupport"]),
        .testTarget(name: "SheetPortCalcTests", dependencies: ["SheetPortCore", "SheetPortCalc"]),
        .testTarget(name: "SheetPortEditingTests", dependencies: ["SheetPortCore", "SheetPortEditing"]),
        .testTarget(
            name: "SheetPortReaderTests",
            dependencies: [
                "SheetPortCore", "SheetPortReader", "SheetPortWriter", "SheetPortConvert", "SheetPortBench",
                "SheetPortTestSupport",
            ]
        ),
        .testTarget(
            name: "SheetPortWriterTests",
            dependencies: [
                "SheetPortCore", "SheetPortReader", "SheetPortWriter", "SheetPortConvert", "SheetPortBench",
                "SheetPortTestSupport",
            ]
        ),
        .testTarget(
            name: "SheetPortConvertTests",
            dependencies: [
                "SheetPortCore", "SheetPortReader", "SheetPortWriter", "SheetPortCalc", "SheetPortConvert",
                "SheetPortTestSupport",
            ]
        ),
        .testTarget(
            name: "SheetPortClientTests",
            dependencies: [
                "SheetPortCore", "SheetPortWriter", "SheetPortConvert", "SheetPortEditing", "SheetPortClient",
                "SheetPortTestSupport",
            ]
        ),
        .testTarget(
            name: "SheetPortServerTests",
            dependencies: [
                "SheetPortCore", "SheetPortReader", "SheetPortWriter", "SheetPortCalc", "SheetPortConvert",
                "SheetPortClient", "SheetPortServer", "SheetPortEditing", "SheetPortBench", "SheetPortTestSupport",
            ]
        ),
        .testTarget(
            name: "SheetPortCLITests",
            dependencies: [
                "SheetPortCore", "SheetPortReader", "SheetPortWriter", "SheetPortConvert", "SheetPortClient",
                "SheetPortServer", "SheetPortTestSupport", "sheetport",
            ]
        ),
    ]
)

// Every file imports the module of each member it uses (SE-0444), not only of each type: a
// file's imports say what it depends on, and an import a file does not use can be dropped.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
