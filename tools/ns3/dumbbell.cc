// The dumbbell of scenarios/ns3-dumbbell.json, in ns-3 itself: the oracle of the `ns3` TCP
// profile (docs/tcp.md, "The ns3 profile"; tools/ns3/crosscheck.py runs both).
//
// sender --1 Gbit/s, 0 ms-- router --10 Mbit/s, RTT/2 each way-- receiver. The bottleneck's
// device queue is a drop-tail FIFO of one BDP in packets (10 Mbit/s x RTT / 1500 bytes); the
// queue discs Ipv4AddressHelper installs by default are removed so that it is the only queue,
// as in orbitcp. Bernoulli loss p on packets as they reach the receiver (a RateErrorModel on
// its device: the lost packet has used the link; ACKs are never lost). One BulkSend flow of
// `bytes` (default 20 MB) with SegmentSize 1448 and socket buffers that never limit; every
// other TCP setting is ns-3's default. Runs stop at 600 s, as the preset does.
//
// Prints one line: ns3 (the release, from build.sh), cc, p, rtt_ms, run, completed (0/1),
// goodput_mbps (bytes delivered x 8 over the time from the application's start to the last
// byte, or to the stop if incomplete), rtos (entries into CA_LOSS), recoveries (entries into
// CA_RECOVERY).
//
// With --trace=1 the sender's events go to standard error, one a line, time in seconds first
// (segments are numbered from 0: byte b of the stream is in segment b / 1448):
//   T tx SEG [retx]           a data segment handed to IP ("retx" below the highest sent)
//   T ack SEG [sack A-B ...]  an ACK the sender receives: its cumulative ACK and SACK blocks,
//                             in segments, B exclusive
//   T cwnd N | ssthresh N     the window and the threshold, in segments (bytes / 1448)
//   T state OLD NEW           the congestion state (OPEN DISORDER CWR RECOVERY LOSS)
//   T rto MS | srtt MS        the retransmission timeout and the smoothed RTT
// docs/tcp.md, "Tracing one run in both simulators", sets such a trace beside orbitcp's.
//
// With --drops=I,J,... the data segments with those 0-based indices among the data segments
// reaching the receiver are lost instead (retransmissions count): the loss pattern of an
// orbitcp run whose bottleneck has `{"model": "list", "drops": [I+1, J+1, ...]}` (orbitcp
// counts the SYN as packet 0), so that the two runs see the same losses.
//
// Usage: dumbbell --cc=TcpNewReno|TcpCubic|TcpBbr --p=0.001 --rtt=500 --run=1 [--bytes=20000000]
//                 [--trace=1] [--drops=130,645]

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>

#ifndef NS3_VERSION_STRING
#define NS3_VERSION_STRING "unknown"
#endif

using namespace ns3;

// Drops the data segments (packets of more than 200 bytes: the sender's pure ACKs are smaller)
// whose 0-based index among those reaching the receiver is listed, whatever else is lost: the
// loss pattern of an orbitcp run with the "list" loss model, for comparing traces one to one.
class DataIndexErrorModel : public ErrorModel
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("DataIndexErrorModel").SetParent<ErrorModel>().AddConstructor<DataIndexErrorModel>();
        return tid;
    }

    std::set<uint64_t> m_drops;

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        if (p->GetSize() <= 200)
        {
            return false;
        }
        return m_drops.count(m_index++) > 0;
    }

    void DoReset() override
    {
    }

    uint64_t m_index = 0;
};

static uint64_t g_received = 0;
static uint64_t g_target = 0;
static double g_done = -1.0;
static uint32_t g_rtos = 0;
static uint32_t g_recoveries = 0;
static bool g_trace = false;
static uint32_t g_highestTx = 0;
static const uint32_t SEGMENT = 1448;

static const char*
StateName(TcpSocketState::TcpCongState_t s)
{
    static const char* names[] = {"OPEN", "DISORDER", "CWR", "RECOVERY", "LOSS"};
    return s < 5 ? names[s] : "?";
}

// Sequence number of a data byte (the SYN takes sequence 0) to its segment's index.
static uint32_t
SegmentOf(SequenceNumber32 seq)
{
    return (seq.GetValue() - 1) / SEGMENT;
}

static void
TraceTx(Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase>)
{
    if (p->GetSize() == 0)
    {
        return;
    }
    uint32_t seg = SegmentOf(h.GetSequenceNumber());
    bool retx = seg < g_highestTx;
    g_highestTx = std::max(g_highestTx, seg + 1);
    std::fprintf(stderr, "%.6f tx %u%s\n", Simulator::Now().GetSeconds(), seg, retx ? " retx" : "");
}

static void
TraceAck(Ptr<const Packet>, const TcpHeader& h, Ptr<const TcpSocketBase>)
{
    if (!(h.GetFlags() & TcpHeader::ACK) || (h.GetFlags() & TcpHeader::SYN))
    {
        return;
    }
    std::fprintf(stderr, "%.6f ack %u", Simulator::Now().GetSeconds(), SegmentOf(h.GetAckNumber()));
    if (h.HasOption(TcpOption::SACK))
    {
        Ptr<const TcpOptionSack> sack = DynamicCast<const TcpOptionSack>(h.GetOption(TcpOption::SACK));
        std::fprintf(stderr, " sack");
        for (const auto& block : sack->GetSackList())
        {
            std::fprintf(stderr, " %u-%u", SegmentOf(block.first), SegmentOf(block.second));
        }
    }
    std::fprintf(stderr, "\n");
}

static void
TraceCwnd(uint32_t, uint32_t now)
{
    std::fprintf(stderr, "%.6f cwnd %u\n", Simulator::Now().GetSeconds(), now / SEGMENT);
}

static void
TraceSsthresh(uint32_t, uint32_t now)
{
    std::fprintf(stderr, "%.6f ssthresh %u\n", Simulator::Now().GetSeconds(), now / SEGMENT);
}

static void
TraceRto(Time, Time now)
{
    std::fprintf(stderr, "%.6f rto %.3f\n", Simulator::Now().GetSeconds(), now.GetSeconds() * 1e3);
}

static void
TraceSrtt(Time, Time now)
{
    std::fprintf(stderr, "%.6f srtt %.3f\n", Simulator::Now().GetSeconds(), now.GetSeconds() * 1e3);
}

static void
OnRx(Ptr<const Packet> p, const Address&)
{
    g_received += p->GetSize();
    if (g_done < 0 && g_received >= g_target)
    {
        g_done = Simulator::Now().GetSeconds();
        Simulator::Stop();
    }
}

static void
OnCongState(TcpSocketState::TcpCongState_t old, TcpSocketState::TcpCongState_t now)
{
    if (g_trace)
    {
        std::fprintf(stderr,
                     "%.6f state %s %s\n",
                     Simulator::Now().GetSeconds(),
                     StateName(old),
                     StateName(now));
    }
    if (now == TcpSocketState::CA_LOSS)
    {
        g_rtos++;
    }
    else if (now == TcpSocketState::CA_RECOVERY)
    {
        g_recoveries++;
    }
}

static void
HookSocket()
{
    const std::string socket = "/NodeList/0/$ns3::TcpL4Protocol/SocketList/0/";
    Config::ConnectWithoutContext(socket + "CongState", MakeCallback(&OnCongState));
    if (g_trace)
    {
        Config::ConnectWithoutContext(socket + "Tx", MakeCallback(&TraceTx));
        Config::ConnectWithoutContext(socket + "Rx", MakeCallback(&TraceAck));
        Config::ConnectWithoutContext(socket + "CongestionWindow", MakeCallback(&TraceCwnd));
        Config::ConnectWithoutContext(socket + "SlowStartThreshold", MakeCallback(&TraceSsthresh));
        Config::ConnectWithoutContext(socket + "RTO", MakeCallback(&TraceRto));
        Config::ConnectWithoutContext(socket + "RTT", MakeCallback(&TraceSrtt));
    }
}

int
main(int argc, char* argv[])
{
    std::string cc = "TcpCubic";
    double p = 0.0;
    double rttMs = 500.0;
    uint32_t run = 1;
    uint64_t bytes = 20000000;
    double stopS = 600.0;
    CommandLine cmd;
    cmd.AddValue("cc", "ns-3 congestion control type (TcpNewReno, TcpCubic, TcpBbr)", cc);
    cmd.AddValue("p", "Bernoulli loss on packets reaching the receiver", p);
    cmd.AddValue("rtt", "round-trip propagation delay in ms", rttMs);
    cmd.AddValue("run", "RngRun (the run number)", run);
    cmd.AddValue("bytes", "bytes to transfer", bytes);
    cmd.AddValue("stop", "simulated seconds before giving up", stopS);
    cmd.AddValue("trace", "print the sender's events to standard error", g_trace);
    std::string drops;
    cmd.AddValue("drops",
                 "comma-separated 0-based indices of the data segments to drop at the receiver, "
                 "in place of --p",
                 drops);
    cmd.Parse(argc, argv);
    g_target = bytes;

    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(run);
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", StringValue("ns3::" + cc));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1448));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(1 << 27));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(1 << 27));

    NodeContainer nodes;
    nodes.Create(3);
    PointToPointHelper access;
    access.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
    access.SetChannelAttribute("Delay", StringValue("0ms"));
    PointToPointHelper bottleneck;
    bottleneck.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
    bottleneck.SetChannelAttribute("Delay", TimeValue(MicroSeconds(uint64_t(rttMs * 500.0))));
    uint32_t bdpPkts = uint32_t(10e6 * rttMs / 1e3 / 8.0 / 1500.0);
    bottleneck.SetQueue("ns3::DropTailQueue",
                        "MaxSize",
                        QueueSizeValue(QueueSize(std::to_string(bdpPkts) + "p")));
    NetDeviceContainer a = access.Install(nodes.Get(0), nodes.Get(1));
    NetDeviceContainer b = bottleneck.Install(nodes.Get(1), nodes.Get(2));

    if (drops.empty())
    {
        Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
        em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        em->SetAttribute("ErrorRate", DoubleValue(p));
        b.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(em));
    }
    else
    {
        Ptr<DataIndexErrorModel> em = CreateObject<DataIndexErrorModel>();
        std::stringstream list(drops);
        std::string index;
        while (std::getline(list, index, ','))
        {
            em->m_drops.insert(std::stoull(index));
        }
        b.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(em));
    }

    InternetStackHelper stack;
    stack.Install(nodes);
    Ipv4AddressHelper addr;
    addr.SetBase("10.0.0.0", "255.255.255.0");
    addr.Assign(a);
    addr.SetBase("10.0.1.0", "255.255.255.0");
    Ipv4InterfaceContainer bi = addr.Assign(b);
    TrafficControlHelper tch;
    tch.Uninstall(a);
    tch.Uninstall(b);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    uint16_t port = 5000;
    BulkSendHelper send("ns3::TcpSocketFactory", InetSocketAddress(bi.GetAddress(1), port));
    send.SetAttribute("MaxBytes", UintegerValue(bytes));
    send.SetAttribute("SendSize", UintegerValue(1448));
    ApplicationContainer sendApp = send.Install(nodes.Get(0));
    sendApp.Start(Seconds(0.0));
    PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sinkApp = sink.Install(nodes.Get(2));
    sinkApp.Start(Seconds(0.0));
    sinkApp.Get(0)->TraceConnectWithoutContext("Rx", MakeCallback(&OnRx));
    Simulator::Schedule(Seconds(0.0) + NanoSeconds(1), &HookSocket);

    Simulator::Stop(Seconds(stopS));
    Simulator::Run();
    double end = g_done >= 0 ? g_done : stopS;
    double goodput = g_received * 8.0 / end / 1e6;
    std::printf("ns3=%s cc=%s p=%g rtt_ms=%g run=%u completed=%d goodput_mbps=%.4f rtos=%u "
                "recoveries=%u\n",
                NS3_VERSION_STRING,
                cc.c_str(),
                p,
                rttMs,
                run,
                g_done >= 0 ? 1 : 0,
                goodput,
                g_rtos,
                g_recoveries);
    Simulator::Destroy();
    return 0;
}
