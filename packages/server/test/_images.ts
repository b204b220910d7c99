import { crc32, deflateSync } from 'node:zlib';

/**
 * A square PNG of one colour, `side` pixels a side (PNG, ISO/IEC 15948: signature, IHDR, one IDAT of
 * filter-0 RGB rows, IEND): an upstream's icon for the federation tests, made here, not shipped.
 */
export function solidPng(side: number, rgb: readonly [number, number, number] = [47, 91, 216]): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, filter 0, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: side }, () => rgb).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: side }, () => row)));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}
