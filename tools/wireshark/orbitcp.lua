-- Wireshark dissector for the UDP headers orbitcp writes into its pcap captures (docs/pcap.md §4):
-- CTCP on UDP port 47001, INTCP on UDP port 47002, ARQ on UDP port 47003. TCP flows are real TCP
-- and need nothing.
--
-- Use: tshark -X lua_script:tools/wireshark/orbitcp.lua -r link-0-n0-n1.pcap
-- or copy this file into Wireshark's personal plugins folder (Help > About > Folders).

local CTCP_PORT = 47001
local INTCP_PORT = 47002
local ARQ_PORT = 47003

-- One of our protocols: its Proto with its fields (a table of ProtoFields) and the expert info
-- that flags a header cut short (`experts.short`, which `too_short` adds).
local function our_proto(id, description, name, fields)
  local proto = Proto(id, description)
  proto.fields = fields
  local short = ProtoExpert.new(id .. ".short", "Truncated " .. name .. " header", expert.group.MALFORMED, expert.severity.ERROR)
  proto.experts = { short = short }
  return proto
end

local function too_short(tree, pinfo, buf, need, proto)
  if buf:len() < need then
    tree:add_proto_expert_info(proto.experts.short, "header needs " .. need .. " bytes, has " .. buf:len())
    return true
  end
  return false
end

-- The start of a dissection of a header of a fixed `need` bytes: the protocol column and
-- `proto`'s tree, and whether the header is all there (if not, the tree says so).
local function fixed_header(buf, pinfo, root, proto, name, need)
  pinfo.cols.protocol = name
  local tree = root:add(proto, buf())
  return tree, not too_short(tree, pinfo, buf, need, proto)
end

-- CTCP ----------------------------------------------------------------------------------------

local ctcp_types = { [1] = "DATA", [2] = "ACK", [3] = "SYN", [4] = "SYN-ACK" }
local cf = {
  type = ProtoField.uint8("orbitcp_ctcp.type", "Type", base.DEC, ctcp_types),
  flags = ProtoField.uint8("orbitcp_ctcp.flags", "Flags", base.HEX),
  coded = ProtoField.bool("orbitcp_ctcp.coded", "Coded", 8, nil, 0x01),
  per_block = ProtoField.bool("orbitcp_ctcp.per_block", "Per-block feedback", 8, nil, 0x01),
  flow = ProtoField.uint16("orbitcp_ctcp.flow", "Flow"),
  seqno = ProtoField.uint32("orbitcp_ctcp.seqno", "Sequence number"),
  block = ProtoField.uint32("orbitcp_ctcp.block", "Block"),
  index = ProtoField.uint32("orbitcp_ctcp.index", "Source index"),
  seed = ProtoField.uint32("orbitcp_ctcp.seed", "Coefficients seed", base.HEX),
  ts = ProtoField.uint32("orbitcp_ctcp.ts_us", "Timestamp (us)"),
  ackno = ProtoField.uint32("orbitcp_ctcp.ackno", "ACK number"),
  dofs = ProtoField.uint16("orbitcp_ctcp.dofs", "Degrees of freedom"),
  ts_echo = ProtoField.uint32("orbitcp_ctcp.ts_echo_us", "Timestamp echo (us)"),
  pkt_block = ProtoField.uint32("orbitcp_ctcp.pkt_block", "Acknowledged packet's block"),
  pkt_dofs = ProtoField.uint16("orbitcp_ctcp.pkt_dofs", "Degrees of freedom of that block"),
}
local ctcp = our_proto("orbitcp_ctcp", "orbitcp CTCP (network-coded TCP)", "CTCP", cf)

function ctcp.dissector(buf, pinfo, root)
  if buf:len() < 4 then return 0 end
  pinfo.cols.protocol = "CTCP"
  local kind = buf(0, 1):uint()
  local tree = root:add(ctcp, buf())
  tree:add(cf.type, buf(0, 1))
  local flags = tree:add(cf.flags, buf(1, 1))
  tree:add(cf.flow, buf(2, 2))
  if kind == 1 then
    if too_short(tree, pinfo, buf, 20, ctcp) then return end
    flags:add(cf.coded, buf(1, 1))
    tree:add(cf.seqno, buf(4, 4))
    tree:add(cf.block, buf(8, 4))
    local coded = bit.band(buf(1, 1):uint(), 1) == 1
    tree:add(coded and cf.seed or cf.index, buf(12, 4))
    tree:add(cf.ts, buf(16, 4))
    pinfo.cols.info = string.format("DATA seq=%d block=%d %s", buf(4, 4):uint(), buf(8, 4):uint(),
      coded and string.format("coded seed=0x%08x", buf(12, 4):uint()) or ("systematic #" .. buf(12, 4):uint()))
    return 20
  elseif kind == 2 then
    if too_short(tree, pinfo, buf, 18, ctcp) then return end
    flags:add(cf.per_block, buf(1, 1))
    tree:add(cf.ackno, buf(4, 4))
    tree:add(cf.block, buf(8, 4))
    tree:add(cf.dofs, buf(12, 2))
    tree:add(cf.ts_echo, buf(14, 4))
    local len = 18
    if bit.band(buf(1, 1):uint(), 1) == 1 then
      if too_short(tree, pinfo, buf, 24, ctcp) then return end
      tree:add(cf.pkt_block, buf(18, 4))
      tree:add(cf.pkt_dofs, buf(22, 2))
      len = 24
    end
    pinfo.cols.info = string.format("ACK ackno=%d block=%d dofs=%d", buf(4, 4):uint(), buf(8, 4):uint(), buf(12, 2):uint())
    return len
  elseif kind == 3 or kind == 4 then
    if too_short(tree, pinfo, buf, 8, ctcp) then return end
    tree:add(kind == 3 and cf.ts or cf.ts_echo, buf(4, 4))
    pinfo.cols.info = ctcp_types[kind]
    return 8
  end
  tree:add_proto_expert_info(ctcp.experts.short, "unknown CTCP type " .. kind)
end

-- INTCP ---------------------------------------------------------------------------------------

local intcp_cmds = { [1] = "INTEREST", [2] = "DATA", [3] = "DATA (read ahead)" }
local inf = {
  cmd = ProtoField.uint8("orbitcp_intcp.cmd", "Command", base.DEC, intcp_cmds),
  rate = ProtoField.uint16("orbitcp_intcp.rate", "Requested rate (0.01 Mbit/s)"),
  wnd = ProtoField.int16("orbitcp_intcp.wnd", "Send-queue headroom (MSS): the producer's, or with command 3 the midnode's debt"),
  ts = ProtoField.uint32("orbitcp_intcp.ts_us", "Timestamp (us)"),
  sn = ProtoField.uint32("orbitcp_intcp.sn", "Hop sequence number"),
  len = ProtoField.uint32("orbitcp_intcp.len", "Payload length"),
  range_start = ProtoField.uint32("orbitcp_intcp.range_start", "Range start (byte)"),
  range_end = ProtoField.uint32("orbitcp_intcp.range_end", "Range end (byte)"),
}
local intcp = our_proto("orbitcp_intcp", "orbitcp INTCP (information-centric, hop by hop)", "INTCP", inf)

function intcp.dissector(buf, pinfo, root)
  if buf:len() < 1 then return 0 end
  local tree, whole = fixed_header(buf, pinfo, root, intcp, "INTCP", 23)
  if not whole then return end
  local cmd = buf(0, 1):uint()
  tree:add(inf.cmd, buf(0, 1))
  tree:add(cmd == 1 and inf.rate or inf.wnd, buf(1, 2))
  tree:add(inf.ts, buf(3, 4))
  tree:add(inf.sn, buf(7, 4))
  tree:add(inf.len, buf(11, 4))
  tree:add(inf.range_start, buf(15, 4))
  tree:add(inf.range_end, buf(19, 4))
  local s, e = buf(15, 4):uint(), buf(19, 4):uint()
  if cmd == 1 and s == e then
    pinfo.cols.info = string.format("INTEREST sn=%d rate refresh %.2f Mbit/s", buf(7, 4):uint(), buf(1, 2):uint() / 100)
  else
    pinfo.cols.info = string.format("%s sn=%d [%d, %d)", intcp_cmds[cmd] or "?", buf(7, 4):uint(), s, e)
  end
  return 23
end

-- ARQ (stop-and-wait, go-back-N, selective repeat) -----------------------------------------------

local arq_types = { [1] = "DATA", [2] = "ACK" }
local af = {
  type = ProtoField.uint8("orbitcp_arq.type", "Type", base.DEC, arq_types),
  flags = ProtoField.uint8("orbitcp_arq.flags", "Flags", base.HEX),
  selective = ProtoField.bool("orbitcp_arq.selective", "Answers one packet", 8, nil, 0x01),
  flow = ProtoField.uint16("orbitcp_arq.flow", "Flow"),
  n = ProtoField.uint32("orbitcp_arq.n", "Packet number"),
  ts = ProtoField.uint32("orbitcp_arq.ts_us", "Timestamp (us)"),
  cum = ProtoField.uint32("orbitcp_arq.cum", "Next packet expected"),
  sel = ProtoField.uint32("orbitcp_arq.sel", "Packet answered"),
}
local arq = our_proto("orbitcp_arq", "orbitcp ARQ (stop-and-wait, go-back-N, selective repeat)", "ARQ", af)

function arq.dissector(buf, pinfo, root)
  if buf:len() < 1 then return 0 end
  local tree, whole = fixed_header(buf, pinfo, root, arq, "ARQ", 12)
  if not whole then return end
  local kind = buf(0, 1):uint()
  tree:add(af.type, buf(0, 1))
  local flags = tree:add(af.flags, buf(1, 1))
  tree:add(af.flow, buf(2, 2))
  if kind == 1 then
    tree:add(af.n, buf(4, 4))
    tree:add(af.ts, buf(8, 4))
    pinfo.cols.info = string.format("DATA n=%d", buf(4, 4):uint())
  else
    flags:add(af.selective, buf(1, 1))
    tree:add(af.cum, buf(4, 4))
    if buf(1, 1):uint() % 2 == 1 then
      tree:add(af.sel, buf(8, 4))
      pinfo.cols.info = string.format("ACK next=%d for n=%d", buf(4, 4):uint(), buf(8, 4):uint())
    else
      pinfo.cols.info = string.format("ACK next=%d", buf(4, 4):uint())
    end
  end
  return 12
end

local udp = DissectorTable.get("udp.port")
udp:add(CTCP_PORT, ctcp)
udp:add(INTCP_PORT, intcp)
udp:add(ARQ_PORT, arq)
