import { BlockList, isIP } from 'node:net';

/** Decides from the client address whether a request comes from the reading room (DESIGN.md §7). */
export class ReadingRoom {
  private readonly list = new BlockList();

  constructor(cidrs: string[]) {
    for (const cidr of cidrs) {
      const [address = '', prefixText] = cidr.split('/');
      const family = isIP(address);
      if (family === 0) throw new Error(`READING_ROOM_CIDRS: not an address: ${cidr}`);
      const type = family === 6 ? 'ipv6' : 'ipv4';
      const max = family === 6 ? 128 : 32;
      const prefix = prefixText === undefined ? max : Number(prefixText);
      if (!/^\d+$/.test(prefixText ?? '0') || prefix > max)
        throw new Error(`READING_ROOM_CIDRS: not a prefix length: ${cidr}`);
      this.list.addSubnet(address, prefix, type);
    }
  }

  contains(ip: string | undefined): boolean {
    if (!ip) return false;
    const plain = ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
    const family = isIP(plain);
    if (family === 0) return false;
    return this.list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
  }
}
