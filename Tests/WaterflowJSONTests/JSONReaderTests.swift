import Testing

@testable import WaterflowJSON

@Suite struct JSONReaderTests {}
