import Testing
import SheetPortCore

/// `partitionPoint(where:)`, the one binary search that the reader, the engine and the server
/// share: the first index where the predicate turns true, at every position and on slices.
@Suite struct PartitionPointTests {
    @Test func findsTheFirstIndexWherePredicateHolds() {
        let sorted = [1, 3, 3, 3, 7, 9]
        for key in 0...10 {
            let expected = sorted.firstIndex { $0 >= key } ?? sorted.endIndex
            #expect(sorted.partitionPoint { $0 >= key } == expected, "key \(key)")
        }
    }

    @Test func emptyAndUniformCollections() {
        #expect([Int]().partitionPoint { _ in true } == 0)
        #expect([1, 2, 3].partitionPoint { _ in true } == 0)
        #expect([1, 2, 3].partitionPoint { _ in false } == 3)
    }

    @Test func slicesKeepTheirIndices() {
        let values = Array(0..<100)
        let slice = values[40..<60]
        #expect(slice.partitionPoint { $0 >= 50 } == 50)
        #expect(slice.partitionPoint { $0 >= 10 } == 40)
        #expect(slice.partitionPoint { $0 >= 99 } == 60)
    }

    @Test func everyLengthAndSplit() {
        for count in 0...33 {
            for split in 0...count {
                let flags = (0..<count).map { $0 >= split }
                #expect(flags.partitionPoint { $0 } == split, "count \(count), split \(split)")
            }
        }
    }
}
