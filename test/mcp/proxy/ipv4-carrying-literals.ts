// IPv6 forms that carry an IPv4 address: NAT64 (64:ff9b::/96, 64:ff9b:1::/48), 6to4 (2002::/16), IPv4-compatible
// (::a.b.c.d), IPv4-mapped and -translated (::ffff:a.b.c.d, ::ffff:0:a.b.c.d), Teredo (2001::/32), as URL hosts.
/** Each carries 169.254.169.254, the metadata address. */
export const METADATA = ['[64:ff9b::a9fe:a9fe]', '[64:ff9b::169.254.169.254]', '[2002:a9fe:a9fe::]', '[::169.254.169.254]', '[::ffff:169.254.169.254]', '[::ffff:0:a9fe:a9fe]', '[64:ff9b:1::a9fe:a9fe]', '[64:ff9b:1:a9fe:a9:fe00::]', '[2001:0:4136:e378:8000:63bf:5601:5601]'];
/** Each carries a loopback or private address. */
export const LOOPBACK = ['[64:ff9b::7f00:1]', '[2002:7f00:1::]', '[::127.0.0.1]', '[::ffff:127.0.0.1]', '[::ffff:0:127.0.0.1]', '[64:ff9b::10.0.0.1]', '[2001:0:4136:e378:8000:63bf:80ff:fffe]'];
