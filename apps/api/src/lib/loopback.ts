/** An address or host name of this machine only (IPv4 127/8, IPv6 ::1, IPv4-mapped 127/8, `localhost`). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.replace(/^\[|\]$/g, '').toLowerCase();
  return plain === 'localhost' || plain === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(plain);
}
