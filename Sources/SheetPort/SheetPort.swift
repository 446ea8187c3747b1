// The umbrella module: code written against `import SheetPort` sees every module's public API.
// An app that needs less imports the module it needs (`import SheetPortReader`).
@_exported import SheetPortCore
@_exported import SheetPortReader
@_exported import SheetPortWriter
@_exported import SheetPortCalc
@_exported import SheetPortConvert
@_exported import SheetPortClient
@_exported import SheetPortServer
@_exported import SheetPortEditing
