extension RandomAccessCollection {
    /// The index of the first element for which `isPast` holds, in a collection where it is false
    /// for some prefix and true for the rest; `endIndex` when it never holds. A binary search: with
    /// `{ $0 >= key }` over ascending elements, the lower bound of `key`.
    ///
    /// Inlinable so that each caller's search is specialized: several run per cell.
    @inlinable
    package func partitionPoint(where isPast: (Element) throws -> Bool) rethrows -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if try isPast(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}
