//! Systematic random linear network coding over GF(256): seeded coefficients, an encoder, and a
//! progressive Gaussian-elimination decoder with early delivery.
//!
//! Sources: docs/coding.md §4 (systematic packets first, then dense combinations whose
//! coefficients come from a seed; never the all-zero vector), docs/coding.md §5 (the CTCP receiver,
//! [CTCP-code] `clictcp.c` `bldack`/`normalize`/`shift_row`/`unwrap`: rows kept in row-echelon form
//! indexed by pivot column with the pivot normalised to 1, a packet reduced at its leading
//! position until it finds an empty pivot slot or vanishes, in-order delivery of leading unit rows,
//! back-substitution once the block is full rank), docs/ctcp.md §7 (the payload-free model: the same
//! elimination on coefficient vectors only), docs/coding.md §5 (progressive forward elimination).
//!
//! Decisions depend on coefficients only. The decoder eliminates on the small coefficient
//! matrix (k × k) and leaves the payloads as they arrived: each row also carries the combination
//! of stored payloads it stands for (another k bytes). A payload is computed only when its row
//! becomes a unit row: at once for a row that arrives decoded before full rank, and for all the
//! others at full rank, in one pass of the multi-destination dot product
//! ([`Field::dot_prod_rows`], ISA-L's `gf_4vect_dot_prod`). So a decoder built with
//! `symbol_len = 0` ("rank-only") takes exactly the decisions of a payload decoder — innovative or
//! not, rank, decoded prefix — at a fraction of the cost (tested), and a non-innovative packet
//! never touches the stored payloads.
//!
//! Complexity (k = block size, L = symbol length, r = current rank; costs in GF(256)
//! multiply-adds):
//! * [`Decoder::add_systematic`] into an empty pivot slot: a copy of L bytes, O(k) elimination.
//! * [`Decoder::add`]: O(r·k) on the coefficients (at most one row subtraction of 2k bytes per
//!   present pivot at or after the packet's leading position) and a copy of L bytes if
//!   innovative; plus O(r·L) if the packet reduces to a unit row before full rank. A
//!   non-innovative packet costs O(r·k) and no payload work.
//! * When the rank reaches k: O(k³) on the coefficients and O(u·k·L) on the payloads, where u is
//!   the number of rows that are not yet unit rows (k²·L for an all-coded block, each source
//!   loaded once for four outputs); nothing after an all-systematic block.
//! * Memory: k·(2k + L) bytes with payloads, k² in rank-only mode, plus a solve buffer of about
//!   16 KiB and O(k²) bytes of index and matrix scratch, allocated once in [`Decoder::new`];
//!   adding a packet allocates nothing.
//! * Encoding one coded packet: k·L multiply-adds (fused, `dst` kept in registers).
//!
//! Length: over 600 lines because half of it is the tests at the bottom (property tests against
//! an independent rank oracle, and the decoder's early-delivery and solve cases); the code itself
//! is one encoder and one decoder, which share the coefficient generator.

use super::gf256::Field;
use super::kernel::{DotJob, MULTI_GROUP};

/// splitmix64's increment (Steele, Lea, Flood 2014): 2⁶⁴/φ, odd.
const SPLITMIX_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// splitmix64's output function (Stafford's "Mix13" variant as in the reference splitmix64).
#[inline]
fn splitmix_mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Deterministic coefficients for coded packet `seed` of a block: `out[..k]` receives k bytes,
/// i.i.d. uniform over GF(256) from splitmix64 seeded by `(block_seed, seed)`; if all k are zero
/// the generator keeps drawing until they are not (docs/coding.md §4: CTCP redraws an all-zero
/// vector), so the result is never the zero vector for `k ≥ 1`. Bytes of `out` past `k` are left
/// alone. Panics if `out.len() < k`.
pub fn coefficients(block_seed: u64, seed: u32, k: usize, out: &mut [u8]) {
    assert!(out.len() >= k, "coefficients: out holds {} bytes, k = {k}", out.len());
    let out = &mut out[..k];
    let mut state = splitmix_mix(splitmix_mix(block_seed) ^ (seed as u64));
    loop {
        let mut any = 0u8;
        for chunk in out.chunks_mut(8) {
            state = state.wrapping_add(SPLITMIX_GAMMA);
            let bytes = splitmix_mix(state).to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
            any |= chunk.iter().fold(0, |a, b| a | b);
        }
        if any != 0 || k == 0 {
            return;
        }
    }
}

/// A block of k source symbols of `symbol_len` bytes; produces the systematic packets (the
/// sources themselves, [`Encoder::source`]) and coded packets ([`Encoder::encode`]).
#[derive(Clone, Debug)]
pub struct Encoder {
    field: &'static Field,
    k: usize,
    symbol_len: usize,
    /// Source `i` is `data[i·L .. (i+1)·L]`.
    data: Vec<u8>,
}

impl Encoder {
    /// An encoder for `k ≥ 1` zeroed sources of `symbol_len` bytes each.
    pub fn new(field: &'static Field, k: usize, symbol_len: usize) -> Encoder {
        assert!(k >= 1, "a block holds at least one source symbol");
        Encoder { field, k, symbol_len, data: vec![0; k * symbol_len] }
    }

    pub fn k(&self) -> usize {
        self.k
    }

    pub fn symbol_len(&self) -> usize {
        self.symbol_len
    }

    /// Sets source `i` to `data`, zero-padded to `symbol_len`. Panics if `i ≥ k` or `data` is
    /// longer than `symbol_len`.
    pub fn set_source(&mut self, i: usize, data: &[u8]) {
        assert!(i < self.k, "source index {i} out of range (k = {})", self.k);
        assert!(data.len() <= self.symbol_len, "source of {} bytes exceeds symbol_len {}", data.len(), self.symbol_len);
        let row = &mut self.data[i * self.symbol_len..(i + 1) * self.symbol_len];
        row[..data.len()].copy_from_slice(data);
        row[data.len()..].fill(0);
    }

    /// Source `i` (`symbol_len` bytes): the payload of systematic packet `i`.
    pub fn source(&self, i: usize) -> &[u8] {
        &self.data[i * self.symbol_len..(i + 1) * self.symbol_len]
    }

    /// `out = Σ coeffs[i]·source[i]`. Panics unless `coeffs.len() == k` and
    /// `out.len() == symbol_len`.
    pub fn encode(&self, coeffs: &[u8], out: &mut [u8]) {
        assert_eq!(coeffs.len(), self.k, "encode: one coefficient per source");
        assert_eq!(out.len(), self.symbol_len, "encode: out must be symbol_len bytes");
        out.fill(0);
        let l = self.symbol_len;
        let mut srcs: [&[u8]; MULTI_GROUP] = [&[]; MULTI_GROUP];
        let mut cs = [0u8; MULTI_GROUP];
        let mut n = 0;
        for (i, &c) in coeffs.iter().enumerate() {
            if c == 0 {
                continue;
            }
            srcs[n] = &self.data[i * l..(i + 1) * l];
            cs[n] = c;
            n += 1;
            if n == MULTI_GROUP {
                self.field.mul_add_multi(out, &srcs, &cs);
                n = 0;
            }
        }
        if n > 0 {
            self.field.mul_add_multi(out, &srcs[..n], &cs[..n]);
        }
    }

    /// Coded packet `seed` of the block identified by `block_seed`: fills `coeffs` (k bytes) with
    /// [`coefficients`] and `out` with the combination.
    pub fn encode_seeded(&self, block_seed: u64, seed: u32, coeffs: &mut [u8], out: &mut [u8]) {
        coefficients(block_seed, seed, self.k, coeffs);
        self.encode(&coeffs[..self.k], out);
    }
}

/// What a received packet did to the decoder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reception {
    /// Linearly independent of everything received: the rank grew by one.
    Innovative,
    /// In the span of what was already received (or the block is complete): nothing changed.
    NonInnovative,
}

/// Bytes of stored payloads one strip of a solve reads: the outputs of a strip are computed from
/// every used payload's strip before any is written back (so the solve works in place), and
/// these 16 KiB stay in the L1 cache while the outputs are computed four at a time.
const SOLVE_STRIP_BYTES: usize = 16 << 10;

/// The strip width for a solve that reads `n` stored payloads of `l` bytes: about
/// [`SOLVE_STRIP_BYTES`] in all, a multiple of 64 bytes between 64 and 1024.
fn strip_width(n: usize, l: usize) -> usize {
    (SOLVE_STRIP_BYTES / n.max(1) / 64 * 64).clamp(64, 1024).min(l)
}

/// The receiver side of one block: progressive Gaussian elimination (docs/coding.md §5).
///
/// Row `j`, when present, has its leading 1 at column `j` and zeros before it. A row is a *unit
/// row* when it is exactly `e_j`: its source symbol is decoded. Before full rank only rows that
/// arrive as unit rows (systematic packets, or coded packets that reduce to one) are decoded, as in
/// the CTCP reference receiver; at full rank back-substitution decodes the rest.
///
/// Payloads are not reduced as packets arrive. Each row also records, in k more bytes, which
/// combination of the stored payloads (the packets as received, one per pivot slot) it stands for.
/// When a row becomes a unit row, that combination is its source symbol, and it is computed then:
/// for a single row at once, and at full rank for all the remaining rows in one pass of the
/// multi-destination dot product ([`Field::dot_prod_rows`]). The payload bytes are those of
/// reducing the payloads step by step, as GF(256) arithmetic is exact; the work is the same k²·L
/// multiply-adds at worst, done by a kernel that loads each source once for four outputs.
///
/// With `symbol_len = 0` the decoder is "rank-only": it runs the same elimination on coefficient
/// vectors and makes the same decisions, and [`Decoder::symbol`] returns empty slices.
#[derive(Clone, Debug)]
pub struct Decoder {
    field: &'static Field,
    k: usize,
    symbol_len: usize,
    /// Row width of `coef`: k in rank-only mode, 2k with payloads.
    width: usize,
    /// Row `j` is `coef[j·width .. (j+1)·width]` (meaningful when `present[j]`): its k
    /// coefficients over the sources, then (with payloads) its k coefficients over the stored
    /// payloads: row j's payload is `Σ_q coef[j·width + k + q]·payload[q]`.
    coef: Vec<u8>,
    /// Slot `j`: the payload of the packet that made row `j`, as received; once row `j` is a unit
    /// row, source symbol `j`.
    payload: Vec<u8>,
    present: Vec<bool>,
    /// `unit[j]`: row `j` is present and equal to `e_j`.
    unit: Vec<bool>,
    rank: usize,
    /// Leading rows `0..prefix` are all unit rows.
    prefix: usize,
    /// The packet's row (`width` bytes) while it is reduced.
    scratch: Vec<u8>,
    /// The rows being solved, and their combinations of stored payloads (k bytes each).
    pending: Vec<usize>,
    solution: Vec<u8>,
    /// The stored payloads a solve uses, and the solution restricted to them.
    cols: Vec<usize>,
    matrix: Vec<u8>,
    /// One strip of the solved rows (pending rows × strip width).
    strip: Vec<u8>,
}

impl Decoder {
    /// A decoder for a block of `k ≥ 1` symbols of `symbol_len` bytes (0 for rank-only). All
    /// memory is allocated here.
    pub fn new(field: &'static Field, k: usize, symbol_len: usize) -> Decoder {
        assert!(k >= 1, "a block holds at least one source symbol");
        let (width, solving) = if symbol_len > 0 { (2 * k, k) } else { (k, 0) };
        Decoder {
            field,
            k,
            symbol_len,
            width,
            coef: vec![0; k * width],
            payload: vec![0; k * symbol_len],
            present: vec![false; k],
            unit: vec![false; k],
            rank: 0,
            prefix: 0,
            scratch: vec![0; width],
            pending: vec![0; solving],
            solution: vec![0; solving * solving],
            cols: vec![0; solving],
            matrix: vec![0; solving * solving],
            // A solve's m rows are linearly independent combinations of its n payloads, so m ≤ n
            // and m·(width + 31) ≤ n·width + 31·n stays within this (see `strip_width`).
            strip: vec![0; (solving * symbol_len).min(SOLVE_STRIP_BYTES + 96 * solving)],
        }
    }

    /// Forgets everything received, keeping the memory, to decode the next block.
    pub fn reset(&mut self) {
        self.present.fill(false);
        self.unit.fill(false);
        self.rank = 0;
        self.prefix = 0;
    }

    pub fn k(&self) -> usize {
        self.k
    }

    pub fn symbol_len(&self) -> usize {
        self.symbol_len
    }

    /// A coded packet with coefficient vector `coeffs` (k bytes) and `payload` (`symbol_len`
    /// bytes; empty in rank-only mode). Panics on other lengths.
    pub fn add(&mut self, coeffs: &[u8], payload: &[u8]) -> Reception {
        assert_eq!(coeffs.len(), self.k, "add: the coefficient vector must have k entries");
        assert_eq!(payload.len(), self.symbol_len, "add: the payload must be symbol_len bytes");
        if self.rank == self.k {
            return Reception::NonInnovative;
        }
        self.scratch[..self.k].copy_from_slice(coeffs);
        self.insert(payload)
    }

    /// A coded packet whose coefficients are [`coefficients`]`(block_seed, seed, k)`.
    pub fn add_seeded(&mut self, block_seed: u64, seed: u32, payload: &[u8]) -> Reception {
        assert_eq!(payload.len(), self.symbol_len, "add: the payload must be symbol_len bytes");
        if self.rank == self.k {
            return Reception::NonInnovative;
        }
        coefficients(block_seed, seed, self.k, &mut self.scratch);
        self.insert(payload)
    }

    /// Systematic packet `i` (the unit vector `e_i`) with its payload. Same decisions as
    /// `add(e_i, payload)`; costs a copy when pivot slot `i` is empty.
    pub fn add_systematic(&mut self, i: usize, payload: &[u8]) -> Reception {
        assert!(i < self.k, "systematic index {i} out of range (k = {})", self.k);
        assert_eq!(payload.len(), self.symbol_len, "add_systematic: the payload must be symbol_len bytes");
        if self.rank == self.k || self.unit[i] {
            return Reception::NonInnovative;
        }
        let k = self.k;
        self.scratch[..k].fill(0);
        self.scratch[i] = 1;
        if self.present[i] {
            // A coded row already holds pivot i: reduce e_i against it like any other packet.
            return self.insert(payload);
        }
        self.unit_row(i);
        let l = self.symbol_len;
        self.payload[i * l..(i + 1) * l].copy_from_slice(payload);
        self.present[i] = true;
        self.unit[i] = true;
        self.grew();
        Reception::Innovative
    }

    /// Degrees of freedom received: the rank of the received coefficient vectors (≤ k).
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// Whether the rank is k (then every symbol is decoded).
    pub fn is_complete(&self) -> bool {
        self.rank == self.k
    }

    /// How many source symbols from index 0 are decoded and can be delivered in order now
    /// (early delivery of unit rows before full rank; k once complete).
    pub fn decoded_prefix(&self) -> usize {
        self.prefix
    }

    /// Whether source `i` is decoded (its row is a unit row).
    pub fn is_decoded(&self, i: usize) -> bool {
        self.unit[i]
    }

    /// Source symbol `i`, once decoded (an empty slice in rank-only mode).
    pub fn symbol(&self, i: usize) -> Option<&[u8]> {
        let l = self.symbol_len;
        self.unit[i].then(|| &self.payload[i * l..(i + 1) * l])
    }

    /// Sets row `i` to `e_i`, over the sources and (with payloads) over the stored payloads.
    fn unit_row(&mut self, i: usize) {
        let (k, w) = (self.k, self.width);
        let row = &mut self.coef[i * w..(i + 1) * w];
        row.fill(0);
        row[i] = 1;
        if w > k {
            row[k + i] = 1;
        }
    }

    /// Reduces the coefficients in `scratch[..k]` against the stored rows; stores the row if
    /// innovative.
    fn insert(&mut self, payload: &[u8]) -> Reception {
        let f = self.field;
        let (k, w, l) = (self.k, self.width, self.symbol_len);
        self.scratch[k..].fill(0);
        let mut j = 0;
        // Forward elimination (CTCP `bldack`): at the leading non-zero position j, either pivot
        // slot j is empty (innovative) or row j is subtracted. Whole rows: row j is zero before
        // j, and its 1 at j clears scratch[j]; its second half follows along.
        let pivot = loop {
            match self.scratch[j..k].iter().position(|&x| x != 0) {
                None => break None,
                Some(o) => j += o,
            }
            if !self.present[j] {
                break Some(j);
            }
            let c = self.scratch[j];
            f.mul_add_region(&mut self.scratch, &self.coef[j * w..(j + 1) * w], c);
            debug_assert_eq!(self.scratch[j], 0);
            j += 1;
        };
        let Some(p) = pivot else {
            return Reception::NonInnovative;
        };
        if l > 0 {
            // The packet's payload goes to slot p. The rows subtracted have pivots before p and
            // combine only payloads stored before p, so the packet's own share is exactly 1.
            debug_assert_eq!(self.scratch[k + p], 0);
            self.scratch[k + p] = 1;
        }
        // Normalise the pivot to 1 (CTCP `normalize`) and store the row.
        let inv = f.inv(self.scratch[p]);
        f.mul_region(&mut self.scratch, inv);
        let is_unit = self.scratch[p + 1..k].iter().all(|&x| x == 0);
        self.coef[p * w..(p + 1) * w].copy_from_slice(&self.scratch);
        if l > 0 {
            self.payload[p * l..(p + 1) * l].copy_from_slice(payload);
            if is_unit {
                // Decoded before full rank: its symbol is its combination of stored payloads.
                self.pending[0] = p;
                self.solution[..k].copy_from_slice(&self.scratch[k..]);
                self.solve(1);
                self.unit_row(p);
            }
        }
        self.present[p] = true;
        self.unit[p] = is_unit;
        self.grew();
        Reception::Innovative
    }

    /// Bookkeeping after a row was stored: rank, delivered prefix, and decoding at full rank.
    fn grew(&mut self) {
        self.rank += 1;
        while self.prefix < self.k && self.unit[self.prefix] {
            self.prefix += 1;
        }
        if self.rank == self.k {
            self.back_substitute();
        }
    }

    /// Clears the above-diagonal entries from the bottom row up (CTCP `unwrap`) on the
    /// coefficients: once rows `i+1..k` are `e_j`, row i becomes `row_i − Σ_{j>i} coef[i][j]·row_j`,
    /// and its second half the combination of stored payloads that is source `i`. Then all those
    /// symbols are computed in one solve.
    fn back_substitute(&mut self) {
        let f = self.field;
        let (k, w) = (self.k, self.width);
        let mut m = 0;
        for i in (0..k).rev() {
            if self.unit[i] {
                continue;
            }
            let (head, tail) = self.coef.split_at_mut((i + 1) * w);
            let (cf, comb) = head[i * w..].split_at_mut(k);
            if w > k {
                // Rows j > i that were unit rows before this pass combine only payload j; the
                // others hold their solution by now (their second halves, fused 8 at a time).
                let mut srcs: [&[u8]; MULTI_GROUP] = [&[]; MULTI_GROUP];
                let mut cs = [0u8; MULTI_GROUP];
                let mut n = 0;
                for j in i + 1..k {
                    let c = cf[j];
                    if c == 0 {
                        continue;
                    }
                    if self.unit[j] {
                        comb[j] ^= c;
                        continue;
                    }
                    srcs[n] = &tail[(j - i - 1) * w + k..(j - i) * w];
                    cs[n] = c;
                    n += 1;
                    if n == MULTI_GROUP {
                        f.mul_add_multi(comb, &srcs, &cs);
                        n = 0;
                    }
                }
                if n > 0 {
                    f.mul_add_multi(comb, &srcs[..n], &cs[..n]);
                }
                self.pending[m] = i;
                self.solution[m * k..(m + 1) * k].copy_from_slice(comb);
                m += 1;
            }
            cf[i + 1..].fill(0);
        }
        if m > 0 {
            self.solve(m);
            for t in 0..m {
                self.unit_row(self.pending[t]);
            }
        }
        self.unit.fill(true);
        self.prefix = k;
    }

    /// Replaces the payloads of rows `pending[..m]` by their combinations `solution[t·k..][..k]`
    /// of the stored payloads, strip by strip.
    fn solve(&mut self, m: usize) {
        let (k, l) = (self.k, self.symbol_len);
        // Only the stored payloads some pending row uses.
        let mut nc = 0;
        for q in 0..k {
            if (0..m).any(|t| self.solution[t * k + q] != 0) {
                self.cols[nc] = q;
                nc += 1;
            }
        }
        for t in 0..m {
            for (c, &q) in self.cols[..nc].iter().enumerate() {
                self.matrix[t * nc + c] = self.solution[t * k + q];
            }
        }
        let base = strip_width(nc, l);
        let mut col = 0;
        while col < l {
            // A last strip narrower than a vector joins the one before it.
            let sw = if l - col < base + 32 { l - col } else { base };
            let out = &mut self.strip[..m * sw];
            self.field.dot_prod_rows(DotJob {
                dst: out,
                width: sw,
                src: &self.payload[col..],
                stride: l,
                rows: &self.cols[..nc],
                coeffs: &self.matrix[..m * nc],
            });
            for (o, &r) in out.chunks_exact(sw).zip(&self.pending[..m]) {
                self.payload[r * l + col..][..sw].copy_from_slice(o);
            }
            col += sw;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::gf256::{default_field, field, Polynomial};
    use super::*;
    use proptest::prelude::*;

    /// Rank of a set of vectors by plain Gaussian elimination (the test oracle).
    fn oracle_rank(f: &Field, rows: &[Vec<u8>]) -> usize {
        let mut m: Vec<Vec<u8>> = rows.to_vec();
        let cols = m.first().map_or(0, |r| r.len());
        let mut rank = 0;
        for col in 0..cols {
            let Some(p) = (rank..m.len()).find(|&r| m[r][col] != 0) else { continue };
            m.swap(rank, p);
            let inv = f.inv(m[rank][col]);
            let pivot: Vec<u8> = m[rank].iter().map(|&x| f.mul(x, inv)).collect();
            for (r, row) in m.iter_mut().enumerate() {
                if r != rank && row[col] != 0 {
                    let c = row[col];
                    for (x, y) in row.iter_mut().zip(&pivot) {
                        *x ^= f.mul(c, *y);
                    }
                }
            }
            m[rank] = pivot;
            rank += 1;
        }
        rank
    }

    /// The coefficients over the sources of every row (the first k bytes of each).
    fn coefficient_part(d: &Decoder) -> Vec<u8> {
        d.coef.chunks_exact(d.width).flat_map(|r| r[..d.k].to_vec()).collect()
    }

    fn unit(k: usize, i: usize) -> Vec<u8> {
        let mut v = vec![0; k];
        v[i] = 1;
        v
    }

    fn sources(k: usize, l: usize, seed: u64) -> Encoder {
        let mut enc = Encoder::new(default_field(), k, l);
        let mut s = seed | 1;
        for i in 0..k {
            let data: Vec<u8> = (0..l)
                .map(|_| {
                    s ^= s << 13;
                    s ^= s >> 7;
                    s ^= s << 17;
                    s as u8
                })
                .collect();
            enc.set_source(i, &data);
        }
        enc
    }

    /// A packet description for property tests: systematic index, or a coefficient vector drawn
    /// with a given density (so that sparse and dependent vectors occur often).
    #[derive(Clone, Debug)]
    enum Pkt {
        Sys(usize),
        Coded(Vec<u8>),
    }

    fn packets(k: usize, max: usize) -> impl Strategy<Value = Vec<Pkt>> {
        let coded = prop::collection::vec(prop_oneof![3 => Just(0u8), 1 => Just(1u8), 4 => any::<u8>()], k);
        let pkt = prop_oneof![1 => (0..k).prop_map(Pkt::Sys), 2 => coded.prop_map(Pkt::Coded)];
        prop::collection::vec(pkt, 0..max)
    }

    fn coeffs_of(k: usize, p: &Pkt) -> Vec<u8> {
        match p {
            Pkt::Sys(i) => unit(k, *i),
            Pkt::Coded(c) => c.clone(),
        }
    }

    fn feed(dec: &mut Decoder, enc: &Encoder, p: &Pkt) -> Reception {
        let l = dec.symbol_len();
        match p {
            Pkt::Sys(i) => {
                let payload = if l == 0 { &[][..] } else { enc.source(*i) };
                dec.add_systematic(*i, payload)
            }
            Pkt::Coded(c) => {
                let mut out = vec![0; enc.symbol_len()];
                enc.encode(c, &mut out);
                dec.add(c, if l == 0 { &[] } else { &out })
            }
        }
    }

    fn block() -> impl Strategy<Value = (usize, usize, u64)> {
        (1usize..=12, 0usize..=70, any::<u64>())
    }

    /// A block (k, symbol length, source seed) and a packet sequence for it.
    fn case(min_l: usize, max_pkts: usize) -> impl Strategy<Value = (usize, usize, u64, Vec<Pkt>)> {
        (1usize..=12).prop_flat_map(move |k| (Just(k), min_l..=70usize, any::<u64>(), packets(k, max_pkts)))
    }

    proptest! {
        #[test]
        fn rank_follows_the_oracle_and_full_rank_decodes_the_sources(
            (k, l, seed, pkts) in case(0, 40),
        ) {
            let enc = sources(k, l, seed);
            let mut dec = Decoder::new(default_field(), k, l);
            let mut seen: Vec<Vec<u8>> = Vec::new();
            for p in pkts.iter() {
                let before = oracle_rank(default_field(), &seen);
                seen.push(coeffs_of(k, p));
                let after = oracle_rank(default_field(), &seen);
                let r = feed(&mut dec, &enc, p);
                prop_assert_eq!(r == Reception::Innovative, after > before);
                prop_assert_eq!(dec.rank(), after);
                prop_assert!(dec.rank() <= k);
                for i in 0..dec.decoded_prefix() {
                    prop_assert_eq!(dec.symbol(i), Some(enc.source(i)));
                }
                // Rows decoded out of order (a coded packet that reduces to a unit row) too.
                for i in (0..k).filter(|&i| dec.is_decoded(i)) {
                    prop_assert_eq!(dec.symbol(i), Some(enc.source(i)));
                }
            }
            if dec.is_complete() {
                prop_assert_eq!(dec.decoded_prefix(), k);
                for i in 0..k {
                    prop_assert_eq!(dec.symbol(i), Some(enc.source(i)));
                }
            }
        }

        #[test]
        fn any_k_independent_coded_packets_decode_to_the_original_bytes(
            (k, l, seed) in block(),
            block_seed: u64,
            first_seed: u32,
            keep_sys in prop::collection::vec(any::<bool>(), 12),
        ) {
            let enc = sources(k, l, seed);
            let mut dec = Decoder::new(default_field(), k, l);
            for (i, &keep) in keep_sys.iter().enumerate().take(k) {
                if keep {
                    prop_assert_eq!(dec.add_systematic(i, enc.source(i)), Reception::Innovative);
                }
            }
            let mut coeffs = vec![0; k];
            let mut out = vec![0; l];
            let mut s = first_seed;
            while !dec.is_complete() {
                enc.encode_seeded(block_seed, s, &mut coeffs, &mut out);
                dec.add(&coeffs, &out);
                s = s.wrapping_add(1);
                prop_assert!(s.wrapping_sub(first_seed) < 10 * k as u32 + 10, "too many packets");
            }
            for i in 0..k {
                prop_assert_eq!(dec.symbol(i), Some(enc.source(i)));
            }
        }

        #[test]
        fn a_non_innovative_packet_changes_nothing(
            (k, l, seed, pkts) in case(0, 20),
            mix in prop::collection::vec(any::<u8>(), 40),
        ) {
            let enc = sources(k, l, seed);
            let mut dec = Decoder::new(default_field(), k, l);
            let mut got: Vec<Vec<u8>> = Vec::new();
            for p in pkts.iter() {
                feed(&mut dec, &enc, p);
                got.push(coeffs_of(k, p));
            }
            // Any combination of received packets is in their span.
            let mut c = vec![0u8; k];
            for (row, m) in got.iter().zip(&mix) {
                for (x, y) in c.iter_mut().zip(row) {
                    *x ^= default_field().mul(*m, *y);
                }
            }
            let mut out = vec![0; l];
            enc.encode(&c, &mut out);
            let snapshot = dec.clone();
            prop_assert_eq!(dec.add(&c, &out), Reception::NonInnovative);
            prop_assert_eq!(&dec.coef, &snapshot.coef);
            prop_assert_eq!(&dec.payload, &snapshot.payload);
            prop_assert_eq!(&dec.present, &snapshot.present);
            prop_assert_eq!(&dec.unit, &snapshot.unit);
            prop_assert_eq!((dec.rank, dec.prefix), (snapshot.rank, snapshot.prefix));
        }

        #[test]
        fn rank_only_mode_takes_the_same_decisions_as_payload_mode(
            (k, l, seed, pkts) in case(1, 40),
        ) {
            let enc = sources(k, l, seed);
            let mut full = Decoder::new(default_field(), k, l);
            let mut bare = Decoder::new(default_field(), k, 0);
            for p in pkts.iter() {
                prop_assert_eq!(feed(&mut full, &enc, p), feed(&mut bare, &enc, p));
                prop_assert_eq!(full.rank(), bare.rank());
                prop_assert_eq!(full.decoded_prefix(), bare.decoded_prefix());
                prop_assert_eq!(full.is_complete(), bare.is_complete());
                for i in 0..k {
                    prop_assert_eq!(full.is_decoded(i), bare.is_decoded(i));
                    prop_assert_eq!(bare.symbol(i).map(<[u8]>::len), bare.is_decoded(i).then_some(0));
                }
                prop_assert_eq!(coefficient_part(&full), coefficient_part(&bare));
            }
        }

        #[test]
        fn systematic_shortcut_equals_adding_the_unit_vector(
            (k, l, seed, pkts) in case(0, 30),
        ) {
            let enc = sources(k, l, seed);
            let mut a = Decoder::new(default_field(), k, l);
            let mut b = Decoder::new(default_field(), k, l);
            for p in pkts.iter() {
                let ra = feed(&mut a, &enc, p);
                let rb = match p {
                    Pkt::Sys(i) => b.add(&unit(k, *i), enc.source(*i)),
                    _ => feed(&mut b, &enc, p),
                };
                prop_assert_eq!(ra, rb);
                prop_assert_eq!((a.rank(), a.decoded_prefix()), (b.rank(), b.decoded_prefix()));
                for i in 0..k {
                    prop_assert_eq!(a.symbol(i), b.symbol(i));
                }
            }
        }

        #[test]
        fn rank_never_exceeds_k(k in 1usize..=8, block_seed: u64, n in 0u32..60) {
            let mut dec = Decoder::new(default_field(), k, 0);
            let mut c = vec![0; k];
            for s in 0..n {
                coefficients(block_seed, s, k, &mut c);
                dec.add(&c, &[]);
                prop_assert!(dec.rank() <= k);
                prop_assert!(dec.decoded_prefix() <= k);
            }
        }
    }

    #[test]
    fn in_order_systematic_packets_are_delivered_one_by_one() {
        let enc = sources(32, 100, 7);
        let mut dec = Decoder::new(default_field(), 32, 100);
        for i in 0..32 {
            assert_eq!(dec.add_systematic(i, enc.source(i)), Reception::Innovative);
            assert_eq!(dec.decoded_prefix(), i + 1);
            assert_eq!(dec.symbol(i), Some(enc.source(i)));
        }
        assert!(dec.is_complete());
        assert_eq!(dec.add_systematic(3, enc.source(3)), Reception::NonInnovative);
    }

    #[test]
    fn a_lost_systematic_packet_holds_delivery_until_a_coded_packet_repairs_the_block() {
        let k = 8;
        let enc = sources(k, 50, 3);
        let mut dec = Decoder::new(default_field(), k, 50);
        for i in (0..k).filter(|&i| i != 2) {
            dec.add_systematic(i, enc.source(i));
        }
        assert_eq!((dec.rank(), dec.decoded_prefix()), (7, 2));
        assert_eq!(dec.symbol(2), None);
        assert_eq!(dec.symbol(5), Some(enc.source(5)), "later unit rows are decoded, not yet deliverable");
        let mut c = vec![0; k];
        let mut out = vec![0; 50];
        enc.encode_seeded(11, 0, &mut c, &mut out);
        assert_eq!(dec.add(&c, &out), Reception::Innovative);
        assert!(dec.is_complete());
        assert_eq!(dec.decoded_prefix(), k);
        assert_eq!(dec.symbol(2), Some(enc.source(2)));
    }

    #[test]
    fn a_systematic_packet_after_a_coded_row_at_its_pivot_is_reduced_not_dropped() {
        let k = 3;
        let enc = sources(k, 20, 5);
        let mut dec = Decoder::new(default_field(), k, 20);
        let c = [1u8, 2, 3];
        let mut out = vec![0; 20];
        enc.encode(&c, &mut out);
        assert_eq!(dec.add(&c, &out), Reception::Innovative);
        assert_eq!(dec.decoded_prefix(), 0);
        assert_eq!(dec.add_systematic(0, enc.source(0)), Reception::Innovative);
        assert_eq!(dec.rank(), 2);
        assert_eq!(dec.add_systematic(2, enc.source(2)), Reception::Innovative);
        assert!(dec.is_complete());
        for i in 0..k {
            assert_eq!(dec.symbol(i), Some(enc.source(i)));
        }
    }

    #[test]
    fn a_dense_block_decodes_from_k_coded_packets_in_the_ctcp_field() {
        let f = field(Polynomial::P11B);
        let (k, l) = (32, 1400);
        let mut enc = Encoder::new(f, k, l);
        for i in 0..k {
            let data: Vec<u8> = (0..l).map(|j| (i * 31 + j * 7) as u8).collect();
            enc.set_source(i, &data);
        }
        let mut dec = Decoder::new(f, k, l);
        let (mut c, mut out) = (vec![0; k], vec![0; l]);
        let mut s = 0;
        while !dec.is_complete() {
            enc.encode_seeded(99, s, &mut c, &mut out);
            dec.add(&c, &out);
            s += 1;
        }
        assert!(s <= k as u32 + 2, "{s} packets for k = {k}");
        for i in 0..k {
            assert_eq!(dec.symbol(i), Some(enc.source(i)));
        }
    }

    #[test]
    fn blocks_of_every_size_from_1_to_128_decode_to_the_source_bytes() {
        // The solve at full rank runs the multi-destination kernel on every block size, with
        // ragged symbol lengths (CTCP's 1445 bytes, and lengths around the vector widths), dense
        // blocks and blocks with some systematic packets.
        for k in 1..=128usize {
            let l = [1445, 100, 31, 64, 17][k % 5];
            let enc = sources(k, l, k as u64);
            let mut dec = Decoder::new(default_field(), k, l);
            for keep_every in [0usize, 3] {
                dec.reset();
                if keep_every > 0 {
                    for i in (0..k).step_by(keep_every) {
                        dec.add_systematic(i, enc.source(i));
                    }
                }
                let (mut c, mut out) = (vec![0; k], vec![0; l]);
                let mut s = 0;
                while !dec.is_complete() {
                    enc.encode_seeded(k as u64, s, &mut c, &mut out);
                    dec.add(&c, &out);
                    s += 1;
                }
                for i in 0..k {
                    assert!(dec.symbol(i) == Some(enc.source(i)), "k = {k}, l = {l}, symbol {i}");
                }
            }
        }
    }

    #[test]
    fn a_coded_packet_that_reduces_to_a_unit_row_is_decoded_before_full_rank() {
        // Sources 0 and 1 arrive systematic; 5·s0 + 7·s1 + 3·s2 then reduces to 3·e_2, so source
        // 2 is decoded (and deliverable) while source 3 is still missing.
        let k = 4;
        let enc = sources(k, 300, 8);
        let mut dec = Decoder::new(default_field(), k, 300);
        dec.add_systematic(0, enc.source(0));
        dec.add_systematic(1, enc.source(1));
        let c = [5u8, 7, 3, 0];
        let mut out = vec![0; 300];
        enc.encode(&c, &mut out);
        assert_eq!(dec.add(&c, &out), Reception::Innovative);
        assert_eq!((dec.rank(), dec.decoded_prefix()), (3, 3));
        for i in 0..3 {
            assert_eq!(dec.symbol(i), Some(enc.source(i)));
        }
        assert_eq!(dec.symbol(3), None);
    }

    #[test]
    fn coefficients_are_deterministic_distinct_per_seed_and_never_all_zero() {
        let (mut a, mut b) = ([0u8; 40], [0u8; 40]);
        coefficients(5, 9, 32, &mut a);
        coefficients(5, 9, 32, &mut b);
        assert_eq!(a, b);
        assert_eq!(&a[32..], &[0; 8], "bytes past k are left alone");
        coefficients(5, 10, 32, &mut b);
        assert_ne!(a[..32], b[..32]);
        coefficients(6, 9, 32, &mut b);
        assert_ne!(a[..32], b[..32]);
        // k = 1 draws zero with probability 1/256: over 20 000 seeds the redraw path runs.
        let mut one = [0u8; 1];
        let mut zeros_first = 0;
        for s in 0..20_000 {
            coefficients(1, s, 1, &mut one);
            assert_ne!(one[0], 0, "seed {s}");
            let first = splitmix_mix(splitmix_mix(splitmix_mix(1) ^ s as u64).wrapping_add(SPLITMIX_GAMMA)) as u8;
            zeros_first += (first == 0) as u32;
        }
        assert!(zeros_first > 0, "the redraw path was exercised");
    }

    #[test]
    fn set_source_zero_pads_a_short_symbol() {
        let mut enc = Encoder::new(default_field(), 2, 6);
        enc.set_source(1, &[9, 9, 9, 9, 9, 9]);
        enc.set_source(1, &[1, 2]);
        assert_eq!(enc.source(1), &[1, 2, 0, 0, 0, 0]);
        let mut out = [0u8; 6];
        enc.encode(&[0, 1], &mut out);
        assert_eq!(out, [1, 2, 0, 0, 0, 0]);
    }

    #[test]
    fn encoding_is_the_sum_of_scaled_sources() {
        let enc = sources(20, 77, 1);
        let c: Vec<u8> = (0..20).map(|i| (i * 37 + 1) as u8).collect();
        let mut out = vec![0; 77];
        enc.encode(&c, &mut out);
        for (j, &got) in out.iter().enumerate() {
            let want = (0..20).fold(0u8, |a, i| a ^ default_field().mul(c[i], enc.source(i)[j]));
            assert_eq!(got, want);
        }
    }

    #[test]
    fn adding_packets_reuses_the_preallocated_buffers() {
        let (k, l) = (16, 300);
        let enc = sources(k, l, 4);
        let mut dec = Decoder::new(default_field(), k, l);
        let bufs = |d: &Decoder| {
            [
                (d.coef.as_ptr() as usize, d.coef.capacity()),
                (d.payload.as_ptr() as usize, d.payload.capacity()),
                (d.scratch.as_ptr() as usize, d.scratch.capacity()),
                (d.pending.as_ptr() as usize, d.pending.capacity()),
                (d.solution.as_ptr() as usize, d.solution.capacity()),
                (d.cols.as_ptr() as usize, d.cols.capacity()),
                (d.matrix.as_ptr() as usize, d.matrix.capacity()),
                (d.strip.as_ptr() as usize, d.strip.capacity()),
            ]
        };
        let before = bufs(&dec);
        let (mut c, mut out) = (vec![0; k], vec![0; l]);
        for round in 0..3 {
            for i in (0..k).step_by(3) {
                dec.add_systematic(i, enc.source(i));
            }
            let mut s = 0;
            while !dec.is_complete() {
                enc.encode_seeded(round, s, &mut c, &mut out);
                dec.add(&c, &out);
                s += 1;
            }
            assert_eq!(bufs(&dec), before);
            dec.reset();
            assert_eq!((dec.rank(), dec.decoded_prefix()), (0, 0));
        }
    }

    #[test]
    fn a_complete_block_refuses_further_packets() {
        let mut dec = Decoder::new(default_field(), 2, 0);
        assert_eq!(dec.add(&[1, 1], &[]), Reception::Innovative);
        assert_eq!(dec.add(&[2, 2], &[]), Reception::NonInnovative);
        assert_eq!(dec.add(&[0, 5], &[]), Reception::Innovative);
        assert!(dec.is_complete());
        assert_eq!(dec.add(&[7, 3], &[]), Reception::NonInnovative);
        assert_eq!(dec.add_seeded(1, 2, &[]), Reception::NonInnovative);
        assert_eq!(dec.rank(), 2);
    }
}
