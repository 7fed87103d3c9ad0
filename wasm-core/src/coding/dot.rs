//! The multi-destination dot product over GF(256): `dst[d] = Σ_t coeffs[d][t]·src[rows[t]]`, a
//! small coefficient matrix times rows of a payload matrix. The RLNC decoder solves a block with
//! it once the coefficient matrix is inverted (`rlnc.rs`).
//!
//! Sources: Intel ISA-L `gf_4vect_dot_prod_avx2.asm` (four outputs per pass over the sources: each
//! source vector is loaded and split into nibbles once and feeds four products, and the outputs
//! stay in registers until the pass ends), docs/coding.md §3 (the nibble tables).
//!
//! Why it is faster than repeated `dst ^= c·src`: the nibble method costs, per 32 bytes of one
//! product, an AND, a shift, an AND (split the source), two shuffles and two XORs (look up and
//! add). With four destinations per pass the split is paid once for four products, and no
//! destination is loaded or stored inside the pass, so a product costs two shuffles and two XORs.
//!
//! Every kernel gives the same bytes as the portable one (tested below for every kernel, ragged
//! widths, 1 to 9 destinations and 0 to 128 sources).

use super::gf256::Field;
use super::kernel::{portable, Detected, DotJob, Kernel};

impl Field {
    /// `dst[d] = Σ_t coeffs[d·n + t] · src[rows[t]·stride ..][..width]` for every destination row
    /// `d` (`dst` holds `dst.len() / width` rows of `width` bytes, overwritten; `n = rows.len()`),
    /// on the fastest available kernel. Rows may repeat; a zero coefficient contributes nothing.
    /// Panics if `dst.len()` is not a multiple of `width`, if `coeffs` is not destinations × `n`,
    /// or if a source row reaches past `src`.
    pub fn dot_prod_rows(&self, job: DotJob) {
        self.dot_with_detected(Detected::best(), job);
    }

    /// [`Field::dot_prod_rows`] on a chosen kernel. Panics if `kernel` is not available here.
    pub fn dot_prod_rows_with(&self, kernel: Kernel, job: DotJob) {
        self.dot_with_detected(Detected::check(kernel), job);
    }

    fn dot_with_detected(&self, k: Detected, job: DotJob) {
        let DotJob { dst, width, src, stride, rows, coeffs } = job;
        if width == 0 {
            assert!(dst.is_empty(), "dot_prod_rows: a destination of zero width holds no bytes");
            return;
        }
        assert_eq!(dst.len() % width, 0, "dot_prod_rows: dst must hold whole rows of `width` bytes");
        let n = rows.len();
        assert_eq!(coeffs.len(), dst.len() / width * n, "dot_prod_rows: one coefficient per destination and source");
        for &r in rows {
            let end = r.checked_mul(stride).and_then(|o| o.checked_add(width));
            assert!(end.is_some_and(|e| e <= src.len()), "dot_prod_rows: source row {r} reaches past src");
        }
        if n == 0 {
            dst.fill(0);
            return;
        }
        let products = self.product_rows();
        let job = DotJob { dst, width, src, stride, rows, coeffs };
        match k.kernel() {
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 if width >= 32 => super::simd_x86::dot_avx2_checked(k, self.nibble_tables(), job),
            #[cfg(target_arch = "x86_64")]
            Kernel::Ssse3 | Kernel::Avx2 => {
                // No fused SSSE3 kernel: zero, then one multiply-add per product.
                let tables = self.nibble_tables();
                for (d, out) in job.dst.chunks_exact_mut(width).enumerate() {
                    out.fill(0);
                    for (t, &r) in rows.iter().enumerate() {
                        let c = coeffs[d * n + t] as usize;
                        let s = &src[r * stride..][..width];
                        super::simd_x86::mul_add_ssse3_checked(k, &tables[c], &products[c], out, s);
                    }
                }
            }
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Kernel::Simd128 if width >= 16 => super::simd_wasm::dot(self.nibble_tables(), job),
            _ => dot_portable(products, job),
        }
    }
}

/// The portable kernel, and the definition the others are tested against.
fn dot_portable(products: &[[u8; 256]; 256], job: DotJob) {
    let DotJob { dst, width, src, stride, rows, coeffs } = job;
    let n = rows.len();
    for (d, out) in dst.chunks_exact_mut(width).enumerate() {
        out.fill(0);
        for (t, &r) in rows.iter().enumerate() {
            let c = coeffs[d * n + t];
            if c != 0 {
                portable::mul_add(&products[c as usize], out, &src[r * stride..][..width]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::gf256::{default_field, field, Polynomial};
    use super::*;
    use proptest::prelude::*;

    fn xorshift(seed: u64) -> impl FnMut() -> u8 {
        let mut s = seed | 1;
        move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s as u8
        }
    }

    /// The definition, one byte at a time with the scalar product.
    fn oracle(
        f: &Field,
        d_count: usize,
        width: usize,
        src: &[u8],
        stride: usize,
        rows: &[usize],
        coeffs: &[u8],
    ) -> Vec<u8> {
        let n = rows.len();
        let mut out = vec![0u8; d_count * width];
        for d in 0..d_count {
            for i in 0..width {
                out[d * width + i] = (0..n).fold(0, |a, t| a ^ f.mul(coeffs[d * n + t], src[rows[t] * stride + i]));
            }
        }
        out
    }

    proptest! {
        #[test]
        fn every_kernel_equals_the_scalar_definition(
            d_count in 1usize..=9,
            n in 0usize..=40,
            width in 0usize..=300,
            extra in 0usize..=40,
            seed: u64,
            zeros in 0u8..=3,
        ) {
            // Ragged widths, a stride wider than the rows, repeated rows, and (with `zeros`) many
            // zero and unit coefficients.
            let mut next = xorshift(seed);
            let stride = width + extra;
            let n_rows = 1 + n;
            let src: Vec<u8> = (0..n_rows * stride).map(|_| next()).collect();
            let rows: Vec<usize> = (0..n).map(|_| next() as usize % n_rows).collect();
            let coeffs: Vec<u8> = (0..d_count * n)
                .map(|_| match next() % 4 {
                    x if x < zeros => x % 2,
                    _ => next(),
                })
                .collect();
            for p in [Polynomial::P11D, Polynomial::P11B] {
                let f = field(p);
                let want = oracle(f, d_count, width, &src, stride, &rows, &coeffs);
                for k in Kernel::available() {
                    let mut dst: Vec<u8> = (0..d_count * width).map(|_| next()).collect();
                    f.dot_prod_rows_with(k, DotJob { dst: &mut dst, width, src: &src, stride, rows: &rows, coeffs: &coeffs });
                    prop_assert_eq!(&dst, &want, "{:?} {:?}", p, k);
                }
            }
        }
    }

    #[test]
    fn every_kernel_handles_every_width_around_its_vectors() {
        // Widths 0..=260 cover the 64/32-byte steps, the overlapping last vector and the narrow
        // fallbacks, for destination counts on both sides of a pass (4), and 1, 3, 8 and 70
        // sources (70: two batches of sources, the second adding to what the first wrote).
        let f = default_field();
        let mut next = xorshift(9);
        let stride = 261;
        let src: Vec<u8> = (0..70 * stride).map(|_| next()).collect();
        let coeffs: Vec<u8> = (0..6 * 70).map(|_| next()).collect();
        for k in Kernel::available() {
            for d_count in [1usize, 2, 3, 4, 5, 6] {
                for n in [1usize, 3, 8, 70] {
                    let rows: Vec<usize> = (0..n).rev().collect();
                    let cs = &coeffs[..d_count * n];
                    for width in 0..=260 {
                        let want = oracle(f, d_count, width, &src, stride, &rows, cs);
                        let mut dst = vec![0xEEu8; d_count * width];
                        f.dot_prod_rows_with(
                            k,
                            DotJob { dst: &mut dst, width, src: &src, stride, rows: &rows, coeffs: cs },
                        );
                        assert_eq!(dst, want, "{k:?} d={d_count} n={n} width={width}");
                    }
                }
            }
        }
    }

    #[test]
    fn every_kernel_agrees_for_1_to_128_sources_at_the_ctcp_symbol_length() {
        // A block's solve multiplies k × k coefficients by k rows of 1445 bytes (CTCP's payload,
        // not a multiple of any vector width).
        let f = default_field();
        let width = 1445;
        let mut next = xorshift(3);
        let src: Vec<u8> = (0..128 * width).map(|_| next()).collect();
        for n in 1..=128usize {
            let d_count = 1 + n % 6;
            let rows: Vec<usize> = (0..n).map(|t| (t * 37) % 128).collect();
            let coeffs: Vec<u8> = (0..d_count * n).map(|_| next()).collect();
            let mut want = vec![0u8; d_count * width];
            f.dot_prod_rows_with(
                Kernel::Portable,
                DotJob { dst: &mut want, width, src: &src, stride: width, rows: &rows, coeffs: &coeffs },
            );
            if n <= 4 {
                assert_eq!(want, oracle(f, d_count, width, &src, width, &rows, &coeffs));
            }
            for k in Kernel::available() {
                let mut dst = vec![0u8; d_count * width];
                f.dot_prod_rows_with(
                    k,
                    DotJob { dst: &mut dst, width, src: &src, stride: width, rows: &rows, coeffs: &coeffs },
                );
                assert!(dst == want, "{k:?} n={n}");
            }
        }
    }

    #[test]
    fn kernels_write_only_their_destination_rows() {
        let f = default_field();
        let src = vec![0x5Bu8; 3 * 200];
        for k in Kernel::available() {
            for width in [1usize, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 200] {
                for d_count in [1usize, 4, 5] {
                    let mut buf = vec![0xAAu8; d_count * width + 64];
                    let coeffs = vec![0x37u8; d_count * 3];
                    let dst = &mut buf[32..32 + d_count * width];
                    f.dot_prod_rows_with(
                        k,
                        DotJob { dst, width, src: &src, stride: width, rows: &[0, 1, 2], coeffs: &coeffs },
                    );
                    assert!(buf[..32].iter().all(|&b| b == 0xAA), "{k:?} width {width}: wrote before");
                    assert!(buf[32 + d_count * width..].iter().all(|&b| b == 0xAA), "{k:?} width {width}: wrote after");
                }
            }
        }
    }

    #[test]
    fn no_sources_gives_zero_rows() {
        let mut dst = vec![7u8; 3 * 40];
        default_field().dot_prod_rows(DotJob {
            dst: &mut dst,
            width: 40,
            src: &[],
            stride: 40,
            rows: &[],
            coeffs: &[],
        });
        assert!(dst.iter().all(|&b| b == 0));
    }

    #[test]
    #[should_panic(expected = "reaches past src")]
    fn a_source_row_past_the_matrix_is_refused() {
        let mut dst = vec![0u8; 10];
        default_field().dot_prod_rows(DotJob {
            dst: &mut dst,
            width: 10,
            src: &[0u8; 25],
            stride: 10,
            rows: &[2],
            coeffs: &[1],
        });
    }

    #[test]
    #[should_panic(expected = "one coefficient per destination and source")]
    fn a_short_coefficient_matrix_is_refused() {
        let mut dst = vec![0u8; 20];
        default_field().dot_prod_rows(DotJob {
            dst: &mut dst,
            width: 10,
            src: &[0u8; 20],
            stride: 10,
            rows: &[0, 1],
            coeffs: &[1, 2, 3],
        });
    }
}
