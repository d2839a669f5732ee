-- uet.lua: Ultra Ethernet Transport (PDS/SES) and uetemu lockstep frames.
--
-- For Wireshark/tshark 4.0 (Lua 5.2). Load it with
--   tshark -X lua_script:scripts/wireshark/uet.lua -r capture.pcap
-- or copy it into ~/.local/lib/wireshark/plugins/. docs/wireshark.md has
-- the field list and the choices made here.
--
-- Two protocols:
--   uet      PDS and SES over UDP port 4793 (a preference). Field names are
--            those of Wireshark's own packet-uet.c, so display filters keep
--            working on a Wireshark that has it; when the running Wireshark
--            already has a "uet" protocol, this script registers nothing for
--            UET and leaves the job to the built-in dissector.
--   uetlock  the emulator's lockstep frames: control frames on EtherType
--            0x88B5 and the 12-byte "UEVT" trailer after the IP datagram of
--            data frames (claimed through the eth.trailer heuristic list,
--            before the Ethernet dissector can take its last 4 bytes for an
--            FCS).
--
-- Every read is checked against the captured length first: the script never
-- throws on short or odd input. A frame that ends inside a header gets an
-- Error/Malformed expert item and "[Malformed Packet]" in the Info column; one
-- cut by the capture's snap length a warning and "[Packet size limited
-- during capture]", as Wireshark's own dissectors mark them.

local band, rshift = bit32.band, bit32.rshift

local function vs_name(vs, v)
	return vs[v] or string.format("Unknown (%u)", v)
end

-- True when the capture holds fewer bytes of tvb than were on the wire.
local function cut_by_snaplen(tvb)
	return tvb:captured_len() < tvb:reported_len()
end

-- The Info column's marks of a frame cut short, once per frame each.
local INFO_MALFORMED = " [Malformed Packet]"
local INFO_SNAPLEN = " [Packet size limited during capture]"
local function info_mark(pinfo, mark)
	local info = tostring(pinfo.cols.info)
	if not string.find(info, mark:sub(2), 1, true) then
		pinfo.cols.info:append(mark)
	end
end

---------------------------------------------------------------------------
-- uetlock: lockstep control frames and the data-frame trailer
---------------------------------------------------------------------------

local uetlock = Proto("uetlock", "uetemu lockstep")

local LOCK_TYPES = {
	[1] = "HELLO", [2] = "WELCOME", [3] = "GRANT", [4] = "DONE",
	[5] = "BYE", [6] = "ABORT", [7] = "NOTES",
}
-- Body length each type must carry (ABORT: 8 + text_len, NOTES: 16 + len,
-- checked apart).
local LOCK_BODY_LEN = { [1] = 20, [2] = 24, [3] = 24, [4] = 24, [5] = 8 }
local ABORT_CODES = {
	[1] = "SCENARIO_MISMATCH", [2] = "STALE_RUN", [3] = "PEER_TIMEOUT",
	[4] = "FRAME_LOSS", [5] = "PROTOCOL", [6] = "USER", [7] = "INTERNAL",
}
local LOCK_HDR_LEN = 32
-- Opaque bytes a NOTES frame carries at most: 1514 - 14 - 32 - 16.
local NOTES_MAX = 1452
local TRAILER_LEN = 12

local lf = {
	trailer = ProtoField.bytes("uetlock.trailer", "Lockstep trailer"),
	trailer_magic = ProtoField.string("uetlock.trailer.magic", "Magic"),
	trailer_arrival = ProtoField.uint64("uetlock.trailer.arrival_ps",
		"Virtual arrival time (ps)", base.DEC),
	magic = ProtoField.string("uetlock.magic", "Magic"),
	version = ProtoField.uint8("uetlock.version", "Version", base.DEC),
	type = ProtoField.uint8("uetlock.type", "Type", base.DEC, LOCK_TYPES),
	nic_id = ProtoField.uint16("uetlock.nic_id", "NIC id", base.DEC),
	run_id = ProtoField.uint64("uetlock.run_id", "Run id", base.HEX),
	nonce = ProtoField.uint64("uetlock.nonce", "Nonce", base.HEX),
	seq = ProtoField.uint32("uetlock.seq", "Sequence number", base.DEC),
	body_len = ProtoField.uint16("uetlock.body_len", "Body length", base.DEC),
	reserved = ProtoField.bytes("uetlock.reserved", "Reserved"),
	scenario_hash = ProtoField.uint64("uetlock.scenario_hash",
		"Scenario hash", base.HEX),
	ipv4 = ProtoField.ipv4("uetlock.ipv4", "NIC IPv4 address"),
	mac = ProtoField.ether("uetlock.mac", "NIC MAC address"),
	lookahead = ProtoField.uint64("uetlock.lookahead_ps", "Lookahead (ps)",
		base.DEC),
	start = ProtoField.uint64("uetlock.start_ps", "Start time (ps)",
		base.DEC),
	window_start = ProtoField.uint64("uetlock.window_start",
		"Window start T (ps)", base.DEC),
	window_end = ProtoField.uint64("uetlock.window_end",
		"Window end T' (ps)", base.DEC),
	next_event = ProtoField.uint64("uetlock.next_event",
		"Next pending event (ps)", base.DEC),
	data_frames = ProtoField.uint32("uetlock.data_frames",
		"Data frames sent on this port in the window", base.DEC),
	end_ps = ProtoField.uint64("uetlock.end_ps", "Stopped at (ps)", base.DEC),
	abort_code = ProtoField.uint32("uetlock.abort.code", "Abort code",
		base.DEC, ABORT_CODES),
	abort_text_len = ProtoField.uint16("uetlock.abort.text_len",
		"Text length", base.DEC),
	abort_text = ProtoField.string("uetlock.abort.text", "Text",
		base.UNICODE),
	padding = ProtoField.bytes("uetlock.padding", "Padding"),
	hello_flags = ProtoField.uint16("uetlock.hello.flags", "Flags",
		base.HEX),
	wants_notes = ProtoField.bool("uetlock.hello.wants_notes",
		"Takes the window notes", 16, nil, 0x0001),
	notes_len = ProtoField.uint16("uetlock.notes.len", "Notes length",
		base.DEC),
	notes = ProtoField.bytes("uetlock.notes", "Notes (opaque)"),
}
uetlock.fields = lf

local le = {
	truncated = ProtoExpert.new("uetlock.truncated",
		"Frame cut short by the capture", expert.group.PROTOCOL,
		expert.severity.WARN),
	short = ProtoExpert.new("uetlock.short", "Frame ends inside the frame",
		expert.group.MALFORMED, expert.severity.ERROR),
	bad = ProtoExpert.new("uetlock.invalid", "Invalid lockstep frame",
		expert.group.PROTOCOL, expert.severity.WARN),
}
uetlock.experts = le

-- The 12-byte trailer after the IP datagram: magic UEVT + u64 ps.
local function dissect_lock_trailer(tvb, pinfo, tree)
	if tvb:captured_len() < TRAILER_LEN then
		return false
	end
	if tvb(0, 4):string() ~= "UEVT" then
		return false
	end
	local t = tree:add(uetlock, tvb(0, TRAILER_LEN), "uetemu lockstep trailer")
	t:add(lf.trailer_magic, tvb(0, 4))
	local arr = tvb(4, 8):uint64()
	t:add(lf.trailer_arrival, tvb(4, 8))
	t:append_text(", arrival " .. tostring(arr) .. " ps")
	if tvb:captured_len() > TRAILER_LEN then
		t:add(lf.padding, tvb(TRAILER_LEN))
	end
	return true
end

local function lock_body(tvb, tree, ltype, off, blen)
	if ltype == 1 then
		tree:add(lf.scenario_hash, tvb(off, 8))
		tree:add(lf.ipv4, tvb(off + 8, 4))
		tree:add(lf.mac, tvb(off + 12, 6))
		local fl = tree:add(lf.hello_flags, tvb(off + 18, 2))
		fl:add(lf.wants_notes, tvb(off + 18, 2))
	elseif ltype == 2 then
		tree:add(lf.scenario_hash, tvb(off, 8))
		tree:add(lf.lookahead, tvb(off + 8, 8))
		tree:add(lf.start, tvb(off + 16, 8))
	elseif ltype == 3 then
		tree:add(lf.window_start, tvb(off, 8))
		tree:add(lf.window_end, tvb(off + 8, 8))
		tree:add(lf.data_frames, tvb(off + 16, 4))
		tree:add(lf.reserved, tvb(off + 20, 4))
	elseif ltype == 4 then
		tree:add(lf.window_end, tvb(off, 8))
		local ne = tree:add(lf.next_event, tvb(off + 8, 8))
		if tvb(off + 8, 8):uint64() == UInt64.max() then
			ne:append_text(" (nothing pending)")
		end
		tree:add(lf.data_frames, tvb(off + 16, 4))
		tree:add(lf.reserved, tvb(off + 20, 4))
	elseif ltype == 5 then
		tree:add(lf.end_ps, tvb(off, 8))
	elseif ltype == 6 then
		tree:add(lf.abort_code, tvb(off, 4))
		tree:add(lf.abort_text_len, tvb(off + 4, 2))
		tree:add(lf.reserved, tvb(off + 6, 2))
		if blen > 8 then
			tree:add(lf.abort_text, tvb(off + 8, blen - 8))
		end
	elseif ltype == 7 then
		tree:add(lf.window_end, tvb(off, 8))
		tree:add(lf.notes_len, tvb(off + 8, 2))
		tree:add(lf.reserved, tvb(off + 10, 6))
		if blen > 16 then
			tree:add(lf.notes, tvb(off + 16, blen - 16))
		end
	end
end

function uetlock.dissector(tvb, pinfo, tree)
	local len = tvb:captured_len()
	pinfo.cols.protocol = "UETLOCK"
	local t = tree:add(uetlock, tvb(), "uetemu lockstep control frame")
	if len < LOCK_HDR_LEN then
		pinfo.cols.info = string.format("Lockstep header, %u of %u bytes",
			len, LOCK_HDR_LEN)
		if cut_by_snaplen(tvb) then
			t:add_proto_expert_info(le.truncated)
			info_mark(pinfo, INFO_SNAPLEN)
		else
			t:add_proto_expert_info(le.short, "Shorter than the 32-byte header")
			info_mark(pinfo, INFO_MALFORMED)
		end
		return len
	end
	local magic = tvb(0, 4):string()
	t:add(lf.magic, tvb(0, 4))
	t:add(lf.version, tvb(4, 1))
	local ltype = tvb(5, 1):uint()
	t:add(lf.type, tvb(5, 1))
	t:add(lf.nic_id, tvb(6, 2))
	t:add(lf.run_id, tvb(8, 8))
	t:add(lf.nonce, tvb(16, 8))
	t:add(lf.seq, tvb(24, 4))
	local blen = tvb(28, 2):uint()
	t:add(lf.body_len, tvb(28, 2))
	t:add(lf.reserved, tvb(30, 2))
	local name = vs_name(LOCK_TYPES, ltype)
	pinfo.cols.info = string.format("%s nic=%u seq=%u", name,
		tvb(6, 2):uint(), tvb(24, 4):uint())
	t:append_text(": " .. name)
	if magic ~= "UECT" then
		t:add_proto_expert_info(le.bad, "Magic is not UECT")
	end
	if tvb(4, 1):uint() ~= 1 then
		t:add_proto_expert_info(le.bad, "Unknown version")
	end

	-- The body length the type requires; ABORT: 8 + text_len.
	local want = LOCK_BODY_LEN[ltype]
	if ltype == 6 and blen >= 8 and len >= LOCK_HDR_LEN + 6 then
		local text_len = tvb(LOCK_HDR_LEN + 4, 2):uint()
		want = 8 + text_len
		if text_len > 200 then
			t:add_proto_expert_info(le.bad, "ABORT text longer than 200 bytes")
		end
	elseif ltype == 7 and blen >= 16 and len >= LOCK_HDR_LEN + 10 then
		local notes_len = tvb(LOCK_HDR_LEN + 8, 2):uint()
		want = 16 + notes_len
		if notes_len > NOTES_MAX then
			t:add_proto_expert_info(le.bad, string.format(
				"NOTES longer than %u bytes", NOTES_MAX))
		end
	end
	local valid = LOCK_TYPES[ltype] ~= nil and want ~= nil and blen == want
	if LOCK_TYPES[ltype] == nil then
		t:add_proto_expert_info(le.bad, "Unknown type")
	elseif not valid then
		t:add_proto_expert_info(le.bad, string.format(
			"body_len %u does not fit a %s body", blen, name))
	end

	local off = LOCK_HDR_LEN
	if len - off < blen then
		if cut_by_snaplen(tvb) then
			t:add_proto_expert_info(le.truncated)
			info_mark(pinfo, INFO_SNAPLEN)
		else
			t:add_proto_expert_info(le.short, "Frame ends inside the body")
			info_mark(pinfo, INFO_MALFORMED)
		end
		return len
	end
	if valid then
		lock_body(tvb, t, ltype, off, blen)
	elseif blen > 0 then
		t:add(lf.reserved, tvb(off, blen)):set_text("Body (not decoded)")
	end
	off = off + blen
	if len > off then
		t:add(lf.padding, tvb(off))
	end
	return len
end

DissectorTable.get("ethertype"):add(0x88B5, uetlock)
uetlock:register_heuristic("eth.trailer", dissect_lock_trailer)

-- A PFC pause in lockstep carries the trailer too, at its very end: no IP
-- length marks where the MAC control frame stops, and Wireshark's macc
-- dissector takes every byte, so the eth.trailer list never sees them.
-- uetlock_macc stands in front of macc on EtherType 0x8808: a whole frame
-- (not cut by the snap length) ending in a trailer goes to macc without
-- those 12 bytes and they to uetlock; anything else to macc untouched.
-- macc throws on a short pause frame: Wireshark has marked the frame
-- malformed by then, and Dissector:call turns the exception into a Lua error,
-- which is caught here (the frame keeps macc's mark, not a second error).
local MACC_ETHERTYPE = 0x8808
local macc = DissectorTable.get("ethertype"):get_dissector(MACC_ETHERTYPE)
if macc ~= nil then
	local uetlock_macc = Proto("uetlock_macc",
		"uetemu lockstep trailer on MAC control")
	local function call_macc(tvb, pinfo, tree)
		local ok, n = pcall(macc.call, macc, tvb, pinfo, tree)
		if ok then
			return n
		end
		info_mark(pinfo, cut_by_snaplen(tvb) and INFO_SNAPLEN or
			INFO_MALFORMED)
		return tvb:captured_len()
	end
	function uetlock_macc.dissector(tvb, pinfo, tree)
		local len = tvb:captured_len()
		if not cut_by_snaplen(tvb) and len > TRAILER_LEN and
		    tvb(len - TRAILER_LEN, 4):string() == "UEVT" then
			call_macc(tvb(0, len - TRAILER_LEN):tvb(), pinfo, tree)
			dissect_lock_trailer(tvb(len - TRAILER_LEN):tvb(), pinfo, tree)
			return len
		end
		return call_macc(tvb, pinfo, tree)
	end
	DissectorTable.get("ethertype"):add(MACC_ETHERTYPE, uetlock_macc)
end

---------------------------------------------------------------------------
-- uet: PDS and SES
---------------------------------------------------------------------------

-- Stand aside when the running Wireshark already dissects UET (3.x/4.0 do
-- not; newer ones have packet-uet.c).
local function builtin_uet_present()
	local ok, d = pcall(Dissector.get, "uet")
	return ok and d ~= nil
end

local uet = nil
if not builtin_uet_present() then
	local ok, p = pcall(Proto, "uet", "Ultra Ethernet Transport")
	if ok then
		uet = p
	end
end
if uet == nil then
	return	-- uetlock above stays registered
end

local PDS_TYPES = {
	[0] = "Reserved", [1] = "TSS", [2] = "RUD_REQ", [3] = "ROD_REQ",
	[4] = "RUDI_REQ", [5] = "RUDI_RESP", [6] = "UUD_REQ", [7] = "ACK",
	[8] = "ACK_CC", [9] = "ACK_CCX", [10] = "NACK", [11] = "CP",
	[12] = "NACK_CCX", [13] = "RUD_CC_REQ", [14] = "ROD_CC_REQ",
}
-- Header size of each PDS type, prologue included.
local PDS_LEN = {
	[2] = 12, [3] = 12, [4] = 8, [5] = 8, [6] = 4, [7] = 12, [8] = 32,
	[9] = 40, [10] = 16, [11] = 16, [12] = 32, [13] = 16, [14] = 16,
}
local REQUEST_TYPES = { [2] = true, [3] = true, [4] = true, [6] = true,
	[13] = true, [14] = true }
local NEXT_HDRS = {
	[0] = "NONE", [1] = "REQUEST_SMALL", [2] = "REQUEST_MEDIUM",
	[3] = "REQUEST_STD", [4] = "RESPONSE", [5] = "RESPONSE_DATA",
	[6] = "RESPONSE_DATA_SMALL",
}
local SES_LEN = { [1] = 20, [2] = 32, [3] = 44, [4] = 12, [5] = 20, [6] = 12 }
local CTL_TYPES = {
	[0] = "NOOP", [1] = "ACK_REQ", [2] = "CLEAR", [3] = "CLEAR_REQ",
	[4] = "CLOSE", [5] = "CLOSE_REQ", [6] = "PROBE", [7] = "CREDIT",
	[8] = "CREDIT_REQ", [9] = "NEGOTIATION",
}
local ACK_REQ = { [0] = "none", [1] = "REQ_CLEAR", [2] = "REQ_CLOSE",
	[3] = "reserved" }
local CC_TYPES = { [0] = "NSCC", [1] = "Credit" }
local NACK_CODES = {
	[0x01] = "UET_TRIMMED", [0x02] = "UET_TRIMMED_LASTHOP",
	[0x03] = "TRIMMED_ACK", [0x04] = "NO_PDC_AVAIL",
	[0x05] = "NO_CCC_AVAIL", [0x06] = "NO_BITMAP",
	[0x07] = "NO_PKT_BUFFER", [0x08] = "NO_GTD_DEL_AVAIL",
	[0x09] = "NO_SES_MSG_AVAIL", [0x0A] = "NO_RESOURCE",
	[0x0B] = "PSN_OOR_WINDOW", [0x0C] = "reserved (0x0C)",
	[0x0D] = "ROD_OOO", [0x0E] = "INV_DPDCID",
	[0x0F] = "PDC_HDR_MISMATCH", [0x10] = "CLOSING",
	[0x11] = "CLOSING_IN_ERR", [0x12] = "PKT_NOT_RCVD",
	[0x13] = "GTD_RESP_UNAVAIL", [0x14] = "ACK_WITH_DATA",
	[0x15] = "INVALID_SYN", [0x16] = "PDC_MODE_MISMATCH",
	[0x17] = "NEW_START_PSN", [0x18] = "RCVD_SES_PROCG",
	[0x19] = "UNEXP_EVENT", [0x1A] = "RCVR_INFER_LOSS",
	[0xFD] = "EXP_NACK_NORMAL", [0xFE] = "EXP_NACK_ERR",
	[0xFF] = "EXP_NACK_FATAL",
}
local SES_OPCODES = {
	[0x00] = "NO_OP", [0x01] = "WRITE", [0x02] = "READ", [0x03] = "ATOMIC",
	[0x04] = "FETCHING_ATOMIC", [0x05] = "SEND", [0x06] = "RENDEZVOUS_SEND",
	[0x07] = "DATAGRAM_SEND", [0x08] = "DEFERRABLE_SEND",
	[0x09] = "TAGGED_SEND", [0x0A] = "RENDEZVOUS_TSEND",
	[0x0B] = "DEFERRABLE_TSEND", [0x0C] = "DEFERRABLE_RTR",
	[0x0D] = "TSEND_ATOMIC", [0x0E] = "TSEND_FETCH_ATOMIC",
	[0x0F] = "MSG_ERROR",
}
local RSP_OPCODES = { [0] = "DEFAULT_RESPONSE", [1] = "RESPONSE",
	[2] = "RESPONSE_W_DATA", [3] = "NO_RESPONSE" }
local RSP_LISTS = { [0] = "EXPECTED", [1] = "OVERFLOW", [2] = "vendor",
	[3] = "vendor" }
local RETURN_CODES = {
	[0x00] = "NULL", [0x01] = "OK", [0x02] = "BAD_GENERATION",
	[0x03] = "DISABLED", [0x04] = "DISABLED_GEN", [0x05] = "NO_MATCH",
	[0x06] = "UNSUPPORTED_OP", [0x07] = "UNSUPPORTED_SIZE",
	[0x08] = "AT_INVALID", [0x09] = "AT_PERM", [0x0A] = "AT_ATS_ERROR",
	[0x0B] = "AT_NO_TRANS", [0x0C] = "AT_OUT_OF_RANGE",
	[0x0D] = "HOST_POISONED", [0x0E] = "HOST_UNSUCCESS_CMPL",
	[0x0F] = "AMO_UNSUPPORTED_OP", [0x10] = "AMO_UNSUPPORTED_DT",
	[0x11] = "AMO_UNSUPPORTED_SIZE", [0x12] = "AMO_UNALIGNED",
	[0x13] = "AMO_FP_NAN", [0x14] = "AMO_FP_UNDERFLOW",
	[0x15] = "AMO_FP_OVERFLOW", [0x16] = "AMO_FP_INEXACT",
	[0x17] = "PERM_VIOLATION", [0x18] = "OP_VIOLATION", [0x19] = "BAD_INDEX",
	[0x1A] = "BAD_PID", [0x1B] = "BAD_JOB_ID", [0x1C] = "BAD_MKEY",
	[0x1D] = "BAD_ADDR", [0x1E] = "CANCELLED", [0x1F] = "UNDELIVERABLE",
	[0x20] = "UNCOR", [0x21] = "UNCOR_TRNSNT", [0x22] = "TOO_LONG",
	[0x23] = "INITIATOR_ERR", [0x24] = "DROPPED",
}
local AMO_OPS = {
	[0x00] = "MIN", [0x01] = "MAX", [0x02] = "SUM", [0x03] = "DIFF",
	[0x04] = "PROD", [0x05] = "LOR", [0x06] = "LAND", [0x07] = "BOR",
	[0x08] = "BAND", [0x09] = "LXOR", [0x0A] = "BXOR", [0x0B] = "READ",
	[0x0C] = "WRITE", [0x0D] = "CSWAP", [0x0E] = "CSWAP_NE",
	[0x0F] = "CSWAP_LE", [0x10] = "CSWAP_LT", [0x11] = "CSWAP_GE",
	[0x12] = "CSWAP_GT", [0x13] = "MSWAP", [0x14] = "INVAL",
}
local AMO_TYPES = {
	[0x00] = "INT8", [0x01] = "UINT8", [0x02] = "INT16", [0x03] = "UINT16",
	[0x04] = "INT32", [0x05] = "UINT32", [0x06] = "INT64", [0x07] = "UINT64",
	[0x08] = "INT128", [0x09] = "UINT128", [0x0A] = "FLOAT",
	[0x0B] = "DOUBLE", [0x0C] = "FLOAT_COMPLEX", [0x0D] = "DOUBLE_COMPLEX",
	[0x0E] = "LONG_DOUBLE", [0x0F] = "LONG_DOUBLE_COMPLEX", [0x10] = "BF16",
	[0x11] = "FP16",
}
local ATOMIC_OPCODES = { [0x03] = true, [0x04] = true, [0x0D] = true,
	[0x0E] = true }
local RENDEZVOUS_OPCODES = { [0x06] = true, [0x0A] = true }

-- Fields. The first name of each entry is packet-uet.c's; an entry's
-- "alias" is a hidden second field with the name the uetemu docs use, so
-- both spellings filter (docs/wireshark.md lists them).
local D, H = base.DEC, base.HEX
local f = {}
local alias = {}
local function fld(key, pf, alias_pf)
	f[key] = pf
	alias[key] = alias_pf
end

-- layers and generated fields
fld("pds", ProtoField.bytes("uet.pds", "PDS"))
fld("ses", ProtoField.bytes("uet.ses", "SES"))
fld("tss", ProtoField.bytes("uet.tss", "TSS (not decoded)"))
fld("trimmed", ProtoField.uint8("uet.pds.trimmed", "Trimmed", D))
fld("role", ProtoField.string("uet.role", "DSCP role"))

-- PDS prologue
fld("type", ProtoField.uint16("uet.pds.type", "Type", D, PDS_TYPES, 0xF800))
fld("nh", ProtoField.uint16("uet.pds.nh", "Next header", D, NEXT_HDRS,
	0x0780))
fld("ctl_type", ProtoField.uint16("uet.pds.ctl_type", "Control type", D,
	CTL_TYPES, 0x0780))
fld("flags", ProtoField.uint16("uet.pds.flags", "Flags", H, nil, 0x007F))
fld("flags_m", ProtoField.bool("uet.pds.flags.m", "ECN marked (M)", 8, nil,
	0x20))
fld("flags_isrod", ProtoField.bool("uet.pds.flags.isrod", "ROD PDC (ISROD)",
	8, nil, 0x20))
fld("flags_retx", ProtoField.bool("uet.pds.flags.retx",
	"Retransmission (RETX)", 8, nil, 0x10))
fld("flags_ar", ProtoField.bool("uet.pds.flags.ar", "ACK request (AR)", 8,
	nil, 0x08))
fld("flags_p", ProtoField.bool("uet.pds.flags.p", "Probe ACK (P)", 8, nil,
	0x08))
fld("flags_nt", ProtoField.bool("uet.pds.flags.nt", "NACK type RUDI (NT)", 8,
	nil, 0x08))
fld("flags_syn", ProtoField.bool("uet.pds.flags.syn", "New PDC (SYN)", 8, nil,
	0x04))
fld("flags_req", ProtoField.uint8("uet.pds.flags.req", "Request (REQ)", D,
	ACK_REQ, 0x06),
	ProtoField.uint8("uet.pds.req", "Request (REQ)", D, ACK_REQ, 0x06))

-- RUD/ROD requests and CP
fld("clear_psn_offset", ProtoField.int16("uet.pds.clear_psn_offset",
	"Clear PSN offset", D))
fld("clear_psn", ProtoField.uint32("uet.pds.clear_psn", "Clear PSN", D))
fld("psn", ProtoField.uint32("uet.pds.psn", "PSN", D))
fld("spdcid", ProtoField.uint16("uet.pds.spdcid", "Source PDC id", D))
fld("dpdcid", ProtoField.uint16("uet.pds.dpdcid", "Destination PDC id", D))
fld("pdc_mode", ProtoField.uint8("uet.pds.pdc_mode", "PDC info", H, nil,
	0xF0))
fld("use_rsv", ProtoField.bool("uet.pds.pdc_mode_use_rsv",
	"Use reserved PDC", 8, nil, 0x80),
	ProtoField.bool("uet.pds.use_rsv_pdc", "Use reserved PDC", 8, nil, 0x80))
fld("pdc_mode_rsv", ProtoField.uint8("uet.pds.pdc_mode_rsv", "Reserved", H,
	nil, 0x70))
fld("psn_offset", ProtoField.uint16("uet.pds.psn_offset", "PSN offset", D,
	nil, 0x0FFF))
fld("start_psn", ProtoField.uint32("uet.pds.start_psn", "Start PSN", D))
fld("ccc_id", ProtoField.uint8("uet.pds.cc_state.ccc_id", "CCC id", D),
	ProtoField.uint8("uet.pds.ccc_id", "CCC id", D))
fld("credit_target", ProtoField.uint24("uet.pds.cc_state.credit_target",
	"Credit target", D),
	ProtoField.uint24("uet.pds.credit_target", "Credit target", D))
fld("ctrl_probe_opaque", ProtoField.uint16("uet.pds.ctrl_probe_opaque",
	"Probe opaque", H),
	ProtoField.uint16("uet.pds.probe_opaque", "Probe opaque", H))
fld("ctrl_payload", ProtoField.uint32("uet.pds.ctrl_payload", "Payload", H),
	ProtoField.uint32("uet.pds.payload", "Payload", H))

-- ACK, ACK_CC, ACK_CCX
fld("ack_psn_offset", ProtoField.int16("uet.pds.ack_psn_offset",
	"ACK PSN offset", D))
fld("ack_psn", ProtoField.uint32("uet.pds.ack_psn", "ACK PSN", D))
fld("probe_opaque", ProtoField.uint16("uet.pds.probe_opaque", "Probe opaque",
	H))
fld("cack_psn", ProtoField.uint32("uet.pds.cack_psn", "Cumulative ACK PSN",
	D))
fld("ack_ext", ProtoField.bytes("uet.pds.ack.prlg", "ACK extension"))
fld("cc_type", ProtoField.uint8("uet.pds.ack.cc_type", "CC type", D,
	CC_TYPES, 0xF0),
	ProtoField.uint8("uet.pds.cc_type", "CC type", D, CC_TYPES, 0xF0))
fld("cc_flags", ProtoField.uint8("uet.pds.ack.cc_flags", "CC flags", H, nil,
	0x0F),
	ProtoField.uint8("uet.pds.cc_flags", "CC flags", H, nil, 0x0F))
fld("mpr", ProtoField.uint8("uet.pds.ack.mpr", "Maximum PSN range (MPR)", D),
	ProtoField.uint8("uet.pds.mpr", "Maximum PSN range (MPR)", D))
fld("sack_offset", ProtoField.uint16("uet.pds.ack.sack_offset",
	"SACK PSN offset", D),
	ProtoField.int16("uet.pds.sack_psn_offset", "SACK PSN offset", D))
fld("sack_bitmap", ProtoField.uint64("uet.pds.ack.sack_bitmap",
	"SACK bitmap", H),
	ProtoField.uint64("uet.pds.sack_bitmap", "SACK bitmap", H))
fld("cc_state", ProtoField.bytes("uet.pds.ack.cc_state", "CC state"))
fld("service_time", ProtoField.uint16("uet.pds.ack.cc_state.service_time",
	"Service time", D),
	ProtoField.uint16("uet.pds.service_time", "Service time", D))
fld("rc", ProtoField.bool("uet.pds.ack.cc_state.rc", "Restore cwnd", 8, nil,
	0x80),
	ProtoField.bool("uet.pds.restore_cwnd", "Restore cwnd", 8, nil, 0x80))
fld("rcv_cwnd_pend", ProtoField.uint8(
	"uet.pds.ack.cc_state.rcv_cwnd_pend", "Receiver cwnd penalty", D, nil,
	0x7F),
	ProtoField.uint8("uet.pds.rcv_cwnd_pend", "Receiver cwnd penalty", D, nil,
	0x7F))
fld("rcvd_bytes", ProtoField.uint24("uet.pds.ack.cc_state.rcvd_bytes",
	"Received bytes", D),
	ProtoField.uint24("uet.pds.rcvd_bytes", "Received bytes", D))
fld("credit", ProtoField.uint24("uet.pds.ack.cc_state.credit", "Credit", D),
	ProtoField.uint24("uet.pds.credit", "Credit", D))
fld("cc_reserved", ProtoField.bytes("uet.pds.ack.cc_state.reserved",
	"Reserved"))
fld("ooo_count", ProtoField.uint16("uet.pds.ack.cc_state.ooo_count",
	"Out-of-order count", D),
	ProtoField.uint16("uet.pds.ooo_count", "Out-of-order count", D))
fld("ccx_state", ProtoField.bytes("uet.pds.ack.ccx_state", "CCX state"))

-- NACK, NACK_CCX
fld("nack_code", ProtoField.uint8("uet.pds.nack.code", "NACK code", H,
	NACK_CODES))
fld("nack_vendor", ProtoField.uint8("uet.pds.nack.vendor_code",
	"Vendor code", H))
fld("nack_psn", ProtoField.uint32("uet.pds.nack.psn", "NACK PSN", D))
fld("nack_pkt_id", ProtoField.uint32("uet.pds.nack.pkt_id",
	"NACKed RUDI packet id", D))
fld("nack_payload", ProtoField.uint32("uet.pds.nack.max_recv_psn_plus_1",
	"Payload", H),
	ProtoField.uint32("uet.pds.nack.payload", "Payload", H))
fld("nccx_type", ProtoField.uint8("uet.pds.nack.ccx_type", "NCCX type", D,
	nil, 0xF0))
fld("nccx_state1", ProtoField.bytes("uet.pds.nack.ccx_state1",
	"NACK CCX state 1 (60 bits)"))
fld("nccx_state2", ProtoField.bytes("uet.pds.nack.ccx_state2",
	"NACK CCX state 2"))

-- RUDI, UUD
fld("rudi_rsvd", ProtoField.uint16("uet.pds.rudi.rsvd", "Reserved", H))
fld("pkt_id", ProtoField.uint32("uet.pds.rudi.pkt_id", "RUDI packet id", D),
	ProtoField.uint32("uet.pds.pkt_id", "RUDI packet id", D))
fld("uud_rsvd", ProtoField.uint16("uet.pds.uud.rsvd", "Reserved", H))

-- SES standard request

fld("std_rsv", ProtoField.uint8("uet.ses.std.rsv", "Reserved", H, nil, 0xC0))
fld("std_opcode", ProtoField.uint8("uet.ses.std.opcode", "Opcode", H,
	SES_OPCODES, 0x3F))
fld("std_flags", ProtoField.uint8("uet.ses.std.flags", "Flags", H))
fld("std_ver", ProtoField.uint8("uet.ses.std.ver", "Version", D, nil, 0xC0))
fld("std_dc", ProtoField.bool("uet.ses.std.dc", "Delivery complete (DC)", 8,
	nil, 0x20))
fld("std_ie", ProtoField.bool("uet.ses.std.ie", "Initiator error (IE)", 8,
	nil, 0x10))
fld("std_rel", ProtoField.bool("uet.ses.std.rel", "Relative addressing (REL)",
	8, nil, 0x08))
fld("std_hd", ProtoField.bool("uet.ses.std.hd", "Header data present (HD)", 8,
	nil, 0x04))
fld("std_eom", ProtoField.bool("uet.ses.std.eom", "End of message (EOM)", 8,
	nil, 0x02))
fld("std_som", ProtoField.bool("uet.ses.std.som", "Start of message (SOM)",
	8, nil, 0x01))
fld("std_msg_id", ProtoField.uint16("uet.ses.std.message_id", "Message id",
	D))
fld("std_ri_gen", ProtoField.uint8("uet.ses.std.index_generation",
	"Resource index generation", D),
	ProtoField.uint8("uet.ses.std.ri_generation", "Resource index generation",
	D))
fld("std_job_id", ProtoField.uint24("uet.ses.std.job_id", "Job id", D))
fld("std_rsv2", ProtoField.uint16("uet.ses.std.reserved2", "Reserved", H,
	nil, 0xF000))
fld("std_pid", ProtoField.uint16("uet.ses.std.pidonfep", "PID on FEP", D, nil,
	0x0FFF),
	ProtoField.uint16("uet.ses.std.pid_on_fep", "PID on FEP", D, nil, 0x0FFF))
fld("std_rsv3", ProtoField.uint16("uet.ses.std.reserved3", "Reserved", H,
	nil, 0xF000))
fld("std_ri", ProtoField.uint16("uet.ses.std.resource_index",
	"Resource index", D, nil, 0x0FFF))
fld("std_buf_off", ProtoField.uint64("uet.ses.std.buffer_offset",
	"Buffer offset", H))
fld("std_restart", ProtoField.uint64("uet.ses.std.restart_token",
	"Restart token", H))
fld("std_initiator", ProtoField.uint32("uet.ses.std.initiator", "Initiator",
	H))
fld("std_mkey", ProtoField.uint64("uet.ses.std.mem_key_match_bits",
	"Memory key / match bits", H),
	ProtoField.uint64("uet.ses.std.memory_key", "Memory key / match bits", H))
fld("std_hdr_data", ProtoField.uint64("uet.ses.std.header_data",
	"Header data", H))
fld("std_rsv4", ProtoField.uint32("uet.ses.std.reserved4", "Reserved", H, nil,
	0xFFFFC000))
fld("std_pay_len", ProtoField.uint32("uet.ses.std.payload_length",
	"Payload length", D, nil, 0x3FFF))
fld("std_msg_off", ProtoField.uint32("uet.ses.std.message_offset",
	"Message offset", D))
fld("std_req_len", ProtoField.uint32("uet.ses.std.request_length",
	"Request length", D))

-- SES small (sm) and medium (md) requests: packet-uet.c names them
-- uet.ses.small_req.* and uet.ses.med_req.*; uetemu aliases are
-- uet.ses.small.* and uet.ses.medium.*.
local function prefix_fields(k, p, a, has_hd)
	local s = "uet.ses." .. p .. "."
	local t = "uet.ses." .. a .. "."
	fld(k .. "rsv", ProtoField.uint8(s .. "rsv", "Reserved", H, nil, 0xC0))
	fld(k .. "opcode", ProtoField.uint8(t .. "opcode", "Opcode", H,
		SES_OPCODES, 0x3F))
	fld(k .. "flags", ProtoField.uint8(s .. "flags", "Flags", H))
	fld(k .. "ver", ProtoField.uint8(s .. "flags.ver", "Version", D, nil,
		0xC0), ProtoField.uint8(t .. "ver", "Version", D, nil, 0xC0))
	fld(k .. "dc", ProtoField.bool(s .. "flags.dc", "Delivery complete (DC)",
		8, nil, 0x20), ProtoField.bool(t .. "dc", "DC", 8, nil, 0x20))
	fld(k .. "ie", ProtoField.bool(s .. "flags.ie", "Initiator error (IE)", 8,
		nil, 0x10), ProtoField.bool(t .. "ie", "IE", 8, nil, 0x10))
	fld(k .. "rel", ProtoField.bool(s .. "flags.rel",
		"Relative addressing (REL)", 8, nil, 0x08),
		ProtoField.bool(t .. "rel", "REL", 8, nil, 0x08))
	if has_hd then
		fld(k .. "hd", ProtoField.bool(s .. "flags.hd",
			"Header data present (HD)", 8, nil, 0x04),
			ProtoField.bool(t .. "hd", "HD", 8, nil, 0x04))
	else
		fld(k .. "hd", ProtoField.uint8(s .. "flags.rsvd", "Reserved", D, nil,
			0x04))
	end
	fld(k .. "eom", ProtoField.bool(s .. "eom", "End of message (EOM)", 8,
		nil, 0x02), ProtoField.bool(t .. "eom", "EOM", 8, nil, 0x02))
	fld(k .. "som", ProtoField.bool(s .. "som", "Start of message (SOM)", 8,
		nil, 0x01), ProtoField.bool(t .. "som", "SOM", 8, nil, 0x01))
	fld(k .. "rsv2", ProtoField.uint16(s .. "flags.rsv2", "Reserved", H, nil,
		0xC000))
	fld(k .. "req_len", ProtoField.uint16(s .. "req_length",
		"Request length", D, nil, 0x3FFF),
		ProtoField.uint16(t .. "request_length", "Request length", D, nil,
		0x3FFF))
	local gen = has_hd and "resource_index_generation" or "index_generation"
	fld(k .. "ri_gen", ProtoField.uint8(s .. gen,
		"Resource index generation", D),
		ProtoField.uint8(t .. "ri_generation", "Resource index generation",
		D))
	fld(k .. "job_id", ProtoField.uint24(s .. "job_id", "Job id", D),
		ProtoField.uint24(t .. "job_id", "Job id", D))
	fld(k .. "rsv3", ProtoField.uint16(s .. "rsv3", "Reserved", H, nil,
		0xF000))
	fld(k .. "pid", ProtoField.uint16(s .. "pidonfep", "PID on FEP", D, nil,
		0x0FFF), ProtoField.uint16(t .. "pid_on_fep", "PID on FEP", D, nil,
		0x0FFF))
	fld(k .. "rsv4", ProtoField.uint16(s .. "rsv4", "Reserved", H, nil,
		0xF000))
	fld(k .. "ri", ProtoField.uint16(s .. "resource_index", "Resource index",
		D, nil, 0x0FFF), ProtoField.uint16(t .. "resource_index",
		"Resource index", D, nil, 0x0FFF))
	fld(k .. "buf_off", ProtoField.uint64(s .. "buffer_offset",
		"Buffer offset", H), ProtoField.uint64(t .. "buffer_offset",
		"Buffer offset", H))
end
prefix_fields("sm_", "small_req", "small", false)
prefix_fields("md_", "med_req", "medium", true)
-- packet-uet.c files the small and medium opcode under uet.ses.std.opcode;
-- the uetemu names get their own (visible) opcode field above.
fld("md_hdr_data", ProtoField.uint64("uet.ses.med_req.header_data",
	"Header data", H),
	ProtoField.uint64("uet.ses.medium.header_data", "Header data", H))
fld("md_initiator", ProtoField.uint32("uet.ses.med_req.initiator",
	"Initiator", H),
	ProtoField.uint32("uet.ses.medium.initiator", "Initiator", H))
fld("md_mkey", ProtoField.uint64("uet.ses.med_req.mem_key_match_bits",
	"Memory key / match bits", H),
	ProtoField.uint64("uet.ses.medium.memory_key", "Memory key / match bits",
	H))

-- SES extension headers
-- The four bytes the atomic and the compare-and-swap extensions both
-- start with; k is the key prefix, abbr the extension's filter name.
local function amo_control_fields(k, abbr)
	fld(k .. "_op", ProtoField.uint8(abbr .. ".atomic_opcode",
		"Atomic opcode", H, AMO_OPS))
	fld(k .. "_dt", ProtoField.uint8(abbr .. ".atomic_data_type",
		"Atomic datatype", H, AMO_TYPES))
	fld(k .. "_sem", ProtoField.uint8(abbr .. ".sem_ctl",
		"Semantic control", H))
	fld(k .. "_rsvd", ProtoField.uint8(abbr .. ".rsvd", "Reserved", H))
end
fld("atomic", ProtoField.bytes("uet.ses.atomic_op_ext_hdr",
	"Atomic extension"))
amo_control_fields("at", "uet.ses.atomic_op_ext_hdr")
fld("cswap", ProtoField.bytes("uet.ses.comp_swap_ext_hdr",
	"Compare-and-swap extension"))
amo_control_fields("cs", "uet.ses.comp_swap_ext_hdr")
fld("cs_cmp", ProtoField.bytes("uet.ses.comp_swap_ext_hdr.comp_value",
	"Compare value"))
fld("cs_swap", ProtoField.bytes("uet.ses.comp_swap_ext_hdr.swap_value",
	"Swap value"))
fld("rdv", ProtoField.bytes("uet.ses.rendv_ext_hdr",
	"Rendezvous extension"))
fld("rdv_eager", ProtoField.uint32("uet.ses.rendv_ext_hdr.eager_length",
	"Eager length", D))
fld("rdv_ri_gen", ProtoField.uint32(
	"uet.ses.rendv_ext_hdr.read_ri_generation", "Read RI generation", D, nil,
	0xFF000000))
fld("rdv_pid", ProtoField.uint32("uet.ses.rendv_ext_hdr.read_pid_on_fep",
	"Read PID on FEP", D, nil, 0x00FFF000))
fld("rdv_ri", ProtoField.uint32("uet.ses.rendv_ext_hdr.read_resource_index",
	"Read resource index", D, nil, 0x00000FFF))
fld("rdv_off", ProtoField.uint64("uet.ses.rendv_ext_hdr.read_offset",
	"Read offset", H))
fld("rdv_mb", ProtoField.uint64("uet.ses.rendv_ext_hdr.read_match_bits",
	"Read match bits / memory key", H))

-- SES responses
fld("rsp_list", ProtoField.uint8("uet.ses.rsp.list", "List", D, RSP_LISTS,
	0xC0))
fld("rsp_opcode", ProtoField.uint8("uet.ses.rsp.opcode", "Opcode", D,
	RSP_OPCODES, 0x3F))
fld("rsp_ver", ProtoField.uint8("uet.ses.rsp.ver", "Version", D, nil, 0xC0))
fld("rsp_rc", ProtoField.uint8("uet.ses.rsp.return_code", "Return code", H,
	RETURN_CODES, 0x3F))
fld("rsp_msg_id", ProtoField.uint16("uet.ses.rsp.message_id", "Message id",
	D))
fld("rsp_ri_gen", ProtoField.uint8("uet.ses.rsp.resource_index_gen",
	"Resource index generation", D),
	ProtoField.uint8("uet.ses.rsp.ri_generation",
	"Resource index generation", D))
fld("rsp_job_id", ProtoField.uint24("uet.ses.rsp.job_id", "Job id", D))
fld("rsp_mod_len", ProtoField.uint32("uet.ses.rsp.mod_length",
	"Modified length", D),
	ProtoField.uint32("uet.ses.rsp.modified_length", "Modified length", D))
fld("rsp_rsv", ProtoField.uint8("uet.ses.rsp.reserved", "Reserved", H))
fld("rsp_rr_msg_id", ProtoField.uint16("uet.ses.rsp.read_req_message_id",
	"Read request message id", D))
fld("rsp_rsv2", ProtoField.uint16("uet.ses.rsp.reserved2", "Reserved", H, nil,
	0xC000))
fld("rsp_pay_len", ProtoField.uint16("uet.ses.rsp.payload_length",
	"Payload length", D, nil, 0x3FFF))
fld("rsp_msg_off", ProtoField.uint32("uet.ses.rsp.message_offset",
	"Message offset", D))
fld("rsp_rsv3", ProtoField.uint16("uet.ses.rsp.reserved3", "Reserved", H, nil,
	0xC000))
fld("rsp_orig_psn", ProtoField.uint32("uet.ses.rsp.original_request_psn",
	"Original request PSN", D))

do
	local all = {}
	for k, pf in pairs(f) do
		all[#all + 1] = pf
		if alias[k] then
			all[#all + 1] = alias[k]
		end
	end
	uet.fields = all
end

local ue = {
	trimmed = ProtoExpert.new("uet.pds.trimmed.expert",
		"Trimmed packet: the payload was cut off by a switch",
		expert.group.SEQUENCE, expert.severity.NOTE),
	truncated = ProtoExpert.new("uet.truncated",
		"Header truncated by the capture's snap length",
		expert.group.PROTOCOL, expert.severity.WARN),
	short = ProtoExpert.new("uet.short_header",
		"Packet ends inside a header", expert.group.MALFORMED,
		expert.severity.ERROR),
	odd = ProtoExpert.new("uet.unexpected",
		"Unexpected value", expert.group.PROTOCOL, expert.severity.WARN),
}
uet.experts = ue

-- Preferences
uet.prefs.udp_port = Pref.uint("UDP port", 4793,
	"UDP destination port of UET over UDP")
uet.prefs.dscp_no_trim = Pref.uint("DSCP: no-trim", 0,
	"Codepoint of packets a switch must not trim")
uet.prefs.dscp_trimmable = Pref.uint("DSCP: trimmable", 1,
	"Codepoint of data packets a switch may trim")
uet.prefs.dscp_trimmable_rtx = Pref.uint("DSCP: trimmable retransmission", 2,
	"Codepoint of retransmitted data packets")
uet.prefs.dscp_control = Pref.uint("DSCP: control", 8,
	"Codepoint of ACKs, NACKs and control packets")
uet.prefs.dscp_trimmed = Pref.uint("DSCP: trimmed", 9,
	"Codepoint a switch writes into a packet it trimmed")
uet.prefs.dscp_trimmed_last_hop = Pref.uint("DSCP: trimmed on last hop", 10,
	"Codepoint of a packet trimmed by the last-hop switch")

local ip_dscp = Field.new("ip.dsfield.dscp")
local ipv6_dscp = Field.new("ipv6.tclass.dscp")
local data_dissector = Dissector.get("data")

-- Dissection context: tvb, pinfo, the UET tree and helpers.
local function add(tree, key, range)
	local it = tree:add(f[key], range)
	if alias[key] then
		tree:add(alias[key], range):set_hidden()
	end
	return it
end

-- Adds a generated (computed) value.
local function add_gen(tree, key, range, value)
	local it = tree:add(f[key], range, value)
	it:set_generated()
	return it
end

local function sext16(v)
	return v >= 0x8000 and v - 0x10000 or v
end

local function psn_add(psn, off)
	return (psn + off) % 4294967296
end

-- The mark fits() found for the Info column of the frame uet.dissector is
-- on, appended after everything else the frame's Info says.
local cur_mark = nil

-- Reports a header of hlen bytes that does not fit in the rest of the tvb:
-- malformed when the packet ends there, a warning when the capture cut it,
-- and the Info column says which. Returns true when it fits.
local function fits(tvb, off, hlen, item, what)
	local have = tvb:captured_len() - off
	if have >= hlen then
		return true
	end
	if tvb:captured_len() < tvb:reported_len() then
		item:add_proto_expert_info(ue.truncated, string.format(
			"%s truncated by the capture: %d of %d bytes", what, have, hlen))
		cur_mark = cur_mark or INFO_SNAPLEN
	else
		item:add_proto_expert_info(ue.short, string.format(
			"%s needs %d bytes, the packet has %d", what, hlen, have))
		cur_mark = INFO_MALFORMED
	end
	return false
end

local function add_role(tree, tvb)
	local vals = { ip_dscp() }
	if #vals == 0 then
		vals = { ipv6_dscp() }
	end
	if #vals == 0 then
		return
	end
	local dscp = vals[#vals].value
	local p = uet.prefs
	local roles = {
		{ p.dscp_no_trim, "no-trim" },
		{ p.dscp_trimmable, "trimmable" },
		{ p.dscp_trimmable_rtx, "trimmable-retransmission" },
		{ p.dscp_control, "control" },
		{ p.dscp_trimmed, "trimmed" },
		{ p.dscp_trimmed_last_hop, "trimmed-last-hop" },
	}
	for _, r in ipairs(roles) do
		if r[1] == dscp then
			local it = tree:add(f.role, tvb(0, 0), r[2])
			it:set_generated()
			it:append_text(string.format(" (DSCP %u)", dscp))
			return
		end
	end
end

---------------------------------------------------------------------------
-- SES
---------------------------------------------------------------------------

-- The control bytes amo_control_fields() declared, at off.
local function add_amo_control(t, k, tvb, off)
	add(t, k .. "_op", tvb(off, 1))
	add(t, k .. "_dt", tvb(off + 1, 1))
	add(t, k .. "_sem", tvb(off + 2, 1))
	add(t, k .. "_rsvd", tvb(off + 3, 1))
end

local function dissect_atomic_ext(tvb, off, tree)
	if not fits(tvb, off, 4, tree, "Atomic extension") then
		return tvb:captured_len() - off
	end
	local op = tvb(off, 1):uint()
	if op >= 0x0D and op <= 0x12 then
		if not fits(tvb, off, 36, tree, "Compare-and-swap extension") then
			return tvb:captured_len() - off
		end
		local t = tree:add(f.cswap, tvb(off, 36))
		t:set_text("Compare-and-swap extension: " .. vs_name(AMO_OPS, op))
		add_amo_control(t, "cs", tvb, off)
		add(t, "cs_cmp", tvb(off + 4, 16))
		add(t, "cs_swap", tvb(off + 20, 16))
		return 36
	end
	local t = tree:add(f.atomic, tvb(off, 4))
	t:set_text("Atomic extension: " .. vs_name(AMO_OPS, op))
	add_amo_control(t, "at", tvb, off)
	return 4
end

local function dissect_rendezvous_ext(tvb, off, tree)
	if not fits(tvb, off, 24, tree, "Rendezvous extension") then
		return tvb:captured_len() - off
	end
	local t = tree:add(f.rdv, tvb(off, 24))
	t:set_text("Rendezvous extension")
	add(t, "rdv_eager", tvb(off, 4))
	add(t, "rdv_ri_gen", tvb(off + 4, 4))
	add(t, "rdv_pid", tvb(off + 4, 4))
	add(t, "rdv_ri", tvb(off + 4, 4))
	add(t, "rdv_off", tvb(off + 8, 8))
	add(t, "rdv_mb", tvb(off + 16, 8))
	return 24
end

-- The 12-byte prefix of the small and medium requests; k is "sm_"/"md_".
local function dissect_req_prefix(tvb, off, t, k)
	add(t, k .. "rsv", tvb(off, 1))
	add(t, "std_opcode", tvb(off, 1))
	t:add(f[k .. "opcode"], tvb(off, 1)):set_hidden()
	local fl = add(t, k .. "flags", tvb(off + 1, 1))
	for _, n in ipairs({ "ver", "dc", "ie", "rel", "hd", "eom", "som" }) do
		add(fl, k .. n, tvb(off + 1, 1))
	end
	add(t, k .. "rsv2", tvb(off + 2, 2))
	add(t, k .. "req_len", tvb(off + 2, 2))
	add(t, k .. "ri_gen", tvb(off + 4, 1))
	add(t, k .. "job_id", tvb(off + 5, 3))
	add(t, k .. "rsv3", tvb(off + 8, 2))
	add(t, k .. "pid", tvb(off + 8, 2))
	add(t, k .. "rsv4", tvb(off + 10, 2))
	add(t, k .. "ri", tvb(off + 10, 2))
end

local function dissect_ses_std(tvb, pinfo, off, t)
	local opcode = band(tvb(off, 1):uint(), 0x3F)
	local flags = tvb(off + 1, 1):uint()
	add(t, "std_rsv", tvb(off, 1))
	add(t, "std_opcode", tvb(off, 1))
	local fl = add(t, "std_flags", tvb(off + 1, 1))
	for _, n in ipairs({ "ver", "dc", "ie", "rel", "hd", "eom", "som" }) do
		add(fl, "std_" .. n, tvb(off + 1, 1))
	end
	add(t, "std_msg_id", tvb(off + 2, 2))
	add(t, "std_ri_gen", tvb(off + 4, 1))
	add(t, "std_job_id", tvb(off + 5, 3))
	add(t, "std_rsv2", tvb(off + 8, 2))
	add(t, "std_pid", tvb(off + 8, 2))
	add(t, "std_rsv3", tvb(off + 10, 2))
	add(t, "std_ri", tvb(off + 10, 2))
	if opcode == 0x08 or opcode == 0x0B then
		add(t, "std_restart", tvb(off + 12, 8))
	else
		add(t, "std_buf_off", tvb(off + 12, 8))
	end
	add(t, "std_initiator", tvb(off + 20, 4))
	if opcode == 0x0C then
		add(t, "std_restart", tvb(off + 24, 8))
	else
		add(t, "std_mkey", tvb(off + 24, 8))
	end
	if band(flags, 0x01) ~= 0 then
		add(t, "std_hdr_data", tvb(off + 32, 8))
	else
		add(t, "std_rsv4", tvb(off + 32, 4))
		add(t, "std_pay_len", tvb(off + 32, 4))
		add(t, "std_msg_off", tvb(off + 36, 4))
	end
	add(t, "std_req_len", tvb(off + 40, 4))
	local n = 44
	if ATOMIC_OPCODES[opcode] then
		n = n + dissect_atomic_ext(tvb, off + n, t)
	elseif RENDEZVOUS_OPCODES[opcode] then
		n = n + dissect_rendezvous_ext(tvb, off + n, t)
	end
	return n, vs_name(SES_OPCODES, opcode)
end

local function dissect_ses_small(tvb, pinfo, off, t)
	local opcode = band(tvb(off, 1):uint(), 0x3F)
	dissect_req_prefix(tvb, off, t, "sm_")
	add(t, "sm_buf_off", tvb(off + 12, 8))
	local n = 20
	if ATOMIC_OPCODES[opcode] then
		n = n + dissect_atomic_ext(tvb, off + n, t)
	end
	return n, vs_name(SES_OPCODES, opcode)
end

local function dissect_ses_medium(tvb, pinfo, off, t)
	local opcode = band(tvb(off, 1):uint(), 0x3F)
	local flags = tvb(off + 1, 1):uint()
	dissect_req_prefix(tvb, off, t, "md_")
	if band(flags, 0x04) ~= 0 then
		add(t, "md_hdr_data", tvb(off + 12, 8))
	else
		add(t, "md_buf_off", tvb(off + 12, 8))
	end
	add(t, "md_initiator", tvb(off + 20, 4))
	add(t, "md_mkey", tvb(off + 24, 8))
	local n = 32
	if ATOMIC_OPCODES[opcode] then
		n = n + dissect_atomic_ext(tvb, off + n, t)
	end
	return n, vs_name(SES_OPCODES, opcode)
end

local function dissect_ses_rsp(tvb, pinfo, off, t, nh)
	local opcode = band(tvb(off, 1):uint(), 0x3F)
	add(t, "rsp_list", tvb(off, 1))
	local oi = add(t, "rsp_opcode", tvb(off, 1))
	add(t, "rsp_ver", tvb(off + 1, 1))
	add(t, "rsp_rc", tvb(off + 1, 1))
	if nh == 4 then
		if opcode == 2 then
			oi:add_proto_expert_info(ue.odd,
				"RESPONSE_W_DATA in a response header that carries no data")
		end
		add(t, "rsp_msg_id", tvb(off + 2, 2))
		add(t, "rsp_ri_gen", tvb(off + 4, 1))
		add(t, "rsp_job_id", tvb(off + 5, 3))
		add(t, "rsp_mod_len", tvb(off + 8, 4))
		return 12, vs_name(RSP_OPCODES, opcode)
	end
	if opcode ~= 2 then
		oi:add_proto_expert_info(ue.odd,
			"A response with data should carry RESPONSE_W_DATA")
	end
	if nh == 5 then
		add(t, "rsp_msg_id", tvb(off + 2, 2))
		add(t, "rsp_rsv", tvb(off + 4, 1))
		add(t, "rsp_job_id", tvb(off + 5, 3))
		add(t, "rsp_rr_msg_id", tvb(off + 8, 2))
		add(t, "rsp_rsv2", tvb(off + 10, 2))
		add(t, "rsp_pay_len", tvb(off + 10, 2))
		add(t, "rsp_mod_len", tvb(off + 12, 4))
		add(t, "rsp_msg_off", tvb(off + 16, 4))
		return 20, vs_name(RSP_OPCODES, opcode)
	end
	add(t, "rsp_rsv3", tvb(off + 2, 2))
	add(t, "rsp_pay_len", tvb(off + 2, 2))
	add(t, "rsp_rsv", tvb(off + 4, 1))
	add(t, "rsp_job_id", tvb(off + 5, 3))
	add(t, "rsp_orig_psn", tvb(off + 8, 4))
	return 12, vs_name(RSP_OPCODES, opcode)
end

local SES_DISSECTORS = {
	[1] = dissect_ses_small, [2] = dissect_ses_medium, [3] = dissect_ses_std,
	[4] = dissect_ses_rsp, [5] = dissect_ses_rsp, [6] = dissect_ses_rsp,
}

-- Returns the bytes the SES header (with its extension) took.
local function dissect_ses(tvb, pinfo, off, root, nh)
	local fn = SES_DISSECTORS[nh]
	if fn == nil then
		return 0
	end
	local need = SES_LEN[nh]
	local have = tvb:captured_len() - off
	local t = root:add(f.ses, tvb(off, math.min(need, have)))
	t:set_text("SES: " .. NEXT_HDRS[nh])
	if not fits(tvb, off, need, t, "SES " .. NEXT_HDRS[nh] .. " header") then
		return have
	end
	local n, what = fn(tvb, pinfo, off, t, nh)
	t:set_len(n)
	t:append_text(", " .. what)
	pinfo.cols.info:append(" " .. what)
	return n
end

---------------------------------------------------------------------------
-- PDS
---------------------------------------------------------------------------

local function dissect_syn_overlay(tvb, off, t, psn)
	local pm = add(t, "pdc_mode", tvb(off, 1))
	add(pm, "use_rsv", tvb(off, 1))
	add(pm, "pdc_mode_rsv", tvb(off, 1))
	local psn_off = band(tvb(off, 2):uint(), 0x0FFF)
	add(t, "psn_offset", tvb(off, 2))
	add_gen(t, "start_psn", tvb(off, 2), psn_add(psn, -psn_off))
end

local function dissect_pds_request(tvb, pinfo, t, ptype, flags)
	local cpo = sext16(tvb(2, 2):uint())
	local psn = tvb(4, 4):uint()
	add(t, "clear_psn_offset", tvb(2, 2))
	add_gen(t, "clear_psn", tvb(2, 2), psn_add(psn, cpo))
	add(t, "psn", tvb(4, 4))
	add(t, "spdcid", tvb(8, 2))
	if band(flags, 0x04) ~= 0 then
		dissect_syn_overlay(tvb, 10, t, psn)
	else
		add(t, "dpdcid", tvb(10, 2))
	end
	if ptype == 13 or ptype == 14 then
		add(t, "ccc_id", tvb(12, 1))
		add(t, "credit_target", tvb(13, 3))
	end
	pinfo.cols.info:append(string.format(" psn=%u", psn))
end

local function dissect_pds_ack(tvb, pinfo, t, ptype, flags)
	local off16 = tvb(2, 2):uint()
	local cack = tvb(4, 4):uint()
	if band(flags, 0x08) ~= 0 then
		add(t, "probe_opaque", tvb(2, 2))
	else
		add(t, "ack_psn_offset", tvb(2, 2))
		add_gen(t, "ack_psn", tvb(2, 2), psn_add(cack, sext16(off16)))
	end
	add(t, "cack_psn", tvb(4, 4))
	add(t, "spdcid", tvb(8, 2))
	add(t, "dpdcid", tvb(10, 2))
	pinfo.cols.info:append(string.format(" cack=%u", cack))
	if ptype == 7 then
		return
	end
	local e = t:add(f.ack_ext, tvb(12, ptype == 8 and 20 or 28))
	e:set_text("ACK extension")
	local cc_type = rshift(tvb(12, 1):uint(), 4)
	add(e, "cc_type", tvb(12, 1))
	add(e, "cc_flags", tvb(12, 1))
	add(e, "mpr", tvb(13, 1))
	add(e, "sack_offset", tvb(14, 2)):append_text(string.format(" (%+d)",
		sext16(tvb(14, 2):uint())))
	add(e, "sack_bitmap", tvb(16, 8))
	if ptype == 9 then
		add(e, "ccx_state", tvb(24, 16))
		return
	end
	local s = e:add(f.cc_state, tvb(24, 8))
	if cc_type == 0 then
		s:set_text("CC state: NSCC")
		add(s, "service_time", tvb(24, 2))
		add(s, "rc", tvb(26, 1))
		add(s, "rcv_cwnd_pend", tvb(26, 1))
		add(s, "rcvd_bytes", tvb(27, 3))
		add(s, "ooo_count", tvb(30, 2))
	elseif cc_type == 1 then
		s:set_text("CC state: Credit")
		add(s, "credit", tvb(24, 3))
		add(s, "cc_reserved", tvb(27, 3))
		add(s, "ooo_count", tvb(30, 2))
	end
end

local function dissect_pds_nack(tvb, pinfo, t, ptype, flags)
	local code = tvb(2, 1):uint()
	add(t, "nack_code", tvb(2, 1))
	add(t, "nack_vendor", tvb(3, 1))
	add(t, "nack_psn", tvb(4, 4))
	if band(flags, 0x08) ~= 0 then
		add(t, "nack_pkt_id", tvb(4, 4))
	end
	add(t, "spdcid", tvb(8, 2))
	add(t, "dpdcid", tvb(10, 2))
	add(t, "nack_payload", tvb(12, 4))
	if ptype == 12 then
		add(t, "nccx_type", tvb(16, 1))
		add(t, "nccx_state1", tvb(16, 8))
		add(t, "nccx_state2", tvb(24, 8))
	end
	pinfo.cols.info:append(string.format(" %s psn=%u",
		vs_name(NACK_CODES, code), tvb(4, 4):uint()))
end

local function dissect_pds_cp(tvb, pinfo, t, ctl, flags)
	local psn = tvb(4, 4):uint()
	add(t, "ctrl_probe_opaque", tvb(2, 2))
	add(t, "psn", tvb(4, 4))
	add(t, "spdcid", tvb(8, 2))
	if band(flags, 0x04) ~= 0 then
		dissect_syn_overlay(tvb, 10, t, psn)
	else
		add(t, "dpdcid", tvb(10, 2))
	end
	add(t, "ctrl_payload", tvb(12, 4))
	pinfo.cols.info:append(string.format(" %s psn=%u",
		vs_name(CTL_TYPES, ctl), psn))
end

-- Flag fields each PDS type carries (all in prologue byte 1).
local FLAG_SETS = {
	req = { "flags_retx", "flags_ar", "flags_syn" },
	rudi = { "flags_m", "flags_retx" },
	uud = {},
	ack = { "flags_m", "flags_retx", "flags_p", "flags_req" },
	nack = { "flags_m", "flags_retx", "flags_nt" },
	cp = { "flags_isrod", "flags_retx", "flags_ar", "flags_syn" },
}
local TYPE_FLAGS = {
	[2] = "req", [3] = "req", [13] = "req", [14] = "req", [4] = "rudi",
	[5] = "rudi", [6] = "uud", [7] = "ack", [8] = "ack", [9] = "ack",
	[10] = "nack", [12] = "nack", [11] = "cp",
}

local function dissect_uet(tvb, pinfo, tree)
	local len = tvb:captured_len()
	pinfo.cols.protocol = "UET"
	local root = tree:add(uet, tvb())
	add_role(root, tvb)
	if len < 2 then
		pinfo.cols.info = "PDS prologue"
		fits(tvb, 0, 2, root, "PDS prologue")
		return len
	end
	local word = tvb(0, 2):uint()
	local ptype = rshift(word, 11)
	local nh = band(rshift(word, 7), 0x0F)
	local flags = band(word, 0x7F)
	local tname = vs_name(PDS_TYPES, ptype)
	pinfo.cols.info = tname
	root:append_text(", PDS: " .. tname)

	if ptype == 1 then
		local t = add(root, "tss", tvb())
		t:append_text(": opaque, the payload follows it encrypted")
		return len
	end

	local hlen = PDS_LEN[ptype] or 2
	local t = root:add(f.pds, tvb(0, math.min(hlen, len)))
	t:set_text("PDS: " .. tname)
	add(t, "type", tvb(0, 2))
	if ptype == 11 then
		add(t, "ctl_type", tvb(0, 2))
	else
		add(t, "nh", tvb(0, 2))
	end
	local fl = add(t, "flags", tvb(0, 2))
	for _, k in ipairs(FLAG_SETS[TYPE_FLAGS[ptype]] or {}) do
		add(fl, k, tvb(1, 1))
	end
	if PDS_LEN[ptype] == nil then
		t:add_proto_expert_info(ue.odd, "Reserved PDS type")
		if len > 2 then
			data_dissector:call(tvb(2):tvb(), pinfo, root)
		end
		return len
	end

	if not fits(tvb, 0, hlen, t, "PDS " .. tname .. " header") then
		return len
	end

	local off = hlen
	local kind = TYPE_FLAGS[ptype]
	if kind == "req" then
		dissect_pds_request(tvb, pinfo, t, ptype, flags)
	elseif kind == "rudi" then
		add(t, "rudi_rsvd", tvb(2, 2))
		add(t, "pkt_id", tvb(4, 4))
		pinfo.cols.info:append(string.format(" pkt_id=%u", tvb(4, 4):uint()))
	elseif kind == "uud" then
		add(t, "uud_rsvd", tvb(2, 2))
	elseif kind == "ack" then
		dissect_pds_ack(tvb, pinfo, t, ptype, flags)
	elseif kind == "nack" then
		dissect_pds_nack(tvb, pinfo, t, ptype, flags)
	else
		dissect_pds_cp(tvb, pinfo, t, nh, flags)
	end

	-- A request whose SES header is missing was trimmed on the way (the
	-- switch keeps Ethernet, IP, UDP and the PDS header); it is not
	-- malformed. NACKs and CPs carry no SES header, whatever bits 10:7 say.
	local carries_ses = kind ~= "nack" and kind ~= "cp" and SES_LEN[nh]
	if carries_ses and REQUEST_TYPES[ptype] and len - off < SES_LEN[nh] and
			not cut_by_snaplen(tvb) then
		local it = add_gen(t, "trimmed", tvb(0, hlen), 1)
		it:add_proto_expert_info(ue.trimmed)
		pinfo.cols.info:append(" [trimmed]")
	elseif carries_ses then
		off = off + dissect_ses(tvb, pinfo, off, root, nh)
	end

	if len > off then
		data_dissector:call(tvb(off):tvb(), pinfo, root)
	end
	return len
end

function uet.dissector(tvb, pinfo, tree)
	cur_mark = nil
	local n = dissect_uet(tvb, pinfo, tree)
	if cur_mark ~= nil then
		info_mark(pinfo, cur_mark)
	end
	return n
end

local registered_port = nil
local function register_port()
	local udp = DissectorTable.get("udp.port")
	if registered_port ~= nil then
		udp:remove(registered_port, uet)
	end
	registered_port = uet.prefs.udp_port
	udp:add(registered_port, uet)
end

function uet.prefs_changed()
	if registered_port ~= uet.prefs.udp_port then
		register_port()
	end
end

register_port()
DissectorTable.get("udp.port"):add_for_decode_as(uet)
