/**
 * An upstream's icon is fetched when configured, checked, stored and served from Gatehouse's own
 * origin, so that the sign-in page shows it under its CSP `img-src 'self'` (upstream-icons.ts).
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { putProvider, type UpstreamProviderInput } from '../src/federation/providers.js';
import { authorizationQuery, PageBrowser, pkce } from './_authorize.js';
import { solidPng } from './_images.js';
import { startTestServer, type TestServer } from './_server.js';

const PNG = solidPng(16);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><script>1</script></svg>');

describe('federation: upstream icons served from Gatehouse’s origin', () => {
  let server: TestServer;
  let images: Server;
  let origin: string;
  const requests: string[] = [];

  before(async () => {
    server = await startTestServer();
    await server.addClient({
      id: 'rp',
      name: 'RP',
      redirectUris: ['http://127.0.0.1:8765/callback'],
      scope: ['openid'],
    });
    images = createServer((request, response) => {
      requests.push(request.url ?? '');
      const files: Record<string, [string, Buffer]> = {
        '/icon.png': ['image/png', PNG],
        '/icon.svg': ['image/svg+xml', SVG],
        '/not-an-image': ['image/png', Buffer.from('<html>hello</html>')],
        '/large.png': ['image/png', solidPng(1500)],
      };
      const file = files[new URL(request.url ?? '/', 'http://x').pathname];
      if (!file) return response.writeHead(404).end();
      response.writeHead(200, { 'content-type': file[0] }).end(file[1]);
    });
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
  });
  after(async () => {
    await server.close();
    images.closeAllConnections();
    await new Promise<void>((resolve) => images.close(() => resolve()));
  });

  const put = (id: string, icon: string | undefined, extra: Partial<UpstreamProviderInput> = {}) =>
    putProvider(
      server.context.store,
      { id, issuer: 'https://idp.example', client_id: 'c', client_secret: 's', display_name: id, icon, ...extra },
      server.clock.now(),
      undefined,
    );

  it('the icon is fetched once at configuration and the sign-in page shows it from Gatehouse’s own origin, under img-src ’self’, cached for a year by its digest', async () => {
    const before = requests.length;
    await put('corp', `${origin}/icon.png`);
    assert.deepEqual(requests.slice(before), ['/icon.png']);
    const page = await new PageBrowser(server).authorize(
      authorizationQuery('rp', pkce().challenge, { scope: 'openid', nonce: 'n' }),
    );
    const src = /<img src="([^"]+)"[^>]*>\s*Sign in with corp/.exec(page.html)?.[1];
    assert.ok(src, 'the button has an image');
    assert.match(src, /^\/federation\/icons\/corp\?v=[\w-]{16}$/);
    assert.match(page.headers.get('content-security-policy') ?? '', /img-src 'self'/);
    const served = await fetch(`${server.url}${src}`);
    assert.equal(served.status, 200);
    assert.equal(served.headers.get('content-type'), 'image/png');
    assert.equal(served.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(served.headers.get('x-content-type-options'), 'nosniff');
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), PNG);
    const otherVersion = await fetch(`${server.url}/federation/icons/corp?v=old`);
    assert.equal(otherVersion.headers.get('cache-control'), 'no-cache', 'another v: the image now, not kept');
    assert.equal((await fetch(`${server.url}/federation/icons/nobody`)).status, 404);
  });

  it('an unchanged icon is not fetched again when the entry is applied again (UPSTREAMS_FILE at every start); a changed one is', async () => {
    await put('again', `${origin}/icon.png`);
    const before = requests.length;
    await put('again', `${origin}/icon.png`, { display_name: 'Again' });
    assert.equal(requests.length, before);
    await put('again', `${origin}/icon.png?v=2`);
    assert.equal(requests.length, before + 1);
  });

  it('a data:image/png icon is decoded, checked and served the same way', async () => {
    await put('inline', `data:image/png;base64,${PNG.toString('base64')}`);
    const served = await fetch(`${server.url}/federation/icons/inline`);
    assert.equal(served.headers.get('content-type'), 'image/png');
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), PNG);
  });

  it('an icon that is SVG, not an image, too large, missing, off loopback over http, or on a private address is refused at configuration, saying what to fix', async () => {
    const refusals: [string, RegExp][] = [
      [`${origin}/icon.svg`, /a svg image: PNG, JPEG, GIF, WebP or ICO only/],
      [`data:image/svg+xml;base64,${SVG.toString('base64')}`, /no SVG/],
      [`${origin}/not-an-image`, /not an image/],
      [`${origin}/large.png`, /1500×1500 px: at most 1024 px a side/],
      [`${origin}/missing.png`, /answered HTTP 404/],
      ['http://icons.example/icon.png', /icon: a data:image\/ URL, or a URL that is https, or http on loopback only/],
      ['https://10.0.0.1/icon.png', /non-public address/],
    ];
    for (const [icon, message] of refusals)
      await assert.rejects(put('refused', icon), (error: Error) => {
        assert.match(error.message, message, icon);
        return true;
      });
    assert.equal(await server.context.store.findUpstreamProvider('refused'), undefined, 'nothing stored');
  });
});
