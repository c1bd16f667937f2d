// A NATS user nkey pair for tests/cluster/cluster_auth.sh (doc/cluster.md), made
// without NATS tooling (Debian has no `nk`): an Ed25519 key from node's
// crypto, its seed and public key in the nkeys text form (a prefix byte,
// the 32 bytes, a CRC-16/XMODEM little-endian, RFC 4648 Base32 without
// padding). Writes the seed to the file named by argv[2], prints the
// public key.
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';

function crc16(bytes) {
	let crc = 0;
	for (const b of bytes) {
		crc ^= b << 8;
		for (let i = 0; i < 8; i++)
			crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
	}
	return crc;
}

function base32(bytes) {
	const a = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
	let out = '', acc = 0, bits = 0;
	for (const b of bytes) {
		acc = (acc << 8) | b;
		bits += 8;
		while (bits >= 5) {
			bits -= 5;
			out += a[(acc >> bits) & 31];
		}
		acc &= (1 << bits) - 1;
	}
	if (bits > 0) out += a[(acc << (5 - bits)) & 31];
	return out;
}

function encode(prefix, raw) {
	const body = Buffer.concat([Buffer.from(prefix), raw]);
	const c = crc16(body);
	return base32(Buffer.concat([body, Buffer.from([c & 0xff, c >> 8])]));
}

const USER = 20 << 3, SEED = 18 << 3;
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const seed = privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(-32);
const pub = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
writeFileSync(process.argv[2], encode([SEED | (USER >> 5), (USER & 31) << 3], seed) + '\n', { mode: 0o600 });
console.log(encode([USER], pub));
