//! The receive window a Linux host advertises, with receive-buffer autotuning (Linux
//! `tcp_rcv_space_adjust` and `tcp_rcv_rtt_update` in `net/ipv4/tcp_input.c`; sysctl
//! `net.ipv4.tcp_rmem`, default 4096 / 131072 / 6291456).
//!
//! A Linux receiver starts with a buffer of `tcp_rmem[1]` and grows it once per receiver RTT
//! to about twice what the application read in that RTT (plus a growth term while the rate is
//! rising), up to `tcp_rmem[2]`. Half of the buffer may be advertised (`tcp_adv_win_scale = 1`,
//! the classic ratio of payload to buffer memory): that is the window clamp. Under the clamp
//! the advertised window itself (`rcv_ssthresh`) starts at 64 KB and grows by two segments per
//! segment received (`tcp_grow_window`), so it at most triples per round trip, whatever the
//! sender's congestion window says, and never exceeds 3 MB: this is what holds Hybla's huge
//! slow-start increments back on a real GEO path. An out-of-order segment grows it too when the
//! flow uses SACK (`tcp_data_queue_ofo`; kernel changes "tcp: properly increase rcv_ssthresh for
//! ofo packets", 2013, and "tcp: grow window for OOO packets only for SACK flows", 2019), so a
//! window with holes keeps opening while they wait for retransmission.
//!
//! The application is modelled as reading everything as soon as it is in order.

use crate::sim::{SimDuration, SimTime};

/// Linux `tcp_rmem[1]`: the initial receive buffer.
pub const RMEM_DEFAULT: u64 = 131_072;
/// Linux `tcp_rmem[2]`: the largest buffer autotuning may reach.
pub const RMEM_MAX: u64 = 6_291_456;
/// Linux `TCP_INIT_CWND`: the first RTT's expected delivery is ten segments.
const INIT_SPACE_SEGMENTS: u64 = 10;
/// Linux adds 16 segments of slack to twice the bytes read (`tcp_rcv_space_adjust`).
const SLACK_SEGMENTS: u64 = 16;

/// Buffer space to window: `tcp_adv_win_scale = 1` advertises half of the buffer.
pub fn win_from_space(space: u64) -> u64 {
    space / 2
}

#[derive(Clone, Debug)]
pub struct RcvWindow {
    mss: u64,
    /// Bytes read in the previous measurement RTT (Linux `rcvq_space.space`).
    space: u64,
    /// Bytes delivered when the current measurement began, and when it began.
    epoch_delivered: u64,
    epoch_start: Option<SimTime>,
    /// The receiver's RTT estimate (Linux `rcv_rtt_est`), from timestamp echoes.
    rtt: Option<SimDuration>,
    /// The largest window the buffer allows (Linux `window_clamp`), and the window advertised
    /// under it (Linux `rcv_ssthresh`), in bytes.
    clamp: u64,
    window: u64,
    max_window: u64,
    /// SACK is in use: out-of-order segments grow the window as in-order ones do.
    sack: bool,
}

impl RcvWindow {
    pub fn new(mss: u32, sack: bool) -> RcvWindow {
        let mss = mss as u64;
        RcvWindow {
            mss,
            space: INIT_SPACE_SEGMENTS * mss,
            epoch_delivered: 0,
            epoch_start: None,
            rtt: None,
            clamp: win_from_space(RMEM_DEFAULT),
            window: win_from_space(RMEM_DEFAULT),
            max_window: win_from_space(RMEM_MAX),
            sack,
        }
    }

    pub fn window(&self) -> u64 {
        self.window
    }

    /// Linux `tcp_rcv_rtt_update` with timestamps: a 1/8 moving average.
    pub fn rtt_sample(&mut self, sample: SimDuration) {
        let sample = sample.max(SimDuration(1));
        self.rtt = Some(match self.rtt {
            None => sample,
            Some(r) => SimDuration(r.0 - r.0 / 8 + sample.0 / 8),
        });
    }

    /// Linux `tcp_grow_window`: a full segment arrived; the advertised window grows by two
    /// segments, up to the clamp.
    pub fn on_segment(&mut self) {
        self.window = (self.window + 2 * self.mss).min(self.clamp);
    }

    /// Linux `tcp_data_queue_ofo`: a full segment arrived out of order; without SACK the window
    /// stays as it is, so that the sender sees duplicate ACKs and retransmits.
    pub fn on_out_of_order_segment(&mut self) {
        if self.sack {
            self.on_segment();
        }
    }

    /// Linux `tcp_rcv_space_adjust`, called as the application reads: once per receiver RTT,
    /// the buffer grows to hold twice what was read in it.
    pub fn on_read(&mut self, now: SimTime, delivered_total: u64) {
        let Some(rtt) = self.rtt else { return };
        let start = *self.epoch_start.get_or_insert(now);
        if now - start < rtt {
            return;
        }
        let copied = delivered_total - self.epoch_delivered;
        if copied > self.space {
            let mut rcvwin = 2 * copied + SLACK_SEGMENTS * self.mss;
            // While the rate is rising, grow in proportion to the rise.
            let grow = rcvwin * (copied - self.space) / self.space;
            rcvwin += 2 * grow;
            self.clamp = self.clamp.max(rcvwin.min(self.max_window));
            self.space = copied;
        }
        self.epoch_delivered = delivered_total;
        self.epoch_start = Some(now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u32 = 1448;

    #[test]
    fn the_first_window_is_half_the_default_buffer() {
        assert_eq!(RcvWindow::new(MSS, true).window(), 65_536);
    }

    #[test]
    fn the_window_follows_twice_what_was_read_per_rtt_and_stops_at_half_rmem_max() {
        let mut w = RcvWindow::new(MSS, true);
        let rtt = SimDuration::from_millis(500);
        w.rtt_sample(rtt);
        let mut delivered = 0u64;
        let mut now = SimTime::ZERO;
        w.on_read(now, 0);
        let mut windows = vec![];
        for _ in 0..20 {
            // A sender that fills the advertised window every RTT, one segment at a time.
            let segments = w.window() / MSS as u64;
            for _ in 0..segments {
                w.on_segment();
            }
            delivered += segments * MSS as u64;
            now += rtt;
            w.on_read(now, delivered);
            windows.push(w.window());
        }
        // The window at most triples per round trip, never shrinks, and ends at tcp_rmem[2] / 2.
        let mut prev = 65_536;
        for &win in &windows {
            assert!(win >= prev && win <= 3 * prev + 2 * MSS as u64, "{windows:?}");
            prev = win;
        }
        assert_eq!(*windows.last().unwrap(), RMEM_MAX / 2);
    }

    #[test]
    fn out_of_order_segments_grow_the_window_only_with_sack() {
        let mut with_sack = RcvWindow::new(MSS, true);
        let mut without = RcvWindow::new(MSS, false);
        with_sack.clamp = 1 << 20;
        without.clamp = 1 << 20;
        for _ in 0..10 {
            with_sack.on_out_of_order_segment();
            without.on_out_of_order_segment();
        }
        assert_eq!(with_sack.window(), 65_536 + 20 * MSS as u64);
        assert_eq!(without.window(), 65_536);
    }

    #[test]
    fn a_slow_reader_keeps_the_window_where_it_is() {
        let mut w = RcvWindow::new(MSS, true);
        w.rtt_sample(SimDuration::from_millis(100));
        w.on_read(SimTime::ZERO, 0);
        w.on_read(SimTime::from_secs_f64(0.1), 5 * MSS as u64);
        assert_eq!(w.window(), 65_536);
    }
}
