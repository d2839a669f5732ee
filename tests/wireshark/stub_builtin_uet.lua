-- Plays the part of a Wireshark that has its own UET dissector
-- (packet-uet.c registers a protocol and a dissector named "uet"): loaded
-- before scripts/wireshark/uet.lua, it must make that script stand aside.
local stub = Proto("uet", "Ultra Ethernet Transport (stub for the test)")
local f_stub = ProtoField.bool("uet.stub", "Decoded by the stub")
stub.fields = { f_stub }
function stub.dissector(tvb, pinfo, tree)
	tree:add(stub, tvb()):add(f_stub, tvb(0, 0), true)
	return tvb:len()
end
DissectorTable.get("udp.port"):add(4793, stub)
