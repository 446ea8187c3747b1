// swift-tools-version:6.0
import PackageDescription

// A downstream package: SheetPort by path, and only its reader product. Scripts/check-example.sh
// builds it and checks with ldd that it links none of the server's or client's C libraries.
let package = Package(
    name: "ReadFirstSheet",
    platforms: [.macOS(.v14)],
    dependencies: [
        // Named, because a path dependency is otherwise known by its folder's name (the checkout's).
        .package(name: "SheetPort", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "ReadFirstSheet",
            dependencies: [
                .product(name: "SheetPortReader", package: "SheetPort"),
            ]
        ),
    ]
)
