import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcpServer, type McpServerConnection } from './connect-mcp-server.js';
import { realMcpServerConfig } from '@tool-search/test-utils';

// @modelcontextprotocol/server-filesystem on a temp folder: text, directories, a real PNG through
// read_media_file (whole, never cut), and roots as the way to name the allowed folder.

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Buffer) => {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type: string, data: Buffer) => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};
/** A valid RGB PNG of pseudo-random pixels (noise compresses badly: about 75 KB at 160x160). */
function noisePng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc((width * 3 + 1) * height);
  // Deterministic noise: SHA-256 of a counter, block by block.
  for (let offset = 0, block = 0; offset < rows.length; offset += 32, block += 1) createHash('sha256').update(String(block)).digest().copy(rows, offset);
  for (let row = 0; row < height; row += 1) rows[row * (width * 3 + 1)] = 0;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

let folder: string;
let png: Buffer;
const open: McpServerConnection[] = [];
beforeAll(() => {
  folder = realpathSync(mkdtempSync(join(tmpdir(), 'ts-fs-mcp-')));
  png = noisePng(160, 160);
  writeFileSync(join(folder, 'photo.png'), png);
  writeFileSync(join(folder, 'notes.txt'), 'first line\nsecond line\n');
});
afterAll(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
  rmSync(folder, { recursive: true, force: true });
});

describe('connectMcpServer with server-filesystem', () => {
  it('reads a PNG through read_media_file as one image part, byte for byte', async () => {
    const connection = await connectMcpServer(realMcpServerConfig('filesystem', { args: [folder] }), { requestTimeoutMs: 20_000 });
    open.push(connection);
    expect(png.length).toBeGreaterThan(39_000);
    const result = await connection.callTool('read_media_file', { path: join(folder, 'photo.png') });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.parts).toHaveLength(1);
    const [part] = result.parts;
    expect(part?.type === 'image' && part.mimeType).toBe('image/png');
    expect(part?.type === 'image' && Buffer.from(part.data, 'base64').equals(readFileSync(join(folder, 'photo.png')))).toBe(true);
  });

  it('reads text and lists a directory, and keeps the annotations of its tools', async () => {
    const connection = await connectMcpServer(realMcpServerConfig('filesystem', { args: [folder] }), { requestTimeoutMs: 20_000 });
    open.push(connection);
    expect(await connection.callTool('read_text_file', { path: join(folder, 'notes.txt') })).toMatchObject({
      ok: true,
      isError: false,
      parts: [{ type: 'text', text: 'first line\nsecond line\n' }],
    });
    const listing = await connection.callTool('list_directory', { path: folder });
    expect(listing.ok && JSON.stringify(listing.parts)).toContain('[FILE] photo.png');
    expect(connection.tools().find((tool) => tool.name === 'read_text_file')?.annotations).toMatchObject({ readOnlyHint: true });
    const write = connection.tools().find((tool) => tool.name === 'write_file');
    expect(write?.annotations?.readOnlyHint).toBe(false);
  });

  it('takes its allowed folder from the roots the connection offers', async () => {
    const connection = await connectMcpServer(realMcpServerConfig('filesystem', { name: 'fsroots' }), {
      requestTimeoutMs: 20_000,
      roots: [{ uri: pathToFileURL(folder).href, name: 'work' }],
    });
    open.push(connection);
    let allowed = '';
    for (let attempt = 0; attempt < 50 && !allowed.includes(folder); attempt += 1) {
      const result = await connection.callTool('list_allowed_directories', {});
      allowed = result.ok ? JSON.stringify(result.parts) : '';
      if (!allowed.includes(folder)) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(allowed).toContain(folder);
    expect(await connection.callTool('read_text_file', { path: join(folder, 'notes.txt') })).toMatchObject({ ok: true, isError: false });
  });

  it('reports a tool-level error (a path outside the allowed folder) as isError with the server text', async () => {
    const connection = await connectMcpServer(realMcpServerConfig('filesystem', { args: [folder] }), { requestTimeoutMs: 20_000 });
    open.push(connection);
    const result = await connection.callTool('read_text_file', { path: '/etc/hostname' });
    expect(result).toMatchObject({ ok: true, isError: true });
    expect(result.ok && JSON.stringify(result.parts)).toContain('Access denied');
  });
});
