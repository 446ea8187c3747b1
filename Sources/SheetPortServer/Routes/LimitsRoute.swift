import SheetPortCore
import SheetPortCalc
/// `GET /api/limits`: the server's caps.
enum LimitsRoute {
    static func get(_ context: ServerContext) -> Reply {
        let configuration = context.configuration
        return .json(.object([
            ("maxUploadBytes", .int(configuration.maxUploadBytes)), ("maxCells", .int(configuration.maxCells)),
            ("maxRows", .int(ServerConfiguration.maxRows)), ("maxColumns", .int(ServerConfiguration.maxColumns)),
            ("maxCellTextLength", .int(ServerConfiguration.maxCellTextLength)),
            ("maxBatchCells", .int(configuration.maxBatchCells)), ("maxBatchBytes", .int(configuration.maxBatchBytes)),
            ("maxWindowBytes", .int(configuration.maxWindowBytes)),
            ("maxArrayCells", .int(configuration.calcLimits.maxArrayCells)),
            ("maxEvalBytes", .int(configuration.calcLimits.maxEvalBytes)),
            ("maxEvalSteps", .int(configuration.calcLimits.maxEvalSteps)),
        ]))
    }
}
