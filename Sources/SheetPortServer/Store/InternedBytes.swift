/// Distinct byte strings numbered from 0 in the order first seen, held end to end in one buffer:
/// a binary block's string and style tables. A lookup allocates nothing (no key per string, no
/// array per new string), and hashes once with the process's seeded `Hasher`, so crafted
/// collisions cannot make an upload's encoding quadratic.
struct InternedBytes {
    /// The strings end to end; string `i` ends at `ends[i]`.
    private(set) var storage: [UInt8] = []
    private var ends: [Int] = []
    private var hashes: [Int] = []
    /// Open addressing: a string's index + 1, 0 for a free slot; never over half full.
    private var slots = [Int32](repeating: 0, count: 64)

    var count: Int { ends.count }

    /// The index of `bytes`, added when new.
    mutating func index(of bytes: UnsafeRawBufferPointer) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: bytes)
        let hash = hasher.finalize()
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot] != 0 {
            let candidate = Int(slots[slot]) - 1
            if hashes[candidate] == hash, self.bytes(candidate).elementsEqual(bytes) { return candidate }
            slot = (slot + 1) & mask
        }
        storage.append(contentsOf: bytes)
        ends.append(storage.count)
        hashes.append(hash)
        slots[slot] = Int32(ends.count)
        if ends.count * 2 > slots.count { grow() }
        return ends.count - 1
    }

    mutating func index(of bytes: ArraySlice<UInt8>) -> Int {
        bytes.withUnsafeBytes { index(of: $0) }
    }

    /// The bytes of string `index`.
    func bytes(_ index: Int) -> ArraySlice<UInt8> {
        storage[(index == 0 ? 0 : ends[index - 1])..<ends[index]]
    }

    /// Appends the count, then each string as its length and bytes (varints), as a block's payload holds them.
    func put(to payload: inout [UInt8]) {
        Varint.put(UInt64(count), to: &payload)
        var start = 0
        for end in ends {
            Varint.put(UInt64(end - start), to: &payload)
            payload += storage[start..<end]
            start = end
        }
    }

    private mutating func grow() {
        slots = [Int32](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for (index, hash) in hashes.enumerated() {
            var slot = hash & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index + 1)
        }
    }
}
