import type { Result } from '../schema/result.js';
import { isIP } from 'node:net';

/**
 * Which `Host` headers `assay view` answers, and what it says when it listens
 * beyond loopback. A web page elsewhere can reach a server on this machine
 * through a DNS name it controls pointed at the server's address (DNS
 * rebinding); its requests then carry that name in `Host`. Answering only
 * the names the server knows it is reached by (loopback names, the address
 * it listens on, names the user allows) refuses them, on every bind: a
 * wildcard or LAN bind widens who can connect, never which names are
 * answered.
 */

/** The names every view answers: loopback is this machine, and no page elsewhere can own these names. */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** A listening socket's address, as `server.address()` gives it. */
export interface BoundAddress {
  readonly address: string;
  readonly family: string;
  readonly port: number;
}

/** An address of this machine (os.networkInterfaces()), which a wildcard bind listens on. */
export interface InterfaceAddress {
  readonly address: string;
  readonly family: string;
}

/** Whether an IP address is loopback: 127.0.0.0/8, ::1, or 127.0.0.0/8 mapped into IPv6. */
export function isLoopbackAddress(address: string): boolean {
  const text = address.toLowerCase();
  if (isIP(text) === 4) return text.startsWith('127.');
  if (isIP(text) !== 6) return false;
  if (text.startsWith('::ffff:')) return isLoopbackAddress(text.slice('::ffff:'.length));
  return expandedIpv6(text) === '0000:0000:0000:0000:0000:0000:0000:0001';
}

/** Whether an IP address is a wildcard (every interface): 0.0.0.0 or ::, however spelled (`0`, `::0` and `0:0:0:0:0:0:0:0` listen as these). */
export function isWildcardAddress(address: string): boolean {
  const text = address.toLowerCase();
  if (isIP(text) === 4) return text === '0.0.0.0';
  return isIP(text) === 6 && /^[0:]+$/.test(expandedIpv6(text));
}

/** An IPv6 address with its eight groups written out, four digits each (an embedded IPv4 tail kept as it is, which is enough to tell loopback and wildcard). */
function expandedIpv6(address: string): string {
  const [head = '', tail] = address.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array.from({ length: missing }, () => '0'), ...right].map((group) => group.padStart(4, '0')).join(':');
}

/** An address as a Host header names it: IPv6 in brackets. */
function hostForm(address: string): string {
  return isIP(address) === 6 ? `[${address.toLowerCase()}]` : address.toLowerCase();
}

/**
 * A name given with `--allow-host` as a Host header carries it: a DNS name
 * (lower-cased, an international one in its punycode form) or an IP address
 * (IPv6 with or without brackets), in the form browsers send. A port, a path
 * or anything else is refused with the reason.
 */
export function allowedHostName(given: string): Result<string> {
  const text = given.trim();
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (isIP(bare) === 6) {
    // The WHATWG URL parser writes an IPv6 address as browsers send it (compressed, lower-case).
    return { ok: true, value: new URL(`http://[${bare}]/`).host };
  }
  if (text === '' || /[\s/\\:@?#[\]%]/.test(text)) {
    return {
      ok: false,
      error: `"${given}" is not a host name; give a name such as view.example.com or an address such as 192.168.1.20, without a port`,
    };
  }
  let parsed: URL;
  try {
    parsed = new URL(`http://${text}/`);
  } catch {
    return {
      ok: false,
      error: `"${given}" is not a host name; give a name such as view.example.com or an address such as 192.168.1.20, without a port`,
    };
  }
  return { ok: true, value: parsed.hostname };
}

/** The Host headers a view answers, and the names to tell the user. */
export interface HostCheck {
  /** The allowed names, without a port, in the order they are told. */
  readonly names: readonly string[];
  /** Whether a request's Host header names this server. */
  allows(host: string | undefined): boolean;
}

/**
 * The Host check of a server listening on `bound`: loopback names, the name
 * it was asked to listen on (`--host`), the address it listens on (for a
 * wildcard, every address of the machine's interfaces, which it listens on),
 * and the `extra` names (`--allow-host`), each with the port listened on, or
 * without one when the port is the default of http (80) or https (443), as
 * browsers then send it.
 */
export function hostCheck(
  bound: BoundAddress,
  options: { readonly listenedOn: string; readonly extra?: readonly string[]; readonly interfaces?: readonly InterfaceAddress[] },
): HostCheck {
  const addresses = isWildcardAddress(bound.address) ? (options.interfaces ?? []).map((entry) => entry.address) : [bound.address];
  const listenedOn = allowedHostName(options.listenedOn);
  const names = [
    ...new Set([
      ...LOOPBACK_NAMES,
      ...(listenedOn.ok && !isWildcardAddress(listenedOn.value.replace(/^\[|\]$/g, '')) ? [listenedOn.value] : []),
      ...addresses.filter((address) => !isWildcardAddress(address)).map(hostForm),
      ...(options.extra ?? []),
    ]),
  ];
  const allowed = new Set(names);
  const defaultPort = bound.port === 80 || bound.port === 443;
  return {
    names,
    allows(host) {
      if (host === undefined) return false;
      const parsed = splitHost(host.toLowerCase());
      if (parsed === undefined || !allowed.has(parsed.name)) return false;
      return parsed.port === undefined ? defaultPort : parsed.port === String(bound.port);
    },
  };
}

/** A Host header's name and port (`[::1]:8750`, `localhost`); undefined when it is not of that form. */
function splitHost(host: string): { name: string; port: string | undefined } | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(host);
  if (match === null) return undefined;
  return { name: match[1] ?? '', port: match[2] };
}

/**
 * What `assay view` prints on stderr when it listens beyond loopback, or
 * undefined on loopback: where it listens, that anyone who can connect reads
 * the whole store without signing in, and the Host names it answers.
 */
export function exposureWarning(bound: BoundAddress, check: HostCheck, storeName: string): string | undefined {
  if (isLoopbackAddress(bound.address)) return undefined;
  const where = isWildcardAddress(bound.address)
    ? `${hostForm(bound.address)}, every network interface of this machine,`
    : `${hostForm(bound.address)}, an address other machines can reach,`;
  return (
    `assay view: warning: listening on ${where} port ${bound.port}: anyone who can connect to it reads the whole ${storeName} ` +
    `(every suite's history, every run's report and cases, every comparison), with no sign-in. ` +
    `It answers requests for ${check.names.join(', ')} only (add a name with --allow-host NAME); ` +
    `listen on 127.0.0.1 (the default) to keep the store to this machine.`
  );
}
