//! What the GF(256) kernels share: which kernel runs ([`Kernel`], and [`Detected`], the proof
//! that it may), the portable path, the shapes of their arguments, and how a dot product is cut
//! into passes over batches of sources (`dot_passes`). The SIMD kernels
//! (`simd_x86.rs`, `simd_wasm.rs`) import only this file; `gf256.rs` and `dot.rs` choose a kernel
//! and call them.

use std::sync::OnceLock;

/// Sources fused per pass of [`Field::mul_add_multi`].
pub(crate) const MULTI_GROUP: usize = 8;

/// An implementation of the region operations. Every kernel gives the same bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kernel {
    /// 256-byte product row per coefficient, one lookup per byte; compiles everywhere.
    Portable,
    /// x86-64 SSSE3 `PSHUFB` on nibble tables, 16 bytes per lookup.
    Ssse3,
    /// x86-64 AVX2 `VPSHUFB` on nibble tables, 32 bytes per lookup.
    Avx2,
    /// wasm `i8x16.swizzle` on nibble tables, 16 bytes per lookup (needs `+simd128` at build).
    Simd128,
}

impl Kernel {
    /// Every kernel, whether or not this build or CPU has it.
    pub const ALL: [Kernel; 4] = [Kernel::Portable, Kernel::Ssse3, Kernel::Avx2, Kernel::Simd128];

    /// Whether this kernel can run here: compiled in, and (x86) supported by the CPU.
    pub fn is_available(self) -> bool {
        match self {
            Kernel::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Kernel::Ssse3 => std::is_x86_feature_detected!("ssse3"),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => std::is_x86_feature_detected!("avx2"),
            Kernel::Simd128 => cfg!(all(target_arch = "wasm32", target_feature = "simd128")),
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    /// The kernels available here, slowest first.
    pub fn available() -> impl Iterator<Item = Kernel> {
        Kernel::ALL.into_iter().filter(|k| k.is_available())
    }

    /// The fastest available kernel (detected once, then cached).
    pub fn best() -> Kernel {
        Detected::best().0
    }

    /// A short name for reports and benchmark ids.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Portable => "portable",
            Kernel::Ssse3 => "ssse3",
            Kernel::Avx2 => "avx2",
            Kernel::Simd128 => "simd128",
        }
    }
}

/// A kernel that has been checked to be available. The only ways to build one are
/// [`Detected::check`] and [`Detected::best`], so holding one is the proof the SIMD modules rely
/// on before they call a `#[target_feature]` function.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Detected(Kernel);

impl Detected {
    pub(crate) fn check(kernel: Kernel) -> Detected {
        assert!(kernel.is_available(), "GF(256) kernel {} is not available on this CPU/build", kernel.name());
        Detected(kernel)
    }

    #[inline]
    pub(crate) fn best() -> Detected {
        static BEST: OnceLock<Kernel> = OnceLock::new();
        Detected(*BEST.get_or_init(|| {
            [Kernel::Simd128, Kernel::Avx2, Kernel::Ssse3]
                .into_iter()
                .find(|k| k.is_available())
                .unwrap_or(Kernel::Portable)
        }))
    }

    pub(crate) fn kernel(self) -> Kernel {
        self.0
    }
}

/// The portable kernel: one 256-byte product row per coefficient (docs/coding.md §6 measured this
/// as the fastest scalar method).
pub(crate) mod portable {
    #[inline]
    pub fn mul_add(row: &[u8; 256], dst: &mut [u8], src: &[u8]) {
        for (d, s) in dst.iter_mut().zip(src) {
            *d ^= row[*s as usize];
        }
    }

    #[inline]
    pub fn mul(row: &[u8; 256], dst: &mut [u8]) {
        for d in dst.iter_mut() {
            *d = row[*d as usize];
        }
    }
}

/// Destinations computed per pass over the sources (ISA-L's `gf_4vect_dot_prod`): with two
/// 32-byte vectors per destination, AVX2's sixteen registers hold the eight accumulators, the four
/// nibble vectors of the current source, the mask and one table pair.
#[cfg_attr(not(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128"))), allow(dead_code))]
pub(crate) const DOT_DSTS: usize = 4;

/// Sources per batch of the SIMD kernels: their pointers live on the stack; later batches add to
/// what earlier ones wrote.
#[cfg_attr(not(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128"))), allow(dead_code))]
pub(crate) const DOT_BATCH: usize = 64;

/// A multi-destination dot product, as [`Field::dot_prod_rows`] takes it and a kernel computes it:
/// `dst` holds `dst.len() / width` destination rows of `width` bytes (the SIMD kernels compute
/// them [`DOT_DSTS`] at a time); source row `rows[t]` is `src[rows[t]·stride ..][..width]`;
/// `coeffs` is the destinations × sources matrix, row-major. [`Field::dot_prod_rows`] checks all
/// of this.
pub struct DotJob<'a> {
    pub dst: &'a mut [u8],
    pub width: usize,
    pub src: &'a [u8],
    pub stride: usize,
    pub rows: &'a [usize],
    pub coeffs: &'a [u8],
}

/// One pass of a SIMD dot product: up to [`DOT_DSTS`] destination rows and one batch of at most
/// [`DOT_BATCH`] sources. `srcs[t]` is valid for `width` bytes and `tabs[t][d]`, the nibble table
/// of destination d's coefficient of source t, for 32 (both taken from checked slices by
/// [`dot_passes`]). The first batch overwrites `dst`; later ones add to it.
#[cfg_attr(not(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128"))), allow(dead_code))]
pub(crate) struct Pass<'a> {
    pub dst: &'a mut [u8],
    pub width: usize,
    pub srcs: &'a [*const u8],
    pub tabs: &'a [[*const u8; DOT_DSTS]],
    pub first: bool,
}

/// A dot product as the SIMD kernels compute it (ISA-L's `gf_4vect_dot_prod`): for each batch of
/// sources and each group of [`DOT_DSTS`] destinations, one [`Pass`] given to `pass`, which walks
/// the columns once with the destinations' accumulators in registers. The pointers are gathered
/// per batch, so that a pass's inner loop carries no bounds checks and no coefficient arithmetic:
/// `srcs[t]` from `&src[r·stride..][..width]`, `tabs[t][d]` from a 32-byte table. `vector_bytes`
/// is the kernel's vector width, the narrowest row it computes.
#[cfg_attr(not(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128"))), allow(dead_code))]
#[inline(always)]
pub(crate) fn dot_passes(tables: &[[u8; 32]; 256], job: DotJob, vector_bytes: usize, mut pass: impl FnMut(Pass)) {
    let DotJob { dst, width: w, src, stride, rows, coeffs } = job;
    assert!(w >= vector_bytes && !rows.is_empty() && dst.len() % w == 0 && coeffs.len() == dst.len() / w * rows.len());
    let n = rows.len();
    let mut srcs = [core::ptr::null::<u8>(); DOT_BATCH];
    let mut tabs = [[core::ptr::null::<u8>(); DOT_DSTS]; DOT_BATCH];
    for (b, batch) in rows.chunks(DOT_BATCH).enumerate() {
        for (p, &r) in srcs.iter_mut().zip(batch) {
            *p = src[r * stride..][..w].as_ptr();
        }
        let srcs = &srcs[..batch.len()];
        for (dst, cs) in dst.chunks_mut(DOT_DSTS * w).zip(coeffs.chunks(DOT_DSTS * n)) {
            for (t, tab) in tabs[..batch.len()].iter_mut().enumerate() {
                for (d, p) in tab.iter_mut().enumerate().take(cs.len() / n) {
                    *p = tables[cs[d * n + b * DOT_BATCH + t] as usize].as_ptr();
                }
            }
            pass(Pass { dst, width: w, srcs, tabs: &tabs[..batch.len()], first: b == 0 });
        }
    }
}
