//! GF(2⁸) arithmetic for random linear network coding.
//!
//! Sources: docs/coding.md (field definition, scalar tables, region operations, test vectors);
//! Intel ISA-L `ec_base.c` `gf_vect_mul_init` (one 32-byte nibble table per coefficient:
//! low-nibble products then high-nibble products); J. Plank's Galois-field notes and
//! GF-Complete's "SPLIT 8,4" region multiply (two 16-entry lookups per byte, done 16/32 bytes at a
//! time with `PSHUFB`); the CTCP reference code `util.c` (polynomial 0x11B, generator 3).
//!
//! Elements are bytes; addition and subtraction are XOR; multiplication is the carry-less product
//! reduced modulo an irreducible polynomial of degree 8. The default is 0x11D with generator 2
//! (ISA-L, most RLNC literature); 0x11B with generator 3 (AES, the CTCP reference code) is
//! available for byte-compatibility. Both fields are isomorphic, so coding performance and every
//! rank decision are the same; only the bytes differ.
//!
//! The hot loop of coding is the region operation `dst ^= c·src` (AXPY). It runs on one of several
//! [`Kernel`]s, all of which give identical bytes (tested): a portable one (a 256-byte product
//! row per coefficient), x86-64 SSSE3 and AVX2 (nibble tables through `PSHUFB`, chosen at run time
//! with `is_x86_feature_detected!`, cached) and wasm `simd128` (nibble tables through
//! `i8x16.swizzle`, chosen at compile time with `-C target-feature=+simd128`).
//!
//! Length: over 600 lines because about 280 of them are the tests at the bottom (field laws,
//! exhaustive products for both polynomials, every kernel against the scalar product).

use std::sync::OnceLock;

pub use super::kernel::Kernel;
use super::kernel::{portable, Detected, MULTI_GROUP};

/// The reduction polynomial of the field.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Polynomial {
    /// x⁸+x⁴+x³+x²+1, generator 2 (ISA-L, Plank, RAID-6; docs/coding.md §1 recommendation).
    #[default]
    P11D,
    /// x⁸+x⁴+x³+x+1, generator 3 (AES, Intel GFNI, the CTCP reference code `util.c`).
    P11B,
}

impl Polynomial {
    /// The polynomial as a 9-bit integer (bit 8 set).
    pub const fn bits(self) -> u16 {
        match self {
            Polynomial::P11D => 0x11D,
            Polynomial::P11B => 0x11B,
        }
    }

    /// A primitive element (order 255): 2 for 0x11D; 3 for 0x11B, where 2 has order 51
    /// (docs/coding.md §1).
    pub const fn generator(self) -> u8 {
        match self {
            Polynomial::P11D => 2,
            Polynomial::P11B => 3,
        }
    }
}

/// The field tables: log/exp and inverses for scalar arithmetic, a full 64 KiB product table
/// (the fastest portable region multiply, docs/coding.md §6) and one 32-byte nibble table per
/// coefficient for the SIMD kernels (ISA-L layout: `[c·0, c·1, …, c·15, c·0x00, c·0x10, …, c·0xf0]`).
///
/// Building it takes a few tens of microseconds; [`default_field`] and [`field`] keep one per
/// polynomial for the whole program.
pub struct Field {
    poly: Polynomial,
    /// `exp[i] = g^i` for i in 0..510 (doubled so that `exp[log a + log b]` needs no reduction).
    exp: [u8; 510],
    /// `log[g^i] = i`; `log[0]` is unused (0).
    log: [u8; 256],
    /// `inv[a]·a = 1`; `inv[0] = 0`.
    inv: [u8; 256],
    /// `mul[c][x] = c·x`.
    mul: Box<[[u8; 256]; 256]>,
    /// `nib[c][n] = c·n` and `nib[c][16 + n] = c·(n << 4)` for n in 0..16.
    nib: Box<[[u8; 32]; 256]>,
}

impl std::fmt::Debug for Field {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Field").field("poly", &self.poly).finish_non_exhaustive()
    }
}

/// Carry-less product reduced modulo `poly` (shift-and-add, the definition; used to build tables
/// and as the independent oracle in tests).
pub(crate) fn mul_slow(poly: u16, mut a: u8, mut b: u8) -> u8 {
    let mut r = 0u8;
    while b != 0 {
        if b & 1 != 0 {
            r ^= a;
        }
        let carry = a & 0x80 != 0;
        a <<= 1;
        if carry {
            a ^= (poly & 0xFF) as u8;
        }
        b >>= 1;
    }
    r
}

impl Field {
    /// Builds the tables for `p` (docs/coding.md §2: walk the powers of the generator).
    pub fn new(p: Polynomial) -> Field {
        let poly = p.bits();
        let g = p.generator();
        let mut exp = [0u8; 510];
        let mut log = [0u8; 256];
        let mut x = 1u8;
        for i in 0..255 {
            exp[i] = x;
            exp[i + 255] = x;
            log[x as usize] = i as u8;
            x = mul_slow(poly, x, g);
        }
        debug_assert_eq!(x, 1, "the generator has order 255");
        let mut inv = [0u8; 256];
        for a in 1..256 {
            inv[a] = exp[(255 - log[a] as usize) % 255];
        }
        let mut mul: Box<[[u8; 256]; 256]> =
            vec![[0u8; 256]; 256].into_boxed_slice().try_into().expect("256 rows of 256 bytes");
        for a in 1..256 {
            for b in 1..256 {
                mul[a][b] = exp[log[a] as usize + log[b] as usize];
            }
        }
        let mut nib: Box<[[u8; 32]; 256]> =
            vec![[0u8; 32]; 256].into_boxed_slice().try_into().expect("256 tables of 32 bytes");
        for c in 0..256 {
            for n in 0..16 {
                nib[c][n] = mul[c][n];
                nib[c][16 + n] = mul[c][n << 4];
            }
        }
        Field { poly: p, exp, log, inv, mul, nib }
    }

    /// The polynomial this field was built with.
    pub fn polynomial(&self) -> Polynomial {
        self.poly
    }

    /// `a·b`.
    #[inline]
    pub fn mul(&self, a: u8, b: u8) -> u8 {
        self.mul[a as usize][b as usize]
    }

    /// The multiplicative inverse of `a`. `a` must be non-zero: `inv(0)` returns 0 in release
    /// builds and panics in debug builds (a programmer error, as division by zero).
    #[inline]
    pub fn inv(&self, a: u8) -> u8 {
        debug_assert!(a != 0, "0 has no inverse in GF(256)");
        self.inv[a as usize]
    }

    /// `a / b` for `b != 0` (same zero rule as [`Field::inv`]).
    #[inline]
    pub fn div(&self, a: u8, b: u8) -> u8 {
        self.mul(a, self.inv(b))
    }

    /// `g^i` for the field's generator `g` (any `i`, reduced mod 255).
    pub fn exp(&self, i: usize) -> u8 {
        self.exp[i % 255]
    }

    /// The discrete logarithm of `a != 0` to the base of the generator (0 for `a == 0`).
    pub fn log(&self, a: u8) -> u8 {
        self.log[a as usize]
    }

    /// Every coefficient's 32-byte nibble table, indexed by the coefficient.
    #[cfg_attr(
        not(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128"))),
        allow(dead_code)
    )]
    pub(crate) fn nibble_tables(&self) -> &[[u8; 32]; 256] {
        &self.nib
    }

    /// Every coefficient's 256-byte product row, indexed by the coefficient.
    pub(crate) fn product_rows(&self) -> &[[u8; 256]; 256] {
        &self.mul
    }

    /// The 32-byte nibble table of `c` (ISA-L layout), as the SIMD kernels use it.
    pub fn nibble_table(&self, c: u8) -> &[u8; 32] {
        &self.nib[c as usize]
    }

    /// `dst ^= c·src` (AXPY), on the fastest available kernel. Panics if the lengths differ.
    /// `c = 0` does nothing and `c = 1` is a plain XOR.
    #[inline]
    pub fn mul_add_region(&self, dst: &mut [u8], src: &[u8], c: u8) {
        assert_eq!(dst.len(), src.len(), "mul_add_region: dst and src must have equal lengths");
        match c {
            0 => {}
            1 => xor_region(dst, src),
            _ => self.run_mul_add(Detected::best(), dst, src, c),
        }
    }

    /// `dst = c·dst`, on the fastest available kernel.
    #[inline]
    pub fn mul_region(&self, dst: &mut [u8], c: u8) {
        match c {
            0 => dst.fill(0),
            1 => {}
            _ => self.run_mul(Detected::best(), dst, c),
        }
    }

    /// `dst ^= Σ coeffs[t]·srcs[t]`: a fused multiply-add of several sources that keeps `dst` in
    /// registers across sources (ISA-L's `gf_Nvect_dot_prod` idea), which saves memory traffic in
    /// encoding and decoding. Panics if any source length differs from `dst`'s or if the counts
    /// of sources and coefficients differ.
    pub fn mul_add_multi(&self, dst: &mut [u8], srcs: &[&[u8]], coeffs: &[u8]) {
        self.mul_add_multi_with_detected(Detected::best(), dst, srcs, coeffs);
    }

    /// `dst ^= c·src` on a chosen kernel, with no shortcut for `c ∈ {0, 1}` (so that tests and
    /// benchmarks exercise the kernel itself). Panics if `kernel` is not available on this CPU or
    /// build, or if the lengths differ.
    pub fn mul_add_region_with(&self, kernel: Kernel, dst: &mut [u8], src: &[u8], c: u8) {
        assert_eq!(dst.len(), src.len(), "mul_add_region: dst and src must have equal lengths");
        self.run_mul_add(Detected::check(kernel), dst, src, c);
    }

    /// `dst = c·dst` on a chosen kernel (see [`Field::mul_add_region_with`]).
    pub fn mul_region_with(&self, kernel: Kernel, dst: &mut [u8], c: u8) {
        self.run_mul(Detected::check(kernel), dst, c);
    }

    /// [`Field::mul_add_multi`] on a chosen kernel.
    pub fn mul_add_multi_with(&self, kernel: Kernel, dst: &mut [u8], srcs: &[&[u8]], coeffs: &[u8]) {
        self.mul_add_multi_with_detected(Detected::check(kernel), dst, srcs, coeffs);
    }

    fn mul_add_multi_with_detected(&self, k: Detected, dst: &mut [u8], srcs: &[&[u8]], coeffs: &[u8]) {
        assert_eq!(srcs.len(), coeffs.len(), "mul_add_multi: one coefficient per source");
        for s in srcs {
            assert_eq!(s.len(), dst.len(), "mul_add_multi: every source must have dst's length");
        }
        // Groups of MULTI_GROUP sources: the tables of a group stay in registers on AVX2.
        for (ss, cs) in srcs.chunks(MULTI_GROUP).zip(coeffs.chunks(MULTI_GROUP)) {
            let mut tbls: [&[u8; 32]; MULTI_GROUP] = [&self.nib[0]; MULTI_GROUP];
            let mut rows: [&[u8; 256]; MULTI_GROUP] = [&self.mul[0]; MULTI_GROUP];
            for (t, &c) in cs.iter().enumerate() {
                tbls[t] = &self.nib[c as usize];
                rows[t] = &self.mul[c as usize];
            }
            self.run_mul_add_multi(k, dst, ss, &tbls[..ss.len()], &rows[..ss.len()]);
        }
    }

    #[inline]
    fn run_mul_add(&self, k: Detected, dst: &mut [u8], src: &[u8], c: u8) {
        let tbl = &self.nib[c as usize];
        let row = &self.mul[c as usize];
        match k.kernel() {
            Kernel::Portable => portable::mul_add(row, dst, src),
            #[cfg(target_arch = "x86_64")]
            Kernel::Ssse3 => super::simd_x86::mul_add_ssse3_checked(k, tbl, row, dst, src),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => super::simd_x86::mul_add_avx2_checked(k, tbl, row, dst, src),
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Kernel::Simd128 => super::simd_wasm::mul_add(tbl, row, dst, src),
            #[allow(unreachable_patterns)]
            _ => {
                let _ = tbl;
                unreachable!("Detected holds only available kernels")
            }
        }
    }

    #[inline]
    fn run_mul(&self, k: Detected, dst: &mut [u8], c: u8) {
        let tbl = &self.nib[c as usize];
        let row = &self.mul[c as usize];
        match k.kernel() {
            Kernel::Portable => portable::mul(row, dst),
            #[cfg(target_arch = "x86_64")]
            Kernel::Ssse3 => super::simd_x86::mul_ssse3_checked(k, tbl, row, dst),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => super::simd_x86::mul_avx2_checked(k, tbl, row, dst),
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Kernel::Simd128 => super::simd_wasm::mul(tbl, row, dst),
            #[allow(unreachable_patterns)]
            _ => {
                let _ = tbl;
                unreachable!("Detected holds only available kernels")
            }
        }
    }

    #[inline]
    fn run_mul_add_multi(&self, k: Detected, dst: &mut [u8], srcs: &[&[u8]], tbls: &[&[u8; 32]], rows: &[&[u8; 256]]) {
        match k.kernel() {
            Kernel::Portable => {
                for (s, r) in srcs.iter().zip(rows) {
                    portable::mul_add(r, dst, s);
                }
            }
            #[cfg(target_arch = "x86_64")]
            Kernel::Ssse3 => {
                for ((s, t), r) in srcs.iter().zip(tbls).zip(rows) {
                    super::simd_x86::mul_add_ssse3_checked(k, t, r, dst, s);
                }
            }
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => super::simd_x86::mul_add_multi_avx2_checked(k, tbls, rows, dst, srcs),
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Kernel::Simd128 => super::simd_wasm::mul_add_multi(tbls, rows, dst, srcs),
            #[allow(unreachable_patterns)]
            _ => {
                let _ = tbls;
                unreachable!("Detected holds only available kernels")
            }
        }
    }
}

/// `dst ^= src` (the region operation for `c = 1`); LLVM vectorises this loop on every target.
#[inline]
pub fn xor_region(dst: &mut [u8], src: &[u8]) {
    assert_eq!(dst.len(), src.len(), "xor_region: dst and src must have equal lengths");
    for (d, s) in dst.iter_mut().zip(src) {
        *d ^= *s;
    }
}

/// The field over 0x11D, built once.
pub fn default_field() -> &'static Field {
    field(Polynomial::P11D)
}

/// The field over `p`, built once per polynomial.
pub fn field(p: Polynomial) -> &'static Field {
    static P11D: OnceLock<Field> = OnceLock::new();
    static P11B: OnceLock<Field> = OnceLock::new();
    match p {
        Polynomial::P11D => P11D.get_or_init(|| Field::new(Polynomial::P11D)),
        Polynomial::P11B => P11B.get_or_init(|| Field::new(Polynomial::P11B)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn f() -> &'static Field {
        default_field()
    }

    #[test]
    fn exp_table_matches_the_published_vectors() {
        let want = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1d, 0x3a, 0x74, 0xe8, 0xcd, 0x87, 0x13, 0x26];
        for (i, w) in want.iter().enumerate() {
            assert_eq!(f().exp(i), *w, "exp[{i}]");
        }
        assert_eq!(f().log(0x1d), 8);
        assert_eq!(f().log(0x03), 25);
        assert_eq!(f().log(0xff), 175);
    }

    #[test]
    fn products_match_the_published_vectors() {
        assert_eq!(f().inv(0x02), 0x8e);
        assert_eq!(f().mul(0x02, 0x8e), 0x01);
        assert_eq!(f().mul(0xff, 0xff), 0xe2);
        assert_eq!(f().mul(0x53, 0xca), 0x8f);
        assert_eq!(f().mul(0x57, 0x83), 0x31);
    }

    #[test]
    fn aes_field_matches_fips197_and_the_ctcp_tables() {
        let aes = field(Polynomial::P11B);
        assert_eq!(aes.mul(0x53, 0xca), 0x01);
        assert_eq!(aes.mul(0x57, 0x83), 0xc1);
        // CTCP util.c: antilog table starts 01 03 05 0f 11 33 55 ff; inverse table 00 01 8d f6.
        let antilog = [0x01, 0x03, 0x05, 0x0f, 0x11, 0x33, 0x55, 0xff];
        for (i, w) in antilog.iter().enumerate() {
            assert_eq!(aes.exp(i), *w);
        }
        assert_eq!([aes.inv(1), aes.inv(2), aes.inv(3)], [0x01, 0x8d, 0xf6]);
        // 2 has order 51 in the AES field.
        let mut x = 1u8;
        let mut order = 0;
        loop {
            x = aes.mul(x, 2);
            order += 1;
            if x == 1 {
                break;
            }
        }
        assert_eq!(order, 51);
    }

    #[test]
    fn all_products_match_log_exp_and_shift_and_add_for_both_polynomials() {
        for p in [Polynomial::P11D, Polynomial::P11B] {
            let fl = field(p);
            let mut all = 0u8;
            for a in 0..=255u8 {
                for b in 0..=255u8 {
                    let by_logs = if a == 0 || b == 0 { 0 } else { fl.exp(fl.log(a) as usize + fl.log(b) as usize) };
                    let m = fl.mul(a, b);
                    assert_eq!(m, by_logs, "{p:?}: {a:#x}·{b:#x}");
                    assert_eq!(m, mul_slow(p.bits(), a, b), "{p:?}: {a:#x}·{b:#x}");
                    let t = fl.nibble_table(a);
                    assert_eq!(m, t[(b & 15) as usize] ^ t[16 + (b >> 4) as usize]);
                    all ^= m;
                }
            }
            assert_eq!(all, 0, "XOR of all 65 536 products is 0");
        }
    }

    #[test]
    fn every_nonzero_element_has_an_inverse() {
        for p in [Polynomial::P11D, Polynomial::P11B] {
            let fl = field(p);
            for a in 1..=255u8 {
                assert_eq!(fl.mul(a, fl.inv(a)), 1, "{p:?}: {a:#x}");
                assert_eq!(fl.div(a, a), 1);
            }
        }
    }

    #[test]
    fn inverse_of_zero_is_zero_in_release_builds() {
        if !cfg!(debug_assertions) {
            assert_eq!(f().inv(0), 0);
        }
    }

    #[test]
    fn commutativity_associativity_and_distributivity_hold_for_all_pairs() {
        let fl = f();
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                assert_eq!(fl.mul(a, b), fl.mul(b, a));
            }
        }
        // Associativity and distributivity over all pairs, with a third element from a stride.
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                for c in [0u8, 1, 2, 3, 0x1d, 0x53, 0x8e, 0xca, 0xff] {
                    assert_eq!(fl.mul(fl.mul(a, b), c), fl.mul(a, fl.mul(b, c)));
                    assert_eq!(fl.mul(a, b ^ c), fl.mul(a, b) ^ fl.mul(a, c));
                }
            }
        }
    }

    proptest! {
        #[test]
        fn field_laws_hold_for_random_triples(a: u8, b: u8, c: u8) {
            for fl in [field(Polynomial::P11D), field(Polynomial::P11B)] {
                prop_assert_eq!(fl.mul(fl.mul(a, b), c), fl.mul(a, fl.mul(b, c)));
                prop_assert_eq!(fl.mul(a, b ^ c), fl.mul(a, b) ^ fl.mul(a, c));
                prop_assert_eq!(fl.mul(a, 1), a);
                prop_assert_eq!(fl.mul(a, 0), 0);
            }
        }

        #[test]
        fn every_kernel_equals_the_scalar_product(
            len in 0usize..2100,
            offset in 0usize..33,
            c: u8,
            seed: u64,
        ) {
            let mut rng = seed | 1;
            let mut next = || { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; rng as u8 };
            let src_buf: Vec<u8> = (0..len + offset).map(|_| next()).collect();
            let dst0: Vec<u8> = (0..len + offset).map(|_| next()).collect();
            let src = &src_buf[offset..];
            let want_add: Vec<u8> = dst0[offset..].iter().zip(src).map(|(d, s)| d ^ f().mul(c, *s)).collect();
            let want_mul: Vec<u8> = dst0[offset..].iter().map(|d| f().mul(c, *d)).collect();
            for k in Kernel::available() {
                // Misaligned on purpose: the slices start at `offset` into their buffers.
                let mut dst = dst0.clone();
                f().mul_add_region_with(k, &mut dst[offset..], src, c);
                prop_assert_eq!(&dst[offset..], &want_add[..], "mul_add {:?}", k);
                prop_assert_eq!(&dst[..offset], &dst0[..offset], "{:?} wrote before the slice", k);
                let mut dst = dst0.clone();
                f().mul_region_with(k, &mut dst[offset..], c);
                prop_assert_eq!(&dst[offset..], &want_mul[..], "mul {:?}", k);
            }
            let mut dst = dst0[offset..].to_vec();
            f().mul_add_region(&mut dst, src, c);
            prop_assert_eq!(&dst[..], &want_add[..]);
            let mut dst = dst0[offset..].to_vec();
            f().mul_region(&mut dst, c);
            prop_assert_eq!(&dst[..], &want_mul[..]);
        }

        #[test]
        fn fused_multi_source_equals_repeated_axpy(
            len in 0usize..700,
            n in 0usize..20,
            seed: u64,
        ) {
            let mut rng = seed | 1;
            let mut next = || { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; rng as u8 };
            let srcs: Vec<Vec<u8>> = (0..n).map(|_| (0..len).map(|_| next()).collect()).collect();
            let coeffs: Vec<u8> = (0..n).map(|_| next()).collect();
            let dst0: Vec<u8> = (0..len).map(|_| next()).collect();
            let mut want = dst0.clone();
            for (s, c) in srcs.iter().zip(&coeffs) {
                for (d, x) in want.iter_mut().zip(s) {
                    *d ^= f().mul(*c, *x);
                }
            }
            let refs: Vec<&[u8]> = srcs.iter().map(|s| &s[..]).collect();
            for k in Kernel::available() {
                let mut dst = dst0.clone();
                f().mul_add_multi_with(k, &mut dst, &refs, &coeffs);
                prop_assert_eq!(&dst, &want, "{:?}", k);
            }
        }
    }

    #[test]
    fn every_kernel_handles_all_coefficients_and_every_tail_length() {
        // All 256 coefficients × lengths 0..=129 cover each kernel's vector body and every tail.
        let src: Vec<u8> = (0..129u32).map(|i| (i.wrapping_mul(151) ^ 0x5a) as u8).collect();
        for k in Kernel::available() {
            for c in 0..=255u8 {
                for len in 0..=src.len() {
                    let mut dst: Vec<u8> = (0..len).map(|i| i as u8).collect();
                    f().mul_add_region_with(k, &mut dst, &src[..len], c);
                    for i in 0..len {
                        assert_eq!(dst[i], i as u8 ^ f().mul(c, src[i]), "{k:?} c={c} len={len} i={i}");
                    }
                }
            }
        }
    }

    #[test]
    fn fused_kernels_handle_every_length_around_their_blocks() {
        // Lengths 0..=300 cover the 128/64-byte blocks, the 32/16-byte steps and the overlapping
        // tail of every multi-source kernel, for 1, 3 and 8 sources.
        let fl = f();
        let srcs: Vec<Vec<u8>> =
            (0..8u32).map(|s| (0..300u32).map(|i| (i * 73 + s * 41 + 5) as u8).collect()).collect();
        let coeffs = [0x02u8, 0x53, 0xff, 0x01, 0x8e, 0x1d, 0xca, 0x37];
        for k in Kernel::available() {
            for n in [1usize, 3, 8] {
                for len in 0..=300 {
                    let refs: Vec<&[u8]> = srcs[..n].iter().map(|s| &s[..len]).collect();
                    let mut dst: Vec<u8> = (0..len).map(|i| (i * 7) as u8).collect();
                    let mut want = dst.clone();
                    for (s, &c) in refs.iter().zip(&coeffs) {
                        for (d, x) in want.iter_mut().zip(s.iter()) {
                            *d ^= fl.mul(c, *x);
                        }
                    }
                    fl.mul_add_multi_with(k, &mut dst, &refs, &coeffs[..n]);
                    assert_eq!(dst, want, "{k:?} n={n} len={len}");
                }
            }
        }
    }

    #[test]
    fn the_best_kernel_is_available_and_preferred_over_portable_when_simd_exists() {
        let best = Kernel::best();
        assert!(best.is_available());
        assert!(Kernel::Portable.is_available());
        if Kernel::Avx2.is_available() {
            assert_eq!(best, Kernel::Avx2);
        }
        #[cfg(not(target_arch = "x86_64"))]
        assert!(!Kernel::Avx2.is_available() && !Kernel::Ssse3.is_available());
    }

    #[test]
    #[should_panic(expected = "equal lengths")]
    fn region_lengths_must_match() {
        f().mul_add_region(&mut [0u8; 4], &[0u8; 5], 3);
    }

    #[test]
    fn an_unavailable_kernel_is_refused_not_run() {
        for k in Kernel::ALL.into_iter().filter(|k| !k.is_available()) {
            let r = std::panic::catch_unwind(|| f().mul_add_region_with(k, &mut [0u8; 64], &[1u8; 64], 7));
            assert!(r.is_err(), "{k:?} must panic when unavailable");
        }
    }
}
