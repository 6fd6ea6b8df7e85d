//! FNV-1a, 64 bits: a small, fast, stable hash of bytes. Bank hashes written
//! in configs and run folders are FNV-1a of the file, so the constants here
//! are part of the file formats and never change.

/// The FNV-1a offset basis: the hash of no bytes.
pub const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;

/// The 64-bit FNV prime.
const PRIME: u64 = 0x0100_0000_01b3;

/// One FNV-1a round: `h` with the value `x` (a byte, or any small integer)
/// folded in.
#[inline]
pub const fn step(h: u64, x: u64) -> u64 {
    (h ^ x).wrapping_mul(PRIME)
}

/// FNV-1a of `bytes`, from `h` on (from [`OFFSET_BASIS`] for the standard
/// hash).
#[inline]
pub fn extend(h: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(h, |h, &b| step(h, u64::from(b)))
}

/// The standard FNV-1a hash of `bytes`.
#[inline]
pub fn hash(bytes: &[u8]) -> u64 {
    extend(OFFSET_BASIS, bytes)
}

/// The standard FNV-1a hash of everything `from` reads, a chunk at a time:
/// a file of gigabytes is hashed without being held.
pub fn hash_reader(mut from: impl std::io::Read) -> std::io::Result<u64> {
    let mut chunk = vec![0u8; 1 << 20];
    let mut h = OFFSET_BASIS;
    loop {
        match from.read(&mut chunk) {
            Ok(0) => return Ok(h),
            Ok(n) => h = extend(h, &chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_published_test_vectors() {
        assert_eq!(hash(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(hash(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(hash(b"foobar"), 0x8594_4171_f739_67e8);
        assert_eq!(hash_reader(&b"foobar"[..]).unwrap(), 0x8594_4171_f739_67e8);
        let long: Vec<u8> = (0..3_000_000u32).map(|i| (i * 7 % 251) as u8).collect();
        assert_eq!(hash_reader(&long[..]).unwrap(), hash(&long));
    }

    #[test]
    fn extend_continues_a_hash() {
        assert_eq!(extend(hash(b"foo"), b"bar"), hash(b"foobar"));
    }
}
