import { BlockList, isIP } from "node:net";

/** A setting's list of addresses (METRICS_ALLOW): "loopback", addresses and subnets, comma-separated; null when it is not valid. */
export function allowList(value: string): BlockList | null {
  const list = new BlockList();
  for (const entry of value
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)) {
    if (entry === "loopback") {
      list.addSubnet("127.0.0.0", 8, "ipv4");
      list.addAddress("::1", "ipv6");
      continue;
    }
    const [address, bits, ...rest] = entry.split("/");
    const family = isIP(address);
    if (rest.length > 0 || family === 0) return null;
    const type = family === 4 ? "ipv4" : "ipv6";
    if (bits === undefined) list.addAddress(address, type);
    else if (/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128))
      list.addSubnet(address, Number(bits), type);
    else return null;
  }
  return list;
}

export function isAllowed(list: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 4 ? "ipv4" : "ipv6");
}
