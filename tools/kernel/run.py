#!/usr/bin/env python3
"""Runs a dumbbell of orbitcp's TCP tests on a real Linux kernel: the reference for the `linux`
profile's loss recovery, F-RTO and undo (docs/tcp.md, "The kernel as a reference").

It boots Debian's kernel (package linux-image-amd64) in QEMU (qemu-system-x86; emulated CPU by default, `--kvm`
where KVM works) on an initramfs it builds from busybox-static, iproute2, ethtool and
`bulk.c`. Inside, each flow gets a sender and a receiver network namespace joined by a veth
pair: the sender's side is the bottleneck (netem: the rate, the buffer in packets, random loss),
the receiver's side adds the round trip's delay to the ACKs. All flows run at once, one per pair,
each alone on its path; segmentation offloads are off, so netem sees one packet per segment.

    python3 tools/kernel/run.py --cc reno,cubic --rate 10 --rtt 600 --buffer 2000 --p 0.002 --seconds 120

prints, per flow, what the sender's TCP_INFO holds at the end: goodput from the bytes acked,
segments retransmitted, and the duplicates the receiver reported by D-SACK (the retransmissions
that were not needed), plus the namespace's timeout and undo counters (/proc/net/netstat).
Needs: apt-get install qemu-system-x86 linux-image-amd64 busybox-static iproute2 ethtool.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
# orbitcp's names for the congestion controls, and the kernel's.
KERNEL_CC = {
    "reno": "reno", "cubic": "cubic", "bic": "bic", "htcp": "htcp", "highspeed": "highspeed",
    "hybla": "hybla", "scalable": "scalable", "vegas": "vegas", "veno": "veno",
    "westwood": "westwood", "bbr": "bbr",
}
# inet_diag and tcp_diag: what `ss -i` reads a socket's TCP_INFO through.
MODULES = ["drivers/net/veth.ko", "net/sched/sch_netem.ko", "net/sched/sch_tbf.ko", "net/ipv4/inet_diag.ko", "net/ipv4/tcp_diag.ko"] + [
    f"net/ipv4/tcp_{m}.ko" for m in ("bic", "htcp", "highspeed", "hybla", "scalable", "vegas", "veno", "westwood", "bbr")
]
# /proc/net/netstat counters worth reading beside TCP_INFO.
COUNTERS = ["TCPTimeouts", "TCPSpuriousRTOs", "TCPLossUndo", "TCPFullUndo", "TCPPartialUndo",
            "TCPDSACKUndo", "TCPDSACKRecvSegs", "TCPLossProbes", "TCPSackRecoveryFail"]


def kernel():
    found = sorted(glob.glob("/boot/vmlinuz-*"))
    if not found:
        sys.exit("no kernel in /boot: apt-get install linux-image-amd64")
    version = os.path.basename(found[-1])[len("vmlinuz-"):]
    return found[-1], f"/lib/modules/{version}/kernel"


def copy_with_libs(binary, root):
    """Copies a dynamically linked program and the libraries ldd names into the initramfs."""
    # Not /bin: busybox links its own applets there, an `ip` and a `tc` among them.
    shutil.copy(binary, os.path.join(root, "usr/sbin"))
    for line in subprocess.run(["ldd", binary], capture_output=True, text=True).stdout.splitlines():
        m = re.search(r"(/\S+\.so[^ ]*)", line)
        if m:
            dest = os.path.join(root, m.group(1).lstrip("/"))
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copy(m.group(1), dest)


def bottleneck(args, prefix, rate=None):
    """The tc command that sets the bottleneck: netem, or tbf when the rate changes during the run
    (netem fixes each packet's departure when it is queued, so a rate change would not reach the
    packets already waiting; tbf spends its tokens at each dequeue)."""
    rate = args.rate if rate is None else rate
    if args.rate_at:
        # One packet of burst: the rate holds packet by packet. The buffer in bytes, at 1514 each.
        return f"{prefix} tbf rate {rate * 1000:g}kbit burst 1514 limit {args.buffer * 1514}"
    loss = f" loss random {args.p * 100:g}%" if args.p > 0 else ""
    return f"{prefix} netem rate {rate}mbit -14 limit {args.buffer}{loss}"


def experiment(args):
    # Full paths: busybox's shell runs its own `ip` applet before any `ip` on the PATH.
    # A setup step that fails stops the run: a flow must never run on a path not as asked.
    lines, receivers, senders = ["set -e", "IP=/usr/sbin/ip"], [], []
    for i, cc in enumerate(args.cc):
        # sender s -- router m -- receiver r. The bottleneck is the router's queue towards the
        # receiver: a packet it drops is lost on the path, as at a satellite modem. (A queue on
        # the sender's own interface would not do: TCP takes a drop there as local congestion
        # and sends the segment again later, so nothing is ever lost to its buffer.)
        s, m, r = f"s{i}", f"m{i}", f"r{i}"
        mac = lambda link, end: f"02:00:00:{i:02x}:{link:02x}:{end:02x}"  # noqa: E731
        lines += [
            f"$IP netns add {s}; $IP netns add {m}; $IP netns add {r}",
            f"$IP link add sm address {mac(1, 1)} netns {s} type veth peer name ms address {mac(1, 2)} netns {m}",
            f"$IP link add mr address {mac(2, 1)} netns {m} type veth peer name rm address {mac(2, 2)} netns {r}",
            f"$IP -n {s} addr add 10.{i}.1.1/24 dev sm; $IP -n {m} addr add 10.{i}.1.2/24 dev ms",
            f"$IP -n {m} addr add 10.{i}.2.1/24 dev mr; $IP -n {r} addr add 10.{i}.2.2/24 dev rm",
        ]
        for ns, devs in ((s, ["sm"]), (m, ["ms", "mr"]), (r, ["rm"])):
            lines.append(f"$IP -n {ns} link set lo up")
            for dev in devs:
                lines += [
                    f"$IP -n {ns} link set {dev} up",
                    # One packet per segment everywhere: no offloads, no coalescing at the router.
                    f"$IP netns exec {ns} ethtool -K {dev} tso off gso off gro off 2>/dev/null",
                ]
        lines += [
            # Each end knows its neighbour's address: an ARP reply would come a round trip late,
            # and the SYN would time out.
            f"$IP -n {s} neigh add 10.{i}.1.2 lladdr {mac(1, 2)} dev sm nud permanent",
            f"$IP -n {m} neigh add 10.{i}.1.1 lladdr {mac(1, 1)} dev ms nud permanent",
            f"$IP -n {m} neigh add 10.{i}.2.2 lladdr {mac(2, 2)} dev mr nud permanent",
            f"$IP -n {r} neigh add 10.{i}.2.1 lladdr {mac(2, 1)} dev rm nud permanent",
            f"$IP -n {s} route add default via 10.{i}.1.2",
            f"$IP -n {r} route add default via 10.{i}.2.1",
            f"$IP netns exec {m} sysctl -q -w net.ipv4.ip_forward=1",
            bottleneck(args, f"$IP netns exec {m} /usr/sbin/tc qdisc add dev mr root"),
            # The round trip's delay, on the ACKs' way back.
            f"$IP netns exec {r} /usr/sbin/tc qdisc add dev rm root netem delay {args.rtt}ms limit 1000000",
        ]
        for k, v in args.sysctl:
            lines.append(f"$IP netns exec {s} sysctl -q -w {k}={v}")
            lines.append(f"$IP netns exec {r} sysctl -q -w {k}={v}")
        receivers.append(f"$IP netns exec {r} bulk recv 5001 > /dev/null &")
        if args.rate_at:
            changes = []
            elapsed = 0.0
            for at, rate in args.rate_at:
                change = bottleneck(args, f"$IP netns exec {m} /usr/sbin/tc qdisc change dev mr root", rate)
                changes.append(f"sleep {at - elapsed:g}; {change}")
                elapsed = at
            # Timed from the senders' start (the SYN's round trip is inside it, as in orbitcp).
            senders.append("(" + "; ".join(changes) + ") &")
        senders += [
            f"($IP netns exec {s} bulk send 10.{i}.2.2 5001 {KERNEL_CC[cc]} {args.seconds} > /tmp/out{i}; "
            f"echo \"flow {i} $(cat /tmp/out{i}) $($IP netns exec {s} cat /proc/net/netstat | tr '\\n' ' ')\") &",
            "senders=\"$senders $!\"",
        ]
    if args.trace:
        # The sender's socket every TRACE seconds, as `ss -tin` shows it.
        senders += [
            f"(while true; do for i in {' '.join(str(i) for i in range(len(args.cc)))}; do "
            f"echo \"trace $i $(cat /proc/uptime) $($IP netns exec s$i /usr/sbin/ss -tinH dst 10.$i.2.2 | tr '\\n' ' ')\"; "
            f"done; sleep {args.trace}; done) &",
            "tracer=$!",
        ]
    # The receivers listen before any SYN leaves, so that no SYN is sent twice.
    lines += receivers + ["sleep 1"] + senders + ["wait $senders"]
    return "\n".join(lines) + "\n"


INIT = """#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/usr/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t tmpfs run /run
mkdir -p /run/netns /tmp
for m in /modules/*.ko; do insmod $m; done
echo EXPERIMENT-START
sh /experiment.sh
echo EXPERIMENT-DONE
poweroff -f
"""


def build_initramfs(args, out):
    vmlinuz, modules = kernel()
    busybox = shutil.which("busybox") or "/bin/busybox"
    with tempfile.TemporaryDirectory() as root:
        for d in ("bin", "sbin", "proc", "sys", "run", "modules", "var", "lib64", "usr/sbin"):
            os.makedirs(os.path.join(root, d), exist_ok=True)
        os.symlink("/run", os.path.join(root, "var/run"))
        shutil.copy(busybox, os.path.join(root, "bin/busybox"))
        for prog in ("ip", "tc", "ethtool", "ss"):
            copy_with_libs(shutil.which(prog), root)
        bulk = os.path.join(root, "bin/bulk")
        subprocess.run(["gcc", "-O2", "-static", "-o", bulk, os.path.join(HERE, "bulk.c")], check=True)
        for i, m in enumerate(MODULES):
            shutil.copy(os.path.join(modules, m), os.path.join(root, "modules", f"{i:02}-{os.path.basename(m)}"))
        with open(os.path.join(root, "init"), "w") as f:
            f.write(INIT)
        with open(os.path.join(root, "experiment.sh"), "w") as f:
            f.write(experiment(args))
        os.chmod(os.path.join(root, "init"), 0o755)
        files = subprocess.run(["find", "."], cwd=root, capture_output=True, text=True, check=True).stdout
        with open(out, "wb") as f:
            subprocess.run(["cpio", "-o", "-H", "newc", "--quiet"], cwd=root, input=files.encode(), stdout=f,
                           check=True)
    return vmlinuz


def parse(text, ccs):
    rows = {}
    for line in text.splitlines():
        m = re.match(r"\s*flow (\d+) result (.*)", line)
        if not m:
            continue
        i = int(m.group(1))
        fields = dict(kv.split("=", 1) for kv in m.group(2).split() if "=" in kv and not kv.startswith("TcpExt"))
        # /proc/net/netstat: a line of names, then a line of values, per section.
        words = m.group(2).split()
        counters = {}
        for j, w in enumerate(words):
            if w == "TcpExt:" and j + 1 < len(words) and not words[j + 1].isdigit():
                names = []
                k = j + 1
                while k < len(words) and words[k] != "TcpExt:":
                    names.append(words[k])
                    k += 1
                values = words[k + 1:k + 1 + len(names)]
                counters = dict(zip(names, (int(v) for v in values)))
                break
        rows[i] = (ccs[i], fields, counters)
    return rows


def boot(args):
    """Runs the experiment for `args.cc` in one VM; returns its console and the kernel's path."""
    with tempfile.TemporaryDirectory() as tmp:
        initrd = os.path.join(tmp, "initrd.cpio")
        vmlinuz = build_initramfs(args, initrd)
        # Emulated, the guest's clock follows the instructions it runs (icount: 1 ns each, idle time
        # skipped), so a busy host slows the run down but changes no timing inside it.
        accel = ["-enable-kvm", "-cpu", "host"] if args.kvm else ["-accel", "tcg", "-icount", "shift=0,sleep=off"]
        cmd = ["qemu-system-x86_64", *accel, "-m", "2048", "-nographic", "-no-reboot",
               "-kernel", vmlinuz, "-initrd", initrd, "-append", "console=ttyS0 quiet panic=-1"]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout).stdout, vmlinuz


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cc", default=",".join(KERNEL_CC), help="orbitcp congestion controls, comma-separated")
    p.add_argument("--rate", type=float, default=10.0, help="bottleneck rate, Mbit/s")
    p.add_argument("--rtt", type=float, default=600.0, help="base round trip, ms")
    p.add_argument("--buffer", type=int, default=2000, help="bottleneck buffer, packets")
    p.add_argument("--p", type=float, default=0.002, help="random loss on the bottleneck")
    p.add_argument("--seconds", type=float, default=120.0)
    p.add_argument("--sysctl", action="append", default=[], metavar="KEY=VALUE",
                   help="a sysctl for every namespace, senders' and receivers', e.g. net.ipv4.tcp_frto=0")
    p.add_argument("--rate-at", action="append", default=[], metavar="SECONDS:MBPS",
                   help="change the bottleneck's rate this long after the flows start (repeatable; "
                        "the bottleneck is then tbf, and --p must be 0)")
    p.add_argument("--log", help="write the VMs' consoles here")
    p.add_argument("--per-vm", type=int, default=4, metavar="N",
                   help="flows per VM; the VMs run one after another (default 4)")
    p.add_argument("--timeout", type=float, default=3600.0,
                   help="give up on the VM after this many seconds of wall time (the emulated CPU "
                        "runs slower than the guest's clock on a busy host)")
    p.add_argument("--trace", type=float, metavar="SECONDS",
                   help="log each sender's `ss -tin` this often (lines 'trace FLOW UPTIME ...' in --log)")
    p.add_argument("--kvm", action="store_true",
                   help="use KVM (by default QEMU emulates the CPU: KVM nested in this kind of machine hangs at boot)")
    args = p.parse_args()
    args.cc = [c.strip() for c in args.cc.split(",") if c.strip()]
    unknown = [c for c in args.cc if c not in KERNEL_CC]
    if unknown:
        sys.exit(f"--cc: unknown congestion control {unknown}; known: {', '.join(KERNEL_CC)}")
    args.sysctl = [tuple(s.split("=", 1)) for s in args.sysctl]
    try:
        args.rate_at = sorted((float(a), float(b)) for a, b in (r.split(":", 1) for r in args.rate_at))
    except ValueError:
        sys.exit("--rate-at: expected SECONDS:MBPS, e.g. 10:0.002")
    if args.rate_at and args.p > 0:
        sys.exit("--rate-at: the rate-changing bottleneck (tbf) has no loss model; give --p 0")
    all_ccs, rows, logs = args.cc, {}, []
    for start in range(0, len(all_ccs), args.per_vm):
        # A VM per group of flows: the emulated CPU has a fixed speed, and too many flows at
        # once would queue packets behind the guest's own processing.
        args.cc = all_ccs[start:start + args.per_vm]
        out, vmlinuz = boot(args)
        logs.append(out)
        if "EXPERIMENT-DONE" not in out:
            sys.exit("the VM did not finish the experiment:\n" + out[-3000:])
        for i, row in parse(out, args.cc).items():
            rows[start + i] = row
    args.cc = all_ccs
    if args.log:
        with open(args.log, "w") as f:
            f.write("\n".join(logs))
    print(f"# kernel {os.path.basename(vmlinuz)}: {args.rate} Mbit/s, RTT {args.rtt} ms, buffer {args.buffer} "
          f"packets, p {args.p}, {args.seconds} s{', ' + ' '.join(f'{k}={v}' for k, v in args.sysctl) if args.sysctl else ''}")
    print(f"{'cc':10} {'goodput':>8} {'retrans':>8} {'dsack':>6} {'share':>6} " + " ".join(f"{c:>9.9}" for c in COUNTERS))
    for i in sorted(rows):
        cc, f, c = rows[i]
        goodput = int(f["acked"]) * 8 / float(f["seconds"]) / 1e6
        retrans, dups = int(f["retrans"]), int(f["dsack_dups"])
        share = dups / retrans if retrans else 0.0
        print(f"{cc:10} {goodput:8.3f} {retrans:8} {dups:6} {share:6.2f} " + " ".join(f"{c.get(k, 0):9}" for k in COUNTERS))
    missing = [args.cc[i] for i in range(len(args.cc)) if i not in rows]
    if missing:
        sys.exit(f"no result for {missing}")


if __name__ == "__main__":
    main()
