//! Criterion benchmarks of the network codec: the GF(256) region multiply-add on every kernel
//! available here (GB/s for 1 KB–64 KB buffers), the fused multi-source form, the
//! multi-destination dot product, and RLNC encode and
//! decode throughput for k ∈ {16, 32, 64, 128} with 1400-byte symbols.
//!
//! Throughput conventions: region ops count the bytes of `src` (for the dot product, of every
//! source once per destination: the bytes of all the products); encoding counts the block bytes
//! (k·L) combined into one coded packet; decoding counts the block bytes (k·L) recovered per block.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use orbitcp_core::coding::{default_field, Decoder, DotJob, Encoder, Kernel};
use std::hint::black_box;
use std::time::Duration;

const SIZES: [usize; 4] = [1 << 10, 4 << 10, 16 << 10, 64 << 10];
const KS: [usize; 4] = [16, 32, 64, 128];
const L: usize = 1400;

fn bytes(n: usize, mut s: u64) -> Vec<u8> {
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s as u8
        })
        .collect()
}

fn region(c: &mut Criterion) {
    let f = default_field();
    let mut g = c.benchmark_group("gf_mul_add_region");
    for k in Kernel::available() {
        for &n in &SIZES {
            let src = bytes(n, 1);
            let mut dst = bytes(n, 2);
            g.throughput(Throughput::Bytes(n as u64));
            g.bench_with_input(BenchmarkId::new(k.name(), n), &n, |b, _| {
                b.iter(|| f.mul_add_region_with(k, black_box(&mut dst), black_box(&src), 0x53))
            });
        }
    }
    g.finish();

    let mut g = c.benchmark_group("gf_mul_add_multi_8x1400");
    let srcs: Vec<Vec<u8>> = (0..8).map(|i| bytes(L, 10 + i)).collect();
    let refs: Vec<&[u8]> = srcs.iter().map(|s| &s[..]).collect();
    let coeffs = [0x53, 0x11, 0xca, 0x02, 0x8e, 0xff, 0x1d, 0x37];
    let mut dst = bytes(L, 3);
    g.throughput(Throughput::Bytes(8 * L as u64));
    for k in Kernel::available() {
        g.bench_function(BenchmarkId::new("fused", k.name()), |b| {
            b.iter(|| f.mul_add_multi_with(k, black_box(&mut dst), &refs, &coeffs))
        });
        g.bench_function(BenchmarkId::new("one_by_one", k.name()), |b| {
            b.iter(|| {
                for (s, &c) in refs.iter().zip(&coeffs) {
                    f.mul_add_region_with(k, black_box(&mut dst), s, c);
                }
            })
        });
    }
    g.finish();

    // The solve at full rank: four destinations from 32 sources (a quarter of a k = 32 block).
    let mut g = c.benchmark_group("gf_dot_prod_4x32x1400");
    let n = 32;
    let src = bytes(n * L, 20);
    let rows: Vec<usize> = (0..n).collect();
    let coeffs = bytes(4 * n, 21);
    let mut dst = vec![0u8; 4 * L];
    g.throughput(Throughput::Bytes((4 * n * L) as u64));
    for k in Kernel::available() {
        g.bench_function(BenchmarkId::new("fused", k.name()), |b| {
            b.iter(|| {
                f.dot_prod_rows_with(
                    k,
                    DotJob { dst: black_box(&mut dst), width: L, src: &src, stride: L, rows: &rows, coeffs: &coeffs },
                )
            })
        });
    }
    g.finish();
}

fn encoder(k: usize) -> Encoder {
    let mut enc = Encoder::new(default_field(), k, L);
    for i in 0..k {
        enc.set_source(i, &bytes(L, i as u64 + 100));
    }
    enc
}

/// `n` dense coded packets of the block: (coefficients, payloads), row after row.
fn coded(enc: &Encoder, n: usize) -> (Vec<u8>, Vec<u8>) {
    let k = enc.k();
    let (mut c, mut p) = (vec![0u8; n * k], vec![0u8; n * L]);
    for s in 0..n {
        enc.encode_seeded(42, s as u32, &mut c[s * k..(s + 1) * k], &mut p[s * L..(s + 1) * L]);
    }
    (c, p)
}

fn rlnc(c: &mut Criterion) {
    let mut g = c.benchmark_group("rlnc_encode_1400");
    for &k in &KS {
        let enc = encoder(k);
        let (coeffs, _) = coded(&enc, 1);
        let mut out = vec![0u8; L];
        g.throughput(Throughput::Bytes((k * L) as u64));
        g.bench_with_input(BenchmarkId::from_parameter(k), &k, |b, _| {
            b.iter(|| enc.encode(black_box(&coeffs), black_box(&mut out)))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("rlnc_decode_1400");
    for &k in &KS {
        let enc = encoder(k);
        let n = k + 8;
        let (coeffs, payloads) = coded(&enc, n);
        g.throughput(Throughput::Bytes((k * L) as u64));
        // Worst case: every packet is coded (k² row operations).
        let mut dec = Decoder::new(default_field(), k, L);
        g.bench_with_input(BenchmarkId::new("dense", k), &k, |b, _| {
            b.iter(|| {
                dec.reset();
                let mut s = 0;
                while !dec.is_complete() {
                    dec.add(&coeffs[s * k..(s + 1) * k], &payloads[s * L..(s + 1) * L]);
                    s += 1;
                }
                black_box(dec.symbol(0));
            })
        });
        // CTCP's usual case: systematic packets with every 10th lost, then coded repair packets.
        g.bench_with_input(BenchmarkId::new("systematic_10pct_loss", k), &k, |b, _| {
            b.iter(|| {
                dec.reset();
                for i in (0..k).filter(|i| i % 10 != 3) {
                    dec.add_systematic(i, enc.source(i));
                }
                let mut s = 0;
                while !dec.is_complete() {
                    dec.add(&coeffs[s * k..(s + 1) * k], &payloads[s * L..(s + 1) * L]);
                    s += 1;
                }
                black_box(dec.symbol(0));
            })
        });
        // The payload-free model: the same elimination on coefficients only.
        let mut bare = Decoder::new(default_field(), k, 0);
        g.bench_with_input(BenchmarkId::new("dense_rank_only", k), &k, |b, _| {
            b.iter(|| {
                bare.reset();
                let mut s = 0;
                while !bare.is_complete() {
                    bare.add(&coeffs[s * k..(s + 1) * k], &[]);
                    s += 1;
                }
                black_box(bare.rank());
            })
        });
    }
    g.finish();
}

fn config() -> Criterion {
    Criterion::default().warm_up_time(Duration::from_millis(700)).measurement_time(Duration::from_secs(2))
}

criterion_group! {
    name = benches;
    config = config();
    targets = region, rlnc
}
criterion_main!(benches);
